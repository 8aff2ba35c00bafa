import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { decideBody } from '../../helpers/test-app.js';
import { localService } from '../adapters/local-services.js';
import {
  createClickHouse,
  createMerchant,
  createPipelineNamespace,
  decisionRowCounts,
  decisionsTile,
  deletePipelineNamespace,
  pipelineEnv,
  withDeadline,
  type PipelineNamespace,
} from './pipeline-harness.js';
import { createDecisionLoad } from './decision-load.js';
import { createPinoSink } from './pino-sink.js';

/** At most this many decisions while the broker is stopping or starting (each phase). */
const phaseCap = 1500;

describe('distributed pipeline across a Kafka outage', () => {
  const merchantId = 'shop-kafka-outage';
  const sink = createPinoSink();
  const clickhouse = createClickHouse();
  let namespace: PipelineNamespace;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    await localService('kafka', 'start');
    namespace = await createPipelineNamespace();
    server = await startServer(loadConfig(pipelineEnv(namespace, { distributed: true, embeddedWorkers: true })), sink.logger);
  });

  afterAll(async () => {
    // Whatever happened above, the next test finds the broker running.
    await localService('kafka', 'start');
    await server?.stop();
    await clickhouse.close();
    if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: true });
  });

  it('answers every decision and lands each one in ClickHouse exactly once when the broker stops and starts under traffic', async () => {
    const url = server!.url;
    const auth = await createMerchant(url, merchantId);
    const load = createDecisionLoad(url, auth, merchantId, decideBody);

    await load.run('before', 100);
    await load.during('stopping', localService('kafka', 'stop'), phaseCap);
    await withDeadline('bus noticing the outage', sink.once('event bus unavailable'), 30_000);
    await load.run('down', 300);
    expect(server!.runtime.bus.health()).toMatchObject({ connected: false, spoolFull: false });
    expect(server!.runtime.bus.health().spooled).toBeGreaterThanOrEqual(300);
    await load.during('starting', localService('kafka', 'start'), phaseCap);
    await load.run('after', 100);

    expect(load.failures).toEqual([]);
    expect(load.byPhase.get('down')).toBe(300);
    // Traffic kept coming while the broker went away and while it came back.
    expect(load.byPhase.get('stopping')).toBeGreaterThan(0);
    expect(load.byPhase.get('starting')).toBeGreaterThan(0);

    // Every accepted event reaches the broker (spool replayed) and both workers handle it.
    for (const worker of server!.workers) await withDeadline(`${worker.name} catching up`, worker.caughtUp(), 180_000);
    await withDeadline('spool replay', sink.once('event bus recovered'), 10_000);
    expect(server!.runtime.bus.health()).toMatchObject({ connected: true, spooled: 0, spoolFull: false });

    const counts = await decisionRowCounts(clickhouse, namespace.clickhouseDatabase, merchantId);
    expect(counts).toEqual({ rows: load.decided.length, unique: load.decided.length });
    expect(await decisionsTile(url, auth)).toBe(load.decided.length);
    expect(sink.count('event bus unavailable')).toBe(1);
  });
});
