import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { anthropicError, anthropicTokenCount } from '../fixtures/providers/anthropic-wire.js';
import { chatCompletion } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Merchant-owned provider credentials (issue 39): a merchant's calls reach the provider with its
 * own key, stored sealed and never shown again; other merchants keep the operator's; a merchant
 * can forbid the operator's; the call records say whose account paid.
 */

/** Refuses a key it does not know, as OpenAI does (401 invalid_api_key). */
const knownKeys = new Set(['sk-operator-0000000000', 'sk-merchant-a-1111111111', 'sk-team-blue-3333333333']);
function upstream(request: RecordedRequest): FakeResponse {
  const key = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '');
  // The blue account's gpt-4o is down (a retryable 500): a route group fails over from it.
  if (key === 'sk-team-blue-3333333333' && (request.body as { model?: string }).model === 'gpt-4o')
    return {
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: 'The server had an error', type: 'server_error', param: null, code: null } }),
    };
  if (!knownKeys.has(key))
    return {
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }),
    };
  const body = request.body as { model: string };
  return chatCompletion({ model: body.model, content: `answered for ${key.slice(3, 11)}`, usage: { promptTokens: 5, completionTokens: 2 } });
}

/** Anthropic's count_tokens, answering only keys it knows (401 authentication_error otherwise, as the real API does). */
const anthropicKeys = new Set(['sk-ant-operator-0000000000', 'sk-ant-merchant-c-2222222222']);
function claudeUpstream(request: RecordedRequest): FakeResponse {
  const key = String(request.headers['x-api-key'] ?? '');
  if (!anthropicKeys.has(key)) return anthropicError(401, 'authentication_error', 'invalid x-api-key');
  if (!request.path.endsWith('/v1/messages/count_tokens')) return anthropicError(404, 'not_found_error', 'Not found');
  return anthropicTokenCount(key.includes('merchant') ? 4242 : 1111);
}

