import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createKeyWith, createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * `/guardrails` (issue 38): a merchant's settings, and those attached to a key and a route group, applied
 * on the gateway on top of the defaults, never below them; patterns that could backtrack catastrophically
 * refused at the door.
 */

let provider: FakeHttpServer;
let t: TestApp;
let ownerKey: string;
const merchant = 'guard-settings-shop';

beforeAll(async () => {
  provider = await startFakeHttpServer((request) =>
    chatCompletion({ model: String((request.body as { model: string }).model), content: 'ok', usage: { promptTokens: 3, completionTokens: 1 } }),
  );
  t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${provider.url}/v1` } });
  ownerKey = (await createMerchant(t.app, merchant)).apiKey;
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

const put = (payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: '/guardrails', headers: withKey(ownerKey), payload });
const chat = (key: string, content: string, model = 'openai/gpt-4o-mini') =>
  t.app.inject({ method: 'POST', url: '/v1/chat/completions', headers: withKey(key), payload: { model, messages: [{ role: 'user', content }] } });

describe('/guardrails', () => {
  it('shows the defaults every merchant gets before anything is set', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/guardrails', headers: withKey(ownerKey) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ merchant_id: merchant, defaults: { card: { action: 'mask' } }, effective: { card: { action: 'mask' } }, guardrails: {} });
  });

  it('refuses a custom pattern that could backtrack catastrophically, and an unknown guard', async () => {
    const nested = await put({ settings: { patterns: [{ name: 'bad', pattern: '(a+)+$', action: 'mask' }] } });
    expect(nested.statusCode).toBe(400);
    expect(nested.body).toContain('nested quantifiers');
    // A body the schema refuses gets the generic routes' validation status.
    expect((await put({ settings: { cards: { action: 'mask' } } })).statusCode).toBe(422);
  });

  it('cannot weaken the card default, and applies the merchant’s, a key’s and a route group’s guards on the gateway', async () => {
    const { keyId, apiKey: strictKey } = await createKeyWith(t.app, ownerKey, merchant, {});
    const saved = await put({
      settings: { card: { action: 'log' }, email: { action: 'mask' } },
      keys: { [keyId]: { 'deny-list': { action: 'block', terms: ['project falcon'] } } },
      routeGroups: { 'guarded-group': { phone: { action: 'block' } } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((saved.json() as { effective: unknown }).effective).toEqual({ card: { action: 'mask' }, email: { action: 'mask' } });

    expect((await chat(ownerKey, 'card 4111111111111111, mail ops@example.com, about Project Falcon')).statusCode).toBe(200);
    const sent = provider.requests.at(-1)!.bodyText;
    expect(sent).toContain('card [CARD_1], mail [EMAIL_1], about Project Falcon');
    await t.eventsCaughtUp();
    const applied = t.events.filter((event) => event.type === 'guard.applied' && event.merchantId === merchant);
    expect(applied.map((event) => event.payload)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ guard: 'card', stage: 'input', action: 'mask', count: 1, blocked: false, surface: 'openai-chat' }),
        expect.objectContaining({ guard: 'email', stage: 'input', action: 'mask', count: 1, blocked: false }),
      ]),
    );
    expect(JSON.stringify(applied)).not.toContain('4111');
    expect(JSON.stringify(applied)).not.toContain('ops@example.com');

    const refused = await chat(strictKey, 'about Project Falcon');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'guardrail_blocked', type: 'invalid_request_error' } });
    expect(refused.body).not.toContain('Falcon');

    const group = await t.app.inject({
      method: 'PUT',
      url: '/v1/route-groups/guarded-group',
      headers: withKey(ownerKey),
      payload: { candidates: [{ provider: 'openai', model: 'gpt-4o-mini' }] },
    });
    expect(group.statusCode).toBe(200);
    expect((await chat(ownerKey, 'call +1 415 555 0134', 'guarded-group')).statusCode).toBe(400);
    expect((await chat(ownerKey, 'call +1 415 555 0134')).statusCode).toBe(200);
  });

  it('goes back to the defaults when removed', async () => {
    const removed = await t.app.inject({ method: 'DELETE', url: '/guardrails', headers: withKey(ownerKey) });
    expect(removed.json()).toEqual({ deleted: true });
    expect(((await t.app.inject({ method: 'GET', url: '/guardrails', headers: withKey(ownerKey) })).json() as { guardrails: unknown }).guardrails).toEqual({});
  });
});
