import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSchemas } from '../../api/http-schemas.js';
import { createToolkit } from '../../cli/create-toolkit.js';
import type { LlmRouteGroupsReport } from '../../src/analytics/llm-route-groups-report.js';
import type { LlmCallRecorder } from '../../src/generation/llm-call-record.js';
import { llmCallPublisher } from '../../src/generation/publish-llm-calls.js';
import { createManualClock } from '../../src/time/clock.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatError } from '../fixtures/providers/openai-wire.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * GET /analytics/llm/route-groups end to end on the embedded spine: chat completions through a
 * route group against a local OpenAI-wire fake, one candidate starts failing, the sr-windows
 * worker learns it and the gateway demotes it; each call's llm.call (with the decision it was
 * routed by) reaches chDB through the analytics sink, and the report shows the share moving to the
 * other candidate and the elimination, minute by minute, to the group's merchant only.
 */

const minuteMs = 60_000;
/** The minute the traffic starts (the manual clock stamps the calls, so buckets are exact). */
const start = Date.UTC(2026, 0, 15, 11, 50, 0);
const merchantA = 'm-route-analytics-a';
const merchantB = 'm-route-analytics-b';
const flaky = 'flaky-model';
const steady = 'steady-model';

let flakyDown = false;

function upstream(request: RecordedRequest) {
  const { model } = request.body as { model: string };
  if (model === flaky && flakyDown) return chatError('server-error', 'openai', model);
  return chatCompletion({ model, content: `from ${model}` });
}

