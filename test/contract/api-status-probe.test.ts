import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicError } from '../fixtures/providers/anthropic-wire.js';
import { startFakeHttpServer, type FakeHttpServer } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * GET /api/status probes the configured providers (issue 26): one OpenAI-wire fake that answers,
 * one Anthropic-wire fake that is down (503), the round cached for its TTL.
 */

interface StatusBody {
  readonly providers: Record<string, { available: boolean; configured: boolean; status: string; error?: string; responseTime?: number; missing?: string[] }>;
  readonly bestProvider: string | null;
  readonly probe: { checkedAt: string; ttlSeconds: number; cached: boolean };
}

let up: FakeHttpServer;
let down: FakeHttpServer;
beforeAll(async () => {
  up = await startFakeHttpServer((request) =>
    chatCompletion({ model: (request.body as { model: string }).model, content: 'p', usage: { promptTokens: 1, completionTokens: 1 } }),
  );
  down = await startFakeHttpServer(() => anthropicError(503, 'overloaded_error', 'Overloaded'));
});
afterAll(async () => {
  await up.close();
  await down.close();
});

describe('GET /api/status', () => {
  let t: TestApp;
  let key: string;
  beforeEach(async () => {
    t = await createTestApp({
      toolkitEnv: {
        OPENAI_API_KEY: 'sk-status-up',
        OPENAI_BASE_URL: `${up.url}/v1`,
        ANTHROPIC_API_KEY: 'sk-ant-status-down',
        ANTHROPIC_BASE_URL: `${down.url}/v1`,
      },
    });
    key = (await createMerchant(t.app, 'status-shop')).apiKey;
  });
  afterEach(async () => t.close());

  const status = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/status', headers: withKey(key) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as StatusBody;
  };

  it('probes each configured provider once: the one that answers is available, the one that is down is not', async () => {
    const [upBefore, downBefore] = [up.requests.length, down.requests.length];
    const body = await status();
    expect(up.requests.length - upBefore).toBe(1);
    expect(down.requests.length - downBefore).toBe(1);
    // The probe is the cheapest call: one token.
    expect(up.requests.at(-1)!.body).toMatchObject({ max_tokens: 1 });
    expect(body.providers['openai']).toMatchObject({ available: true, configured: true, status: 'working' });
    expect(body.providers['openai']!.responseTime).toBeGreaterThanOrEqual(0);
    expect(body.providers['anthropic']).toMatchObject({ available: false, configured: true, status: 'failed' });
    expect(body.providers['anthropic']!.error).toMatch(/overloaded/i);
    // A provider without credentials is reported from settings and never called.
    expect(body.providers['mistral']).toMatchObject({ available: false, configured: false, status: 'not-configured' });
    expect(body.probe).toMatchObject({ cached: false, ttlSeconds: 60 });
    expect(body.bestProvider).toBe('openai');
  });

  it('answers a second call within the TTL from the cached round, without calling either provider again', async () => {
    const first = await status();
    const [upAfterFirst, downAfterFirst] = [up.requests.length, down.requests.length];
    const second = await status();
    expect([up.requests.length, down.requests.length]).toEqual([upAfterFirst, downAfterFirst]);
    expect(second.probe).toEqual({ ...first.probe, cached: true });
    expect(second.providers).toEqual(first.providers);
  });

  it('shares one probe round between callers that arrive together', async () => {
    const [upBefore, downBefore] = [up.requests.length, down.requests.length];
    const answers = await Promise.all([status(), status(), status()]);
    expect([up.requests.length - upBefore, down.requests.length - downBefore]).toEqual([1, 1]);
    expect(answers.map((answer) => answer.probe.cached).sort()).toEqual([false, true, true]);
  });
});
