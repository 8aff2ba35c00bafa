import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatError } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * The learning router on the embedded spine: a route group over two models of one OpenAI-wire
 * fake; one of them starts failing, traffic moves away within a bounded number of calls (its
 * window learns from each failed attempt through the sr-windows worker), and comes back once it
 * recovers and exploration gives it calls again.
 */

let flakyDown = true;

function upstream(request: RecordedRequest) {
  const body = request.body as { model: string };
  if (body.model === 'flaky-model' && flakyDown) return chatError('server-error', 'openai', body.model);
  return chatCompletion({ model: body.model, content: `from ${body.model}` });
}

let provider: FakeHttpServer;
let t: TestApp;
let client: OpenAI;
let key: string;

const group = (explorePercent: number) => ({
  candidates: [
    { provider: 'openai', model: 'flaky-model', weight: 2 },
    { provider: 'openai', model: 'steady-model', weight: 1 },
  ],
  bucketSize: 10,
  eliminationThreshold: 0.5,
  explorePercent,
  maxHops: 2,
});

beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
  t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` } });
  key = (await createMerchant(t.app, 'router-shop')).apiKey;
  client = new OpenAI({ apiKey: key, baseURL: `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

async function putGroup(body: unknown, apiKey = key) {
  return t.app.inject({ method: 'PUT', url: '/v1/route-groups/chat', headers: withKey(apiKey), payload: body as Record<string, unknown> });
}

/** One call through the group; waits until its outcome has been learned (the worker caught up). */
async function callGroup(): Promise<{ model: string; approach: string; hops: number }> {
  const { data, response } = await client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'hello' }] }).withResponse();
  await t.worker.caughtUp();
  return { model: data.model, approach: response.headers.get('x-switchyard-routing-approach') ?? '', hops: Number(response.headers.get('x-switchyard-hops')) };
}