let provider: FakeHttpServer;
let claude: FakeHttpServer;
let t: TestApp;
let baseURL: string;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
  claude = await startFakeHttpServer(claudeUpstream);
  t = await createTestApp({
    toolkitEnv: {
      OPENAI_API_KEY: 'sk-operator-0000000000',
      OPENAI_BASE_URL: `${provider.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-operator-0000000000',
      ANTHROPIC_BASE_URL: `${claude.url}/v1`,
    },
  });
  ({ apiKey: keyA } = await createMerchant(t.app, 'creds-a'));
  ({ apiKey: keyB } = await createMerchant(t.app, 'creds-b'));
  baseURL = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1`;
});
afterAll(async () => {
  await t.close();
  await provider.close();
  await claude.close();
});

const ask = (apiKey: string) =>
  new OpenAI({ apiKey, baseURL, maxRetries: 0 }).chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
const lastKeySent = () => String(provider.requests.at(-1)?.headers['authorization']);

describe('merchant provider credentials', () => {
  it("sends a merchant's calls with its own stored key, never shows the key again, and leaves other merchants on the operator's", async () => {
    const stored = await t.app.inject({
      method: 'PUT',
      url: '/provider-credentials/openai',
      headers: withKey(keyA),
      payload: { variables: { OPENAI_API_KEY: 'sk-merchant-a-1111111111' } },
    });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toMatchObject({ provider: 'openai', variables: ['OPENAI_API_KEY'], hint: '1111', key_id: 'test' });
    expect(stored.body).not.toContain('sk-merchant-a');
    const listed = await t.app.inject({ method: 'GET', url: '/provider-credentials', headers: withKey(keyA) });
    expect(listed.json()).toMatchObject({ operator_fallback: true, credentials: [{ provider: 'openai', hint: '1111' }] });
    expect(listed.body).not.toContain('sk-merchant-a');
    // At rest the key is sealed: the stored config holds no trace of it.
    expect(JSON.stringify(await t.state.configs.get('creds-a', 'providerCredentials'))).not.toContain('sk-merchant-a');

    expect((await ask(keyA)).choices[0]?.message.content).toBe('answered for merchant');
    expect(lastKeySent()).toBe('Bearer sk-merchant-a-1111111111');
    expect((await ask(keyB)).choices[0]?.message.content).toBe('answered for operator');
    expect(lastKeySent()).toBe('Bearer sk-operator-0000000000');
    // Merchant B sees nothing of A's credentials.
    const listedB = (await t.app.inject({ method: 'GET', url: '/provider-credentials', headers: withKey(keyB) })).json();
    expect(listedB).toMatchObject({ operator_fallback: true, credentials: [] });
    // The form's variables come with the list: Azure's endpoint is no secret, its key is.
    expect(listedB.providers).toContainEqual({
      provider: 'azure',
      variables: [
        { name: 'AZURE_OPENAI_API_KEY', required: true, secret: true },
        { name: 'AZURE_OPENAI_ENDPOINT', required: true, secret: false },
      ],
    });

    await t.eventsCaughtUp();
    const billed = t.events
      .filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call')
      .slice(-2)
      .map((event) => [event.merchantId, event.payload.billedTo]);
    expect(billed).toEqual([
      ['creds-a', 'merchant'],
      ['creds-b', 'operator'],
    ]);
  });

  it("refuses a merchant that forbade the operator's credentials and stored none, with the provider named and no call made", async () => {
    const forbid = await t.app.inject({ method: 'PUT', url: '/provider-credentials', headers: withKey(keyB), payload: { operator_fallback: false } });
    expect(forbid.statusCode, forbid.body).toBe(200);
    const before = provider.requests.length;
    const refused = await ask(keyB).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).message).toContain('OPENAI_API_KEY');
    expect(provider.requests.length).toBe(before);
    await t.app.inject({ method: 'PUT', url: '/provider-credentials', headers: withKey(keyB), payload: { operator_fallback: true } });
    expect((await ask(keyB)).choices[0]?.message.content).toBe('answered for operator');
  });

  it('names the field of a bad credential without echoing its value, and refuses endpoints outside the provider', async () => {
    const cases: [string, unknown, string][] = [
      ['openai', { OPENAI_BASE_URL: 'http://169.254.169.254/' }, 'OPENAI_BASE_URL is not a openai credential variable'],
      ['openai', {}, 'openai credentials need OPENAI_API_KEY'],
      ['azure', { AZURE_OPENAI_API_KEY: 'azure-secret-value-1', AZURE_OPENAI_ENDPOINT: 'https://10.0.0.5/' }, 'AZURE_OPENAI_ENDPOINT must be https://'],
      ['bedrock', { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE' }, 'bedrock credentials need AWS_SECRET_ACCESS_KEY'],
      ['ollama', { OLLAMA_BASE_URL: 'http://127.0.0.1:11434' }, 'takes no merchant credentials'],
    ];
    for (const [name, variables, problem] of cases) {
      const response = await t.app.inject({ method: 'PUT', url: `/provider-credentials/${name}`, headers: withKey(keyA), payload: { variables } });
      // A body the schema refuses is the service's usual 422; a refused variable is a 400 naming it.
      expect([400, 422], response.body).toContain(response.statusCode);
      expect(response.body).toContain(problem);
      expect(response.body).not.toContain('azure-secret-value-1');
    }
    expect((await t.app.inject({ method: 'DELETE', url: '/provider-credentials/mistral', headers: withKey(keyA) })).statusCode).toBe(404);
  });

  it('removes a credential: the merchant is back on the operator’s key', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: '/provider-credentials/openai', headers: withKey(keyA) })).statusCode).toBe(204);
    expect((await ask(keyA)).choices[0]?.message.content).toBe('answered for operator');
  });
});

