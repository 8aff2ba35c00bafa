import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { decideBody } from '../../helpers/test-app.js';
import { levels } from '../adapters/log-sink.js';
import { localService } from '../adapters/local-services.js';
import {
  call,
  createMerchant,
  createPipelineNamespace,
  deletePipelineNamespace,
  pipelineEnv,
  withDeadline,
  type PipelineNamespace,
} from './pipeline-harness.js';
import { createDecisionLoad } from './decision-load.js';
import { createPinoSink } from './pino-sink.js';

/** At most this many decisions while Redis is stopping or starting (each phase). */
const phaseCap = 1000;

describe('distributed pipeline across a Redis restart', () => {
  const merchantId = 'shop-redis-restart';
  const sink = createPinoSink();
  let namespace: PipelineNamespace;
  let server: RunningServer | undefined;

  async function caughtUp(): Promise<void> {
    for (const worker of server!.workers) await withDeadline(`${worker.name} catching up`, worker.caughtUp(), 60_000);
  }

  beforeAll(async () => {
    await localService('redis', 'start');
    namespace = await createPipelineNamespace();
    server = await startServer(loadConfig(pipelineEnv(namespace, { distributed: true, embeddedWorkers: true })), sink.logger);
  });

  afterAll(async () => {
    await localService('redis', 'start');
    await server?.stop();
    if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: true });
  });

  it('keeps deciding from cached state with optimistic scores when Redis is down, and learns from feedback again after it restarts', async () => {
    const url = server!.url;
    const auth = await createMerchant(url, merchantId);
    const decide = (paymentId: string) => call(url, 'POST', '/decide-gateway', decideBody(merchantId, paymentId), auth);
    const feedback = (paymentId: string, gateway: string) =>
      call(url, 'POST', '/update-gateway-score', { merchantId, gateway, paymentId, status: 'FAILURE' }, auth);

    // Warm the caches (API key, merchant, configs) and teach the window one failure.
    const warm = await decide('warm-0');
    const failing = warm.body.decided_gateway as string;
    expect((await feedback('warm-0', failing)).status).toBe(200);
    await caughtUp();
    const taught = await decide('warm-1');
    const taughtScore = taught.body.gateway_priority_map[failing] as number;
    expect(taughtScore).toBeLessThan(1);

    const load = createDecisionLoad(url, auth, merchantId, decideBody);
    await load.run('before', 20);
    await load.during('stopping', localService('redis', 'stop'), phaseCap);
    await withDeadline('outage logged', sink.once('state store unavailable'), 30_000);

    // Degraded: merchant and config from the cache, no window reachable, so every gateway scores 1.0.
    const degraded = await decide('down-probe');
    expect(degraded.status).toBe(200);
    expect(degraded.body.gateway_priority_map).toEqual({ stripe: 1, adyen: 1 });
    await load.run('down', 100);

    const recovered = sink.once('state store recovered');
    await load.during('starting', localService('redis', 'start'), phaseCap);
    await withDeadline('recovery logged', recovered, 30_000);
    expect(load.failures).toEqual([]);
    expect(load.byPhase.get('down')).toBe(100);

    const unavailable = sink.entries.filter((entry) => entry.msg?.startsWith('state store unavailable'));
    expect(unavailable.length).toBeGreaterThan(0);
    expect(unavailable.every((entry) => entry.level === levels.error)).toBe(true);
    expect(sink.entries.find((entry) => entry.msg === 'state store recovered')?.level).toBe(levels.info);

    // The window survived the restart (saved on shutdown) and is read again.
    await caughtUp();
    const after = await decide('after-0');
    expect(after.status).toBe(200);
    expect(after.body.gateway_priority_map[failing]).toBe(taughtScore);

    // And new feedback takes effect again.
    const other = after.body.decided_gateway as string;
    expect(other).not.toBe(failing);
    expect((await feedback('after-0', other)).status).toBe(200);
    await caughtUp();
    const learned = await decide('after-1');
    expect(learned.body.gateway_priority_map[other]).toBeLessThan(1);
  });
});