describe('learning router', () => {
  it('validates a group on write and shows it with learned scores', async () => {
    const refused = await putGroup({
      candidates: [
        { provider: 'nobody', model: 'x' },
        { provider: 'openai', model: 'y' },
        { provider: 'openai', model: 'y' },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { message: expect.stringContaining('candidates[0].provider names no provider kind'), param: 'candidates' } });
    expect(refused.json().error.message).toContain('candidates[2] repeats openai/y');
    expect((await putGroup({ candidates: [] })).statusCode).toBe(400);
    const written = await putGroup(group(0));
    expect(written.statusCode, written.body).toBe(200);
    expect(written.json()).toMatchObject({ name: 'chat', bucketSize: 10, maxHops: 2 });
    const other = await createMerchant(t.app, 'other-shop');
    expect((await t.app.inject({ method: 'GET', url: '/v1/route-groups/chat', headers: withKey(other.apiKey) })).statusCode).toBe(404);
  });

  it('moves traffic away from a failing candidate within a bounded number of calls, and back after it recovers', async () => {
    flakyDown = true;
    expect((await putGroup(group(0))).statusCode).toBe(200);
    // While the flaky model is ranked first, every call fails over to the steady one within the request.
    const first = await callGroup();
    expect(first).toMatchObject({ model: 'steady-model', approach: 'route_group:sr', hops: 1 });
    let calls = 1;
    let last = first;
    while (last.hops !== 0) {
      last = await callGroup();
      calls += 1;
      expect(calls, 'traffic should have moved away by now').toBeLessThanOrEqual(8);
    }
    // Success first: one failed attempt (9/10 against 10/10) is enough to rank the steady model first.
    expect(calls).toBe(2);
    expect(last).toMatchObject({ model: 'steady-model', approach: 'route_group:sr', hops: 0 });
    const shown = (await t.app.inject({ method: 'GET', url: '/v1/route-groups/chat', headers: withKey(key) })).json() as {
      candidates: { model: string; successRate: number; outcomes: number; eliminated: boolean }[];
    };
    expect(shown.candidates[0]).toMatchObject({ model: 'flaky-model', successRate: 0.9, outcomes: 10, eliminated: false });
    // Without exploration the demoted model gets no more traffic, so nothing more is lost to it.
    for (let i = 0; i < 3; i++) expect(await callGroup()).toMatchObject({ model: 'steady-model', hops: 0 });

    // It recovers; exploration (every call, for this test) sends it traffic, and it wins again.
    flakyDown = false;
    expect((await putGroup(group(100))).statusCode).toBe(200);
    let explored = 0;
    for (;;) {
      const call = await callGroup();
      expect(call.approach).toBe('route_group:explore');
      explored += 1;
      const view = (await t.app.inject({ method: 'GET', url: '/v1/route-groups/chat', headers: withKey(key) })).json() as {
        candidates: { successRate: number }[];
      };
      if (view.candidates[0]?.successRate === 1) break;
      expect(explored).toBeLessThanOrEqual(10);
    }
    expect((await putGroup(group(0))).statusCode).toBe(200);
    expect(await callGroup()).toMatchObject({ model: 'flaky-model', approach: 'route_group:sr', hops: 0 });
  });

  it('returns a non-retryable error as it is, without failing over or teaching the windows', async () => {
    const response = await client.chat.completions
      .create({ model: 'chat', messages: [{ role: 'user', content: 'x' }], temperature: 3 })
      .catch((error: unknown) => error);
    expect(response).toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('deletes a group', async () => {
    const deleted = await t.app.inject({ method: 'DELETE', url: '/v1/route-groups/chat', headers: withKey(key) });
    expect(deleted.json()).toEqual({ id: 'chat', object: 'route_group', deleted: true });
    await expect(client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('failover within a request, by error class', () => {
  let failWith: Parameters<typeof chatError>[0] | 'none' = 'none';
  let upstream: FakeHttpServer;
  let app: TestApp;
  let openai: OpenAI;

  beforeAll(async () => {
    upstream = await startFakeHttpServer((request) => {
      const body = request.body as { model: string };
      if (body.model === 'first-model' && failWith !== 'none') return chatError(failWith, 'openai', body.model);
      return chatCompletion({ model: body.model, content: `from ${body.model}` });
    });
    // Mistral points at a closed port: a connection failure, the other kind of retryable error.
    app = await createTestApp({
      toolkitEnv: {
        OPENAI_API_KEY: 'sk-upstream',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
        MISTRAL_API_KEY: 'mk-closed',
        MISTRAL_BASE_URL: 'http://127.0.0.1:9/v1',
      },
    });
    const apiKey = (await createMerchant(app.app, 'failover-shop')).apiKey;
    openai = new OpenAI({ apiKey, baseURL: `${await app.app.listen({ port: 0, host: '127.0.0.1' })}/v1`, maxRetries: 0 });
    groupKey = apiKey;
    expect(
      (
        await putGroup('unreachable-first', [
          { provider: 'mistral', model: 'mistral-small', weight: 2 },
          { provider: 'openai', model: 'second-model' },
        ])
      ).statusCode,
    ).toBe(200);
  });
  let groupKey: string;
  const putGroup = (name: string, candidates: unknown[]) =>
    app.app.inject({ method: 'PUT', url: `/v1/route-groups/${name}`, headers: withKey(groupKey), payload: { candidates, explorePercent: 0, maxHops: 2 } });
  /** A fresh group per case: its windows have learned nothing, so the first model is tried first. */
  const freshPair = async (name: string) => {
    expect(
      (
        await putGroup(name, [
          { provider: 'openai', model: 'first-model', weight: 2 },
          { provider: 'openai', model: 'second-model' },
        ])
      ).statusCode,
    ).toBe(200);
    return name;
  };
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });

  const ask = (model: string) => openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] }).withResponse();

  it.each(['rate-limited', 'server-error', 'overloaded'] as const)('moves on to the next candidate after %s', async (errorCase) => {
    failWith = errorCase;
    const { data, response } = await ask(await freshPair(`retry-${errorCase}`));
    expect(data.model).toBe('second-model');
    expect(response.headers.get('x-switchyard-hops')).toBe('1');
  });

  it('moves on after a connection failure', async () => {
    failWith = 'none';
    const { data, response } = await ask('unreachable-first');
    expect(data.model).toBe('second-model');
    expect(response.headers.get('x-switchyard-hops')).toBe('1');
  });

  it.each([
    ['bad-request', 400, OpenAI.BadRequestError],
    ['unauthorized', 502, OpenAI.InternalServerError],
    ['forbidden', 502, OpenAI.InternalServerError],
  ] as const)('returns %s as it is, without trying another candidate', async (errorCase, status, errorClass) => {
    failWith = errorCase;
    const before = upstream.requests.filter((request) => (request.body as { model: string }).model === 'second-model').length;
    const error = await ask(await freshPair(`final-${errorCase}`)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as { status: number }).status).toBe(status);
    expect(upstream.requests.filter((request) => (request.body as { model: string }).model === 'second-model').length).toBe(before);
  });
});
