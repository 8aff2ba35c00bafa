import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChdbAnalyticsStore } from '../../../src/adapters/chdb/chdb-analytics-store.js';
import { createClickHouseServerAnalyticsStore } from '../../../src/adapters/clickhouse/clickhouse-server-analytics-store.js';
import { createClickHouseServerExecutor } from '../../../src/adapters/clickhouse/clickhouse-server-executor.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import type { LlmOverviewReport } from '../../../src/generated/schema-types.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';
import * as analyticsSink from '../../../workers/analytics-sink.js';
import type { WorkerHandle } from '../../../workers/worker-handle.js';
import { anthropicMessage } from '../../fixtures/providers/anthropic-wire.js';
import { startFakeHttpServer, type FakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { responsesMessageItem, responsesResponse } from '../../fixtures/providers/openai-responses-wire.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../../helpers/test-app.js';

/**
 * `llm.call` records carry the API they came through (issue 23), end to end on both analytics
 * engines: calls sent through /v1/chat/completions, /v1/messages and /v1/responses (app.inject,
 * against local fakes of the OpenAI and Anthropic wires) go through the real publisher, bus and
 * analytics sink into the ClickHouse server and chDB; /analytics/llm/overview splits them by API,
 * `api=` keeps one API's calls, and the key's spend is the records' cost counted once per call.
 */

const clickhouseUrl = process.env['CLICKHOUSE_URL'] ?? 'http://127.0.0.1:8123';

interface Engine {
  readonly store: AnalyticsStore;
  readonly teardown: () => Promise<void>;
}

const engines: readonly (readonly [string, () => Engine])[] = [
  [
    `ClickHouse server at ${clickhouseUrl}`,
    () => {
      const database = `switchyard_test_${randomBytes(6).toString('hex')}`;
      const store = createClickHouseServerAnalyticsStore({ url: clickhouseUrl, database });
      return {
        store,
        teardown: async () => {
          const executor = createClickHouseServerExecutor({ url: clickhouseUrl });
          await executor.command(`DROP DATABASE IF EXISTS ${database}`);
          await executor.close();
          await store.close();
        },
      };
    },
  ],
  [
    'chDB',
    () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'sytest-llm-apis-'));
      const store = createChdbAnalyticsStore({ path: dataDir, database: 'switchyard_analytics' });
      return {
        store,
        teardown: async () => {
          await store.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  ],
];

let gpt: FakeHttpServer;
let claude: FakeHttpServer;

beforeAll(async () => {
  gpt = await startFakeHttpServer((request) => {
    const body = request.body as { model: string };
    // A Responses call reaches OpenAI's own Responses API (passed through natively), the rest chat completions.
    if (request.path === '/v1/responses')
      return responsesResponse({ model: body.model, output: [responsesMessageItem('from gpt')], usage: { inputTokens: 12, outputTokens: 5 }, request: body });
    return chatCompletion({ model: body.model, content: 'from gpt', usage: { promptTokens: 12, completionTokens: 5 } });
  });
  claude = await startFakeHttpServer(() => anthropicMessage([{ type: 'text', text: 'from claude' }], { inputTokens: 20, outputTokens: 8 }));
});
afterAll(async () => {
  await gpt?.close();
  await claude?.close();
});

describe.each(engines)('model calls split by API on %s', (_name, open) => {
  let engine: Engine;
  let t: TestApp;
  let sink: WorkerHandle;
  let owner: string;

  beforeAll(async () => {
    engine = open();
    await engine.store.migrate();
    t = await createTestApp({
      analytics: engine.store,
      toolkitEnv: {
        OPENAI_API_KEY: 'sk-upstream',
        OPENAI_BASE_URL: `${gpt.url}/v1`,
        ANTHROPIC_API_KEY: 'sk-ant-upstream',
        ANTHROPIC_BASE_URL: `${claude.url}/v1`,
      },
    });
    sink = await analyticsSink.start({ bus: t.bus, analytics: engine.store, logger: silentLogger, retentionDays: 30, clock: t.clock, lingerMs: 0 });
    owner = (await createMerchant(t.app, 'api-split-shop')).apiKey;
  }, 60_000);

  afterAll(async () => {
    await sink?.close();
    await t?.close();
    await engine?.teardown();
  });

  it('records each call with its API, splits the overview by API, filters every read by api, and counts spend once per call', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api-key/create',
      headers: withKey(owner),
      payload: { merchant_id: 'api-split-shop', limits: { budget: { amount_usd: 5, period: 'day' } } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { key_id: keyId, api_key: apiKey } = created.json() as { key_id: string; api_key: string };
    const send = async (url: string, payload: object, headers: Record<string, string>) => {
      const response = await t.app.inject({ method: 'POST', url, headers, payload });
      expect(response.statusCode, response.body).toBe(200);
    };
    const bearer = { authorization: `Bearer ${apiKey}` };
    await send('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'one' }] }, bearer);
    await send('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'two' }] }, bearer);
    const anthropicHeaders = { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' };
    await send('/v1/messages', { model: 'anthropic/claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'three' }] }, anthropicHeaders);
    // The Messages API answered by an OpenAI-wire provider is still a Messages call.
    await send('/v1/messages', { model: 'openai/gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'four' }] }, anthropicHeaders);
    await send('/v1/responses', { model: 'openai/gpt-4o-mini', input: 'five', store: false }, bearer);

    await t.eventsCaughtUp();
    const records = t.events.filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.payload.apiKeyId === keyId);
    expect(records.map((event) => [event.payload.api, event.payload.provider])).toEqual([
      ['chat_completions', 'openai'],
      ['chat_completions', 'openai'],
      ['messages', 'anthropic'],
      ['messages', 'openai'],
      ['responses', 'openai'],
    ]);
    const recordedCost = records.reduce((sum, event) => sum + event.payload.costUsd, 0);
    expect(recordedCost).toBeGreaterThan(0);

    await sink.caughtUp();
    // Records are stamped with the wall clock; a window ends at the app's clock, so move it past them.
    t.clock.set(Date.now() + 1_000);
    const overview = async (query = ''): Promise<LlmOverviewReport> => {
      const response = await t.app.inject({ method: 'GET', url: `/analytics/llm/overview?range=1h${query}`, headers: withKey(owner) });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as LlmOverviewReport;
    };

    const all = await overview();
    expect(all).toMatchObject({ calls: 5, errors: 0, input_tokens: 12 * 4 + 20, output_tokens: 5 * 4 + 8 });
    expect(all.cost_usd).toBeCloseTo(recordedCost, 6);
    expect(all.apis.map((item) => [item.api, item.calls, item.input_tokens, item.output_tokens])).toEqual([
      ['chat_completions', 2, 24, 10],
      ['messages', 2, 32, 13],
      ['responses', 1, 12, 5],
    ]);
    // Each call is in exactly one API: the split adds up to the totals, cost included (each item rounded to a millionth).
    expect(all.apis.reduce((sum, item) => sum + item.calls, 0)).toBe(all.calls);
    expect(Math.abs(all.apis.reduce((sum, item) => sum + item.cost_usd, 0) - all.cost_usd)).toBeLessThanOrEqual(all.apis.length * 0.5e-6);

    const messages = await overview('&api=messages');
    expect(messages).toMatchObject({ calls: 2, input_tokens: 32, output_tokens: 13 });
    expect(messages.providers.map((item) => [item.provider, item.calls])).toEqual([
      ['anthropic', 1],
      ['openai', 1],
    ]);
    expect((await overview('&api=chat_completions')).calls).toBe(2);
    expect((await overview('&api=embeddings')).calls).toBe(0);
    const usage = await t.app.inject({ method: 'GET', url: '/analytics/llm/usage?range=1h&api=responses', headers: withKey(owner) });
    expect((usage.json() as { series: { calls: number }[] }).series.map((point) => point.calls)).toEqual([1]);

    const refused = await t.app.inject({ method: 'GET', url: '/analytics/llm/overview?api=completions', headers: withKey(owner) });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('api must be one of chat_completions, responses, messages, embeddings, toolkit, batch');

    // One spend counter for the three APIs: the key's spend is each record's cost, once.
    await t.spendCounted();
    const keys = (await t.app.inject({ method: 'GET', url: '/api-key/list/api-split-shop', headers: withKey(owner) })).json() as {
      key_id: string;
      usage: { spend_usd: number };
    }[];
    expect(keys.find((key) => key.key_id === keyId)?.usage.spend_usd).toBeCloseTo(recordedCost, 9);
  }, 60_000);
});