describe('GET /analytics/llm/route-groups', () => {
  let provider: FakeHttpServer;
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let keyA: Record<string, string>;
  let keyB: Record<string, string>;
  const clock = createManualClock(start);
  const ajv = new Ajv({ strict: false });
  for (const schema of httpSchemas) ajv.addSchema(schema);
  /** What the gateway answered each call with, in order: the decision it made visible in headers. */
  const answered: { minute: number; model: string; approach: string; hops: number }[] = [];

  beforeAll(async () => {
    provider = await startFakeHttpServer(upstream);
    analytics = await openChdbAnalytics('route-analytics');
    // The service's toolkit, its records published on the test app's bus at the manual clock's time.
    let publish: LlmCallRecorder = () => undefined;
    const { toolkit } = createToolkit({
      logger: pino({ level: 'silent' }),
      cwd: mkdtempSync(join(tmpdir(), 'sytest-route-toolkit-')),
      env: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` },
      onCall: (record) => publish(record),
    });
    t = await createTestApp({ clock, analytics: analytics.store, toolkit });
    publish = llmCallPublisher(t.bus, { now: () => clock.now() });
    await analytics.startSink(t.bus, clock);
    keyA = withKey((await createMerchant(t.app, merchantA)).apiKey);
    keyB = withKey((await createMerchant(t.app, merchantB)).apiKey);
    // One failure is enough to eliminate a candidate here (9/10 < 0.95); no exploration.
    const group = {
      candidates: [
        { provider: 'openai', model: flaky, weight: 2 },
        { provider: 'openai', model: steady, weight: 1 },
      ],
      bucketSize: 10,
      eliminationThreshold: 0.95,
      explorePercent: 0,
      maxHops: 2,
    };
    expect((await t.app.inject({ method: 'PUT', url: '/v1/route-groups/chat', headers: keyA, payload: group })).statusCode).toBe(200);

    const call = async (minute: number, model = 'chat', headers = keyA) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers,
        payload: { model, messages: [{ role: 'user', content: 'hello' }] },
      });
      expect(response.statusCode, response.body).toBe(200);
      // The next decision must see this call's outcome, as it would a moment later in production.
      await t.worker.caughtUp();
      clock.advance(1_000);
      answered.push({
        minute,
        model: (response.json() as { model: string }).model,
        approach: String(response.headers['x-switchyard-routing-approach']),
        hops: Number(response.headers['x-switchyard-hops']),
      });
    };
    // Minute 0: both healthy, the heavier candidate takes every call.
    clock.set(start + 10_000);
    for (let i = 0; i < 3; i++) await call(0);
    // Minute 1: it starts failing; the first call fails over, the next ones find it eliminated.
    flakyDown = true;
    clock.set(start + minuteMs + 10_000);
    for (let i = 0; i < 3; i++) await call(1);
    // Minute 2: still eliminated; a direct call of the same model is no route group's traffic.
    clock.set(start + 2 * minuteMs + 10_000);
    for (let i = 0; i < 2; i++) await call(2);
    await call(2, `openai/${steady}`);
    // Another merchant's group of the same name, with traffic of its own.
    expect(
      (await t.app.inject({ method: 'PUT', url: '/v1/route-groups/chat', headers: keyB, payload: { candidates: [{ provider: 'openai', model: steady }] } }))
        .statusCode,
    ).toBe(200);
    await call(2, 'chat', keyB);
    await analytics.caughtUp();
    clock.set(start + 5 * minuteMs);
  }, 120_000);

  afterAll(async () => {
    await analytics?.close(t);
    await provider?.close();
  });

  const get = async (query: string, headers: Record<string, string> = keyA) => {
    const response = await t.app.inject({ method: 'GET', url: `/analytics/llm/route-groups${query}`, headers });
    const json = response.headers['content-type']?.toString().startsWith('application/json') === true;
    return { status: response.statusCode, body: (json ? response.json() : { text: response.body }) as Record<string, unknown> };
  };
  /** A 200 whose body matches LlmRouteGroupsReport. */
  const report = async (query = '?range=15m', headers: Record<string, string> = keyA): Promise<LlmRouteGroupsReport> => {
    const response = await get(query, headers);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const validate = ajv.getSchema('LlmRouteGroupsReport')!;
    expect(validate(response.body), JSON.stringify(validate.errors)).toBe(true);
    return response.body as unknown as LlmRouteGroupsReport;
  };
  const bucket = (minute: number) => start + minute * minuteMs;

  it('routes as the headers said: the flaky model first, a failover, then the steady model while the flaky one is eliminated', () => {
    expect(answered.slice(0, 8)).toEqual([
      { minute: 0, model: flaky, approach: 'route_group:sr', hops: 0 },
      { minute: 0, model: flaky, approach: 'route_group:sr', hops: 0 },
      { minute: 0, model: flaky, approach: 'route_group:sr', hops: 0 },
      { minute: 1, model: steady, approach: 'route_group:sr', hops: 1 },
      { minute: 1, model: steady, approach: 'route_group:sr_downtime', hops: 0 },
      { minute: 1, model: steady, approach: 'route_group:sr_downtime', hops: 0 },
      { minute: 2, model: steady, approach: 'route_group:sr_downtime', hops: 0 },
      { minute: 2, model: steady, approach: 'route_group:sr_downtime', hops: 0 },
    ]);
  });

  it('shows the share moving to the steady model and the elimination of the flaky one, minute by minute', async () => {
    const answer = await report();
    expect(answer).toMatchObject({
      merchant_id: merchantA,
      start_ms: start + 5 * minuteMs - 15 * minuteMs,
      end_ms: start + 5 * minuteMs,
      bucket_ms: minuteMs,
      route_group: null,
    });
    expect(answer.groups).toHaveLength(1);
    const chat = answer.groups[0]!;
    expect(chat).toMatchObject({
      route_group: 'chat',
      calls: 9,
      successes: 8,
      errors: 1,
      success_rate: 0.8889,
      decisions: 8,
      approaches: { sr: 4, sr_downtime: 4 },
    });
    expect(chat.series).toEqual([
      { bucket_ms: bucket(0), calls: 3, successes: 3, errors: 0, success_rate: 1, decisions: 3, approaches: { sr: 3 } },
      { bucket_ms: bucket(1), calls: 4, successes: 3, errors: 1, success_rate: 0.75, decisions: 3, approaches: { sr: 1, sr_downtime: 2 } },
      { bucket_ms: bucket(2), calls: 2, successes: 2, errors: 0, success_rate: 1, decisions: 2, approaches: { sr_downtime: 2 } },
    ]);
    const [first, second] = chat.candidates;
    expect(first).toMatchObject({
      provider: 'openai',
      model: steady,
      calls: 5,
      share: 0.5556,
      ranked_first: 4,
      success_rate: 1,
      eliminated_decisions: 0,
      eliminated: false,
    });
    expect(second).toMatchObject({
      provider: 'openai',
      model: flaky,
      calls: 4,
      share: 0.4444,
      ranked_first: 4,
      successes: 3,
      errors: 1,
      success_rate: 0.75,
      eliminated_decisions: 4,
      eliminated: true,
    });
    const share = (candidate: typeof first) => candidate!.series.map((point) => [point.bucket_ms, point.share]);
    expect(share(second)).toEqual([
      [bucket(0), 1],
      [bucket(1), 0.25],
      [bucket(2), 0],
    ]);
    expect(share(first)).toEqual([
      [bucket(1), 0.75],
      [bucket(2), 1],
    ]);
    expect(second!.series.map((point) => [point.success_rate, point.eliminated_decisions, point.eliminated])).toEqual([
      [1, 0, false],
      [0, 2, true],
      [null, 2, true],
    ]);
    // The gateway's own view of the group agrees with the analytics.
    const view = (await t.app.inject({ method: 'GET', url: '/v1/route-groups/chat', headers: keyA })).json() as {
      candidates: { model: string; eliminated: boolean }[];
    };
    expect(view.candidates.map((candidate) => [candidate.model, candidate.eliminated])).toEqual([
      [flaky, true],
      [steady, false],
    ]);
  });

  it('reads one group with route_group, the window where the elimination began, and refuses a name no group can have', async () => {
    expect((await report('?range=15m&route_group=chat')).groups.map((group) => group.calls)).toEqual([9]);
    expect(await report('?range=15m&route_group=other')).toMatchObject({ route_group: 'other', groups: [] });
    const minuteOne = await report(`?start_ms=${bucket(1)}&end_ms=${bucket(2) - 1}`);
    expect(minuteOne.groups[0]?.candidates.map((candidate) => [candidate.model, candidate.calls, candidate.share, candidate.eliminated])).toEqual([
      [steady, 3, 0.75, false],
      [flaky, 1, 0.25, true],
    ]);
    const refused = await get("?route_group=x' OR 1=1");
    expect(refused.status).toBe(400);
    expect(String(refused.body['message'])).toContain('route_group');
  });

  it("shows each merchant only its own groups, even of the same name, and refuses another merchant's id", async () => {
    const ofB = await report('?range=15m', keyB);
    expect(ofB.merchant_id).toBe(merchantB);
    expect(ofB.groups.map((group) => [group.route_group, group.calls, group.candidates.map((candidate) => candidate.model)])).toEqual([['chat', 1, [steady]]]);
    expect((await get(`?merchant_id=${merchantA}`, keyB)).status).toBe(403);
    const other = withKey((await createMerchant(t.app, 'm-route-analytics-c')).apiKey);
    expect((await report('?range=15m', other)).groups).toEqual([]);
  });

  it('refuses a request without a credential with 401', async () => {
    expect((await get('', {})).status).toBe(401);
  });

  it('is documented in OpenAPI with its response schema and the route_group parameter', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, { get?: { tags?: string[]; parameters?: { name: string }[]; responses?: Record<string, unknown> } }>;
    };
    const operation = spec.paths['/analytics/llm/route-groups']?.get;
    expect(operation?.tags).toEqual(['Analytics']);
    expect(JSON.stringify(operation?.responses?.['200'])).toContain('LlmRouteGroupsReport');
    expect(operation?.parameters?.map((parameter) => parameter.name)).toContain('route_group');
  });
});

describe('GET /analytics/llm/route-groups without an analytics store', () => {
  it('answers as the other analytics reads do (TE_01)', async () => {
    const t = await createTestApp();
    try {
      const key = withKey((await createMerchant(t.app, 'm-route-no-store')).apiKey);
      const payment = await t.app.inject({ method: 'GET', url: '/analytics/llm/overview', headers: key });
      const response = await t.app.inject({ method: 'GET', url: '/analytics/llm/route-groups', headers: key });
      expect(response.statusCode).toBe(payment.statusCode);
      expect(response.json()).toEqual(payment.json());
    } finally {
      await t.close();
    }
  });
});