describe('route groups naming a credential', () => {
  const putGroup = (apiKey: string, credential: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/v1/route-groups/blue-team',
      headers: withKey(apiKey),
      payload: { candidates: [{ provider: 'openai', model: 'gpt-4o-mini', credential }] },
    });

  it('pays a candidate with the named credential, refuses a name the merchant never stored, and records that the merchant paid', async () => {
    const { apiKey } = await createMerchant(t.app, 'creds-d');
    const stored = await t.app.inject({
      method: 'PUT',
      url: '/provider-credentials/openai',
      headers: withKey(apiKey),
      payload: { name: 'blue', variables: { OPENAI_API_KEY: 'sk-team-blue-3333333333' } },
    });
    expect(stored.json()).toMatchObject({ provider: 'openai', name: 'blue', hint: '3333' });

    const unknown = await putGroup(apiKey, 'green');
    expect(unknown.statusCode).toBe(400);
    expect((unknown.json() as { error: { message: string } }).error.message).toContain('candidates[0].credential names no stored openai credential "green"');
    // Another merchant cannot name this merchant's credential.
    expect((await putGroup(keyB, 'blue')).statusCode).toBe(400);
    expect((await putGroup(apiKey, 'blue')).statusCode).toBe(200);

    const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
    await client.chat.completions.create({ model: 'blue-team', messages: [{ role: 'user', content: 'hi' }] });
    expect(lastKeySent()).toBe('Bearer sk-team-blue-3333333333');
    // A call that names the provider directly keeps the default: the operator's key (the merchant stored no default).
    await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(lastKeySent()).toBe('Bearer sk-operator-0000000000');

    await t.eventsCaughtUp();
    const billed = t.events
      .filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.merchantId === 'creds-d')
      .map((event) => [event.payload.routeGroup, event.payload.billedTo]);
    expect(billed).toEqual([
      ['blue-team', 'merchant'],
      [null, 'operator'],
    ]);
  });

  it("bills each attempt to the account that made it when a group fails over from a named credential to the operator's", async () => {
    const { apiKey } = await createMerchant(t.app, 'creds-f');
    await t.app.inject({
      method: 'PUT',
      url: '/provider-credentials/openai',
      headers: withKey(apiKey),
      payload: { name: 'blue', variables: { OPENAI_API_KEY: 'sk-team-blue-3333333333' } },
    });
    const group = await t.app.inject({
      method: 'PUT',
      url: '/v1/route-groups/mixed',
      headers: withKey(apiKey),
      payload: {
        explorePercent: 0,
        candidates: [
          { provider: 'openai', model: 'gpt-4o', credential: 'blue', weight: 2 },
          { provider: 'openai', model: 'gpt-4o-mini', weight: 1 },
        ],
      },
    });
    expect(group.statusCode, group.body).toBe(200);
    await new OpenAI({ apiKey, baseURL, maxRetries: 0 }).chat.completions.create({ model: 'mixed', messages: [{ role: 'user', content: 'hi' }] });
    expect(lastKeySent()).toBe('Bearer sk-operator-0000000000');
    await t.eventsCaughtUp();
    const calls = t.events.filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.merchantId === 'creds-f');
    expect(new Set(calls.map((event) => `${event.payload.model}:${event.payload.outcome}:${event.payload.billedTo}`))).toEqual(
      new Set(['gpt-4o:error:merchant', 'gpt-4o-mini:success:operator']),
    );
  });

  it('fails a route group call in words once its credential is deleted, without using the operator key', async () => {
    const { apiKey } = await createMerchant(t.app, 'creds-e');
    await t.app.inject({
      method: 'PUT',
      url: '/provider-credentials/openai',
      headers: withKey(apiKey),
      payload: { name: 'blue', variables: { OPENAI_API_KEY: 'sk-team-blue-3333333333' } },
    });
    expect((await putGroup(apiKey, 'blue')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/provider-credentials/openai?name=blue', headers: withKey(apiKey) })).statusCode).toBe(204);
    const before = provider.requests.length;
    const refused = await new OpenAI({ apiKey, baseURL, maxRetries: 0 }).chat.completions
      .create({ model: 'blue-team', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as Error).message).toContain('no stored openai credential named "blue"');
    expect(provider.requests.length).toBe(before);
  });
});

describe('count_tokens with merchant credentials', () => {
  it("counts with the merchant's own Anthropic key, and never with the operator's once the merchant forbade them", async () => {
    const { apiKey } = await createMerchant(t.app, 'creds-c');
    const anthropic = new Anthropic({ apiKey, baseURL: baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
    const count = () =>
      anthropic.messages.countTokens({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'how many tokens?' }] }).withResponse();
    await t.app.inject({
      method: 'PUT',
      url: '/provider-credentials/anthropic',
      headers: withKey(apiKey),
      payload: { variables: { ANTHROPIC_API_KEY: 'sk-ant-merchant-c-2222222222' } },
    });
    const own = await count();
    expect(own.data.input_tokens).toBe(4242);
    expect(own.response.headers.get('x-switchyard-token-count-source')).toBe('provider');
    expect(claude.requests.at(-1)?.headers['x-api-key']).toBe('sk-ant-merchant-c-2222222222');

    await t.app.inject({ method: 'PUT', url: '/provider-credentials', headers: withKey(apiKey), payload: { operator_fallback: false } });
    await t.app.inject({ method: 'DELETE', url: '/provider-credentials/anthropic', headers: withKey(apiKey) });
    const before = claude.requests.length;
    const estimated = await count();
    expect(estimated.response.headers.get('x-switchyard-token-count-source')).toBe('estimate');
    expect(estimated.data.input_tokens).not.toBe(1111);
    expect(claude.requests.length).toBe(before);
  });
});
