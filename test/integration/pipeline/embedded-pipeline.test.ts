import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { decideBody } from '../../helpers/test-app.js';
import { analyticsEndpointNames, expectAnalyticsShape, overviewKpi } from './analytics-shapes.js';
import {
  call,
  createMerchant,
  createPipelineNamespace,
  decisionsTile,
  deletePipelineNamespace,
  pipelineEnv,
  type PipelineNamespace,
} from './pipeline-harness.js';
import { createPinoSink } from './pino-sink.js';

/**
 * The same spine in one process: memory bus, memory state, chDB under DATA_DIR. Everything is
 * in-process, so awaiting the workers' caughtUp() is enough: no polling.
 */
describe('embedded pipeline (memory bus and state, chDB)', () => {
  const merchantId = 'shop-embedded';
  let namespace: PipelineNamespace;
  let server: RunningServer | undefined;
  let auth: Record<string, string>;

  async function caughtUp(): Promise<void> {
    for (const worker of server!.workers) await worker.caughtUp();
  }

  beforeAll(async () => {
    namespace = await createPipelineNamespace();
    server = await startServer(loadConfig(pipelineEnv(namespace, { distributed: false, embeddedWorkers: true })), createPinoSink().logger);
    expect(server.runtime.mode).toEqual({ state: 'embedded', bus: 'embedded', analytics: 'chdb', jobs: 'embedded' });
    auth = await createMerchant(server.url, merchantId);
  });

  afterAll(async () => {
    await server?.stop();
    if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: false });
  });

  it('shows a decision in /analytics/decisions and applies its feedback to the next decision when the workers have caught up', async () => {
    const url = server!.url;
    const first = await call(url, 'POST', '/decide-gateway', decideBody(merchantId, 'emb-1'), auth);
    expect(first.status).toBe(200);
    const chosen = first.body.decided_gateway as string;
    await caughtUp();
    expect(await decisionsTile(url, auth)).toBe(1);
    const decisions = await call(url, 'GET', '/analytics/decisions', undefined, auth);
    expect(decisions.body.approaches).toEqual([{ rule_name: first.body.routing_approach, count: 1 }]);

    expect((await call(url, 'POST', '/update-gateway-score', { merchantId, gateway: chosen, paymentId: 'emb-1', status: 'FAILURE' }, auth)).status).toBe(200);
    await caughtUp();
    const second = await call(url, 'POST', '/decide-gateway', decideBody(merchantId, 'emb-2'), auth);
    expect(second.body.gateway_priority_map[chosen]).toBeLessThan(1);
    // sr-windows published a score snapshot; analytics-sink stores it: catch up once more.
    await caughtUp();

    const overview = await call(url, 'GET', '/analytics/overview', undefined, auth);
    expect(overview.status).toBe(200);
    expect(overviewKpi(overview.body, 'Decision events / 1h')).toBe(2);
    expect(overviewKpi(overview.body, 'Score snapshots')).toBe(1);
    expect(overviewKpi(overview.body, 'Errors')).toBe(0);
    expect(overview.body.route_hits).toEqual([
      { route: '/decide_gateway', count: 2 },
      { route: '/update_gateway', count: 1 },
      { route: '/rule_evaluate', count: 0 },
    ]);

    const audit = await call(url, 'GET', '/analytics/payment-audit?payment_id=emb-1', undefined, auth);
    expect(audit.body.timeline.map((entry: { flow_type: string }) => entry.flow_type)).toEqual(
      expect.arrayContaining(['decide_gateway_decision', 'update_gateway_score_update']),
    );
  });

  it('lists a decision in /analytics/log-summaries and the overview errors when it was refused for an empty gateway list', async () => {
    const url = server!.url;
    const refused = await call(url, 'POST', '/decide-gateway', decideBody(merchantId, 'emb-bad', { eligibleGatewayList: [] }), auth);
    expect(refused.status).toBe(400);
    expect(refused.body.error_info.code).toBe('GATEWAY_NOT_FOUND');
    await caughtUp();

    const logs = await call(url, 'GET', '/analytics/log-summaries', undefined, auth);
    expect(logs.status).toBe(200);
    expect(logs.body.total_errors).toBeGreaterThanOrEqual(1);
    expect(logs.body.errors).toContainEqual(expect.objectContaining({ route: 'decide_gateway', error_code: 'gateway_not_found', count: 1 }));
    expect(logs.body.samples).toContainEqual(expect.objectContaining({ payment_id: 'emb-bad', flow_type: 'decide_gateway_error', status: 'failure' }));

    const overview = await call(url, 'GET', '/analytics/overview', undefined, auth);
    expect(overviewKpi(overview.body, 'Errors')).toBe(1);
    const decisions = await call(url, 'GET', '/analytics/decisions', undefined, auth);
    expect(decisions.body.tiles.find((tile: { label: string }) => tile.label === 'Error rate').value).not.toBe('0.00%');
  });

  it('answers every analytics endpoint with the reference shape, and 400 when a parameter is invalid', async () => {
    for (const endpoint of analyticsEndpointNames) {
      const response = await call(server!.url, 'GET', `/analytics/${endpoint}`, undefined, auth);
      expect(response.status, endpoint).toBe(200);
      expectAnalyticsShape(endpoint, response.body, merchantId);
    }
    const invalid = await call(server!.url, 'GET', '/analytics/log-summaries?page=abc', undefined, auth);
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toContain('page');
  });
});
