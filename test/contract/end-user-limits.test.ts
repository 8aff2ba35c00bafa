import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createKeyWith, createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * End-user limits (issue 39): one API key shared by an application caps each of its end users on
 * its own (`limits.per_end_user`), admitted with the key's limits in one atomic step, with the end
 * user named the way each wire names it, and its spend counted from the calls' records.
 */

/** Answers like OpenAI with max_tokens of output (the worst case the reservation prices). */
function upstream(request: RecordedRequest) {
  const body = request.body as { model: string; messages: unknown[]; max_tokens?: number; max_completion_tokens?: number };
  const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
  return chatCompletion({ model: body.model, content: 'ok', usage: { promptTokens, completionTokens: body.max_completion_tokens ?? body.max_tokens ?? 5 } });
}

let provider: FakeHttpServer;
let t: TestApp;
let baseURL: string;
let ownerKey: string;

const merchant = 'end-user-shop';
const newKey = (limits: unknown) => createKeyWith(t.app, ownerKey, merchant, { limits });
const openai = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${baseURL}/v1`, maxRetries: 0 });

beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
  t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` }, keyLeaseTtlMs: 30_000 });
  ({ apiKey: ownerKey } = await createMerchant(t.app, merchant));
  baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

describe('end-user limits: configuration', () => {
  it('stores per_end_user limits with the key, shows them, and names the field of a bad one', async () => {
    const { keyId } = await newKey({ rpm: 100, per_end_user: { rpm: 5, budget: { amount_usd: 0.5, period: 'month' } } });
    const list = (await t.app.inject({ method: 'GET', url: `/api-key/list/${merchant}`, headers: withKey(ownerKey) })).json() as {
      key_id: string;
      limits: unknown;
    }[];
    expect(list.find((item) => item.key_id === keyId)?.limits).toEqual({ rpm: 100, per_end_user: { rpm: 5, budget: { amount_usd: 0.5, period: 'month' } } });
    const cases: [unknown, string][] = [
      [{ per_end_user: 5 }, 'limits.per_end_user must be an object'],
      [{ per_end_user: { rpm: 0 } }, 'limits.per_end_user.rpm'],
      [{ per_end_user: { budget: { amount_usd: 1, period: 'week' } } }, 'limits.per_end_user.budget.period'],
      [{ per_end_user: { per_end_user: { rpm: 1 } } }, 'limits.per_end_user.per_end_user is not a field'],
    ];
    for (const [limits, problem] of cases) {
      const response = await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withKey(ownerKey), payload: { merchant_id: merchant, limits } });
      expect(response.statusCode, JSON.stringify(limits)).toBe(400);
      expect((response.json() as { message: string }).message).toContain(problem);
    }
  });
});

describe('end-user limits: enforcement', () => {
  it("refuses an end user past its own rpm with OpenAI's 429, while other end users and calls naming none go on", async () => {
    const { apiKey } = await newKey({ per_end_user: { rpm: 2 } });
    const client = openai(apiKey);
    const ask = (user?: string) =>
      client.chat.completions.create({
        model: 'openai/gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 5,
        ...(user !== undefined ? { user } : {}),
      });
    await ask('alice');
    await ask('alice');
    const refused = await ask('alice').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    const error = refused as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.status).toBe(429);
    expect(error.message).toContain('end user of the API key');
    // The id is the caller's own: it is not echoed back.
    expect(error.message).not.toContain('alice');
    expect(Number(error.headers?.get('retry-after'))).toBeGreaterThan(0);
    expect((await ask('bob')).choices[0]?.message.content).toBe('ok');
    expect((await ask()).choices[0]?.message.content).toBe('ok');
    // The header names the end user on any wire and wins over the body.
    const byHeader = await fetch(`${baseURL}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'x-switchyard-end-user': 'alice' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5, user: 'carol' }),
    });
    expect(byHeader.status).toBe(429);
  });

  it("names the end user of a Messages call by metadata.user_id, and refuses it in Anthropic's error shape", async () => {
    const { apiKey } = await newKey({ per_end_user: { rpm: 1 } });
    const client = new Anthropic({ apiKey, baseURL, maxRetries: 0 });
    const ask = () =>
      client.messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: 'user-42' } });
    expect((await ask()).content[0]).toMatchObject({ type: 'text', text: 'ok' });
    const refused = await ask().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
    expect((refused as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('never lets 200 parallel calls by 10 end users of one key overshoot an end user’s budget or the key’s', async () => {
    // A priced call reserves max_tokens × price (~0.00024 USD at 400 output tokens of gpt-4o-mini): each end user's budget is a few calls wide.
    const perUser = 0.001;
    const keyBudget = 0.008;
    const { keyId, apiKey } = await newKey({
      budget: { amount_usd: keyBudget, period: 'day' },
      per_end_user: { budget: { amount_usd: perUser, period: 'day' } },
    });
    const users = Array.from({ length: 10 }, (_, index) => `user-${index}`);
    const client = openai(apiKey);
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        client.chat.completions
          .create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: `call ${index}` }], max_tokens: 400, user: users[index % users.length]! })
          .then(() => ({ user: users[index % users.length]!, served: true }))
          .catch((error: unknown) => {
            expect(error).toBeInstanceOf(OpenAI.RateLimitError);
            expect((error as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('insufficient_quota');
            return { user: users[index % users.length]!, served: false };
          }),
      ),
    );
    const served = outcomes.filter((outcome) => outcome.served);
    expect(served.length).toBeGreaterThan(0);
    expect(served.length).toBeLessThan(200);
    await t.eventsCaughtUp();
    await t.spendCounted();
    const calls = t.events.filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.payload.apiKeyId === keyId);
    expect(calls).toHaveLength(served.length);
    const now = t.clock.now();
    let keySpend = 0;
    for (const user of users) {
      const recorded = calls.filter((event) => event.payload.endUser === user).reduce((sum, event) => sum + event.payload.costUsd, 0);
      const usage = await t.state.usage.usage(keyId, 'day', now, user);
      // Counted from the records, and within the end user's budget: reservations held every call in flight.
      expect(usage.spendThisPeriodUsd).toBeCloseTo(recorded, 9);
      expect(usage.spendThisPeriodUsd).toBeLessThanOrEqual(perUser);
      expect(usage.reservedUsd).toBe(0);
      keySpend += recorded;
    }
    const keyUsage = await t.state.usage.usage(keyId, 'day', now);
    expect(keyUsage.spendThisPeriodUsd).toBeCloseTo(keySpend, 9);
    expect(keyUsage.spendThisPeriodUsd).toBeLessThanOrEqual(keyBudget);
  });
});
