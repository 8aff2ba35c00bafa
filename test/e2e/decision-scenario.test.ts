import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../cli/start-service.js';
import { loadConfig } from '../../src/config/load-config.js';
import { decideBody } from '../helpers/test-app.js';

const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-scenario-'));
const env = { PORT: '0', DATA_DIR: dataDir, ADMIN_SECRET: 'scenario-secret', LOG_LEVEL: 'silent' };

async function call(server: RunningServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
}

describe('decision scenario on the embedded service', () => {
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('moves traffic away from a failing gateway and keeps configs across a restart', async () => {
    server = await startServer(loadConfig(env), pino({ level: 'silent' }));
    const created = await call(server, 'POST', '/merchant-account/create', { merchant_id: 'shop' }, { 'x-admin-secret': 'scenario-secret' });
    expect(created.status).toBe(200);
    const auth = { 'x-api-key': created.body.api_key as string };
    const config = { type: 'successRate', data: { defaultBucketSize: 20, defaultHedgingPercent: 0 } };
    expect((await call(server, 'POST', '/rule/create', { merchant_id: 'shop', config }, auth)).status).toBe(200);

    const first = await call(server, 'POST', '/decide-gateway', decideBody('shop', 'pay-0'), auth);
    expect(first.status).toBe(200);
    const chosen = first.body.decided_gateway as string;
    const other = chosen === 'stripe' ? 'adyen' : 'stripe';

    // Repeated failures on the chosen gateway, each on its own decided payment.
    let decided = chosen;
    for (let i = 1; i <= 3; i++) {
      await call(server, 'POST', '/update-gateway-score', { merchantId: 'shop', gateway: chosen, paymentId: `pay-${i - 1}`, status: 'FAILURE' }, auth);
      for (const worker of server.workers) await worker.caughtUp();
      const next = await call(server, 'POST', '/decide-gateway', decideBody('shop', `pay-${i}`, { eligibleGatewayList: [chosen, other] }), auth);
      decided = next.body.decided_gateway;
      expect(next.body.gateway_priority_map[chosen]).toBeLessThan(1);
    }
    expect(decided).toBe(other);

    await server.stop();
    server = await startServer(loadConfig(env), pino({ level: 'silent' }));
    const afterRestart = await call(server, 'POST', '/rule/get', { merchant_id: 'shop', algorithm: 'successRate' }, auth);
    expect(afterRestart.status).toBe(200);
    expect(afterRestart.body.config).toEqual(config);
    expect((await call(server, 'GET', '/merchant-account/shop', undefined, auth)).status).toBe(200);
    const again = await call(server, 'POST', '/decide-gateway', decideBody('shop', 'pay-after', { eligibleGatewayList: [chosen, other] }), auth);
    expect(again.body.decided_gateway).toBe(other);
    // chDB holds one data directory per process: release it before the next test opens another.
    await server.stop();
    server = undefined;
  });

  it('drains the bus on shutdown, so feedback accepted just before it still counts after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-drain-'));
    const drainEnv = { ...env, DATA_DIR: dir };
    let running = await startServer(loadConfig(drainEnv), pino({ level: 'silent' }));
    try {
      const created = await call(running, 'POST', '/merchant-account/create', { merchant_id: 'drain' }, { 'x-admin-secret': 'scenario-secret' });
      const auth = { 'x-api-key': created.body.api_key as string };
      await call(
        running,
        'POST',
        '/rule/create',
        { merchant_id: 'drain', config: { type: 'successRate', data: { defaultBucketSize: 10, defaultHedgingPercent: 0 } } },
        auth,
      );
      await call(running, 'POST', '/decide-gateway', decideBody('drain', 'p1'), auth);
      const accepted = await call(
        running,
        'POST',
        '/update-gateway-score',
        { merchantId: 'drain', gateway: 'stripe', paymentId: 'p1', status: 'FAILURE' },
        auth,
      );
      expect(accepted.status).toBe(200);
      // No caughtUp(): stop() itself must drain what was accepted.
      await running.stop();
      running = await startServer(loadConfig(drainEnv), pino({ level: 'silent' }));
      const next = await call(running, 'POST', '/decide-gateway', decideBody('drain', 'p2'), auth);
      expect(next.body.gateway_priority_map).toEqual({ stripe: 0.9, adyen: 1 });
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
