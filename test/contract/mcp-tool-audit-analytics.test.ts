import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolkit } from '../../cli/create-toolkit.js';
import { createManualClock } from '../../src/time/clock.js';
import type { NeuroLink } from '../../src/toolkit/neurolink.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';
import { echoStdioConfig } from '../integration/mcp/mcp-test-helpers.js';

/**
 * Tool executions on the audit trail where audit events are read (issue 28): `tool.executed`
 * events of /api/mcp/execute go through the analytics sink into chDB and show in the merchant's
 * /analytics/log-summaries, and in no other merchant's. A real MCP server (the operator's, over stdio).
 */
describe('tool runs in /analytics/log-summaries (embedded, chDB)', () => {
  const now = Date.UTC(2026, 0, 15, 12, 0, 0);
  let analytics: ChdbAnalyticsUnderTest;
  let toolkit: NeuroLink;
  let t: TestApp;
  let key: Record<string, string>;
  let otherKey: Record<string, string>;

  beforeAll(async () => {
    analytics = await openChdbAnalytics('tool-audit');
    toolkit = createToolkit({ logger: pino({ level: 'silent' }), cwd: mkdtempSync(join(tmpdir(), 'sytest-tool-audit-mcp-')), env: {} }).toolkit;
    await toolkit.addMCPServer('ops', echoStdioConfig());
    const clock = createManualClock(now);
    t = await createTestApp({ clock, analytics: analytics.store, toolkit, env: { MCP_OPERATOR_SERVERS_MERCHANTS: 'audit-shop' } });
    await analytics.startSink(t.bus, clock);
    key = withKey((await createMerchant(t.app, 'audit-shop')).apiKey);
    otherKey = withKey((await createMerchant(t.app, 'quiet-shop')).apiKey);
    for (const [toolName, params] of [
      ['echo', { text: 'private words' }],
      ['fail', {}],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url: '/api/mcp/execute', headers: key, payload: { serverName: 'ops', toolName, params } });
      expect([200, 422]).toContain(response.statusCode);
    }
    await t.eventsCaughtUp();
    await analytics.caughtUp();
  }, 60_000);

  afterAll(async () => {
    await analytics?.close(t);
    await toolkit?.close();
  });

  it("lists each run in the merchant's log-summaries (never the arguments), and in no other merchant's", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/analytics/log-summaries', headers: key });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { errors: Record<string, unknown>[]; samples: Record<string, unknown>[] };
    expect(body.errors.map((group) => [group['route'], group['error_message'], group['count']])).toEqual(
      expect.arrayContaining([['mcp_execute', 'Tool ops/fail (mcp, execute) failed: MCP_TOOL', 1]]),
    );
    expect(body.samples.filter((sample) => sample['flow_type'] === 'tool_executed_success')).toHaveLength(1);
    expect(body.samples.filter((sample) => sample['flow_type'] === 'tool_executed_failure')).toHaveLength(1);
    expect(response.body).not.toContain('private words');

    const other = await t.app.inject({ method: 'GET', url: '/analytics/log-summaries', headers: otherKey });
    expect(other.statusCode).toBe(200);
    expect(other.body).not.toContain('tool_executed');
  });
});
