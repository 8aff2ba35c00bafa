import { signThinking } from '../fixtures/providers/anthropic-rules.js';
import Anthropic from '@anthropic-ai/sdk';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolkit } from '../../cli/create-toolkit.js';
import type { LlmCallRecord } from '../../src/generation/llm-call-record.js';
import { awsError, invokeStreamResponse } from '../fixtures/providers/bedrock-wire.js';
import {
  lastRequestMentioning,
  startFakeHttpServer,
  type FakeHttpServer,
  type FakeResponse,
  type RecordedRequest,
} from '../fixtures/providers/fake-http-server.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Native pass-through of Messages to Claude on Amazon Bedrock (issue 34 point 2): a `/v1/messages`
 * request routed to `bedrock/…claude…` reaches InvokeModel (`/model/{id}/invoke`, or
 * `/invoke-with-response-stream` when streamed) as the client sent it, but for `model` and
 * `stream` (in the path instead), `anthropic_version: "bedrock-2023-05-31"` and the client's
 * `anthropic-beta` header as the body's `anthropic_beta` array, signed with SigV4 over that body.
 * Bedrock's AWS event stream is unwrapped: the client reads Anthropic's server-sent events as
 * Bedrock's chunks carried them. The fake refuses what Bedrock refuses (another envelope, and
 * Anthropic's own rules: test/fixtures/providers/bedrock-rules.ts).
 */

type Json = Record<string, unknown>;

const signature = signThinking('Let me look.');
const region = 'eu-west-1';
const credentials = { accessKeyId: 'AKIAFAKEFAKEFAKE', secretAccessKey: 'fake-secret-key' };
const claudeId = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const invokePath = (model: string, stream = false) => `/model/${encodeURIComponent(model)}/${stream ? 'invoke-with-response-stream' : 'invoke'}`;

const usage = {
  input_tokens: 20,
  cache_creation_input_tokens: 500,
  cache_read_input_tokens: 4000,
  cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 200 },
  output_tokens: 30,
};

/** Anthropic's stream events as Bedrock carries them (each one JSON text; the last one with Bedrock's invocation metrics). */
function claudeEvents(model: string): string[] {
  return [
    {
      type: 'message_start',
      message: {
        id: 'msg_bdrk2',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me look.' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Bedrock ✓.' } },
    { type: 'content_block_stop', index: 1 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 30 } },
    {
      type: 'message_stop',
      'amazon-bedrock-invocationMetrics': { inputTokenCount: 20, outputTokenCount: 30, invocationLatency: 900, firstByteLatency: 300 },
    },
  ].map((event) => JSON.stringify(event));
}

/** The server-sent events the client must read: each carried event under its own type. */
const asSse = (texts: readonly string[]): string => texts.map((text) => `event: ${(JSON.parse(text) as Json)['type']}\ndata: ${text}\n\n`).join('');

function claudeMessage(model: string): FakeResponse {
  return {
    headers: { 'content-type': 'application/json', 'x-amzn-bedrock-input-token-count': '20' },
    body: JSON.stringify({
      id: 'msg_bdrk1',
      type: 'message',
      role: 'assistant',
      model,
      content: [
        { type: 'thinking', thinking: 'Let me look.', signature },
        { type: 'text', text: 'Bedrock.' },
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    }),
  };
}

/** Whether a request carries a valid SigV4 signature (service bedrock) over its exact path, headers and body. */
async function validlySigned(request: RecordedRequest): Promise<boolean> {
  const authorization = String(request.headers['authorization'] ?? '');
  const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  if (signedNames.length === 0 || amzDate === '') return false;
  // The signer hashes the payload into x-amz-content-sha256 and signs that header: it must be the body's hash.
  const payloadHash = request.headers['x-amz-content-sha256'];
  if (payloadHash !== undefined && payloadHash !== createHash('sha256').update(request.bodyText).digest('hex')) return false;
  const date = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  class Sha256 {
    readonly #hash;
    constructor(secret?: string | Uint8Array) {
      this.#hash = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
    }
    update(data: Uint8Array): void {
      this.#hash.update(data);
    }
    digest(): Promise<Uint8Array> {
      return Promise.resolve(new Uint8Array(this.#hash.digest()));
    }
    reset(): void {
      // Each instance computes one digest here.
    }
  }
  const signer = new SignatureV4({ service: 'bedrock', region, credentials, sha256: Sha256 as never });
  const [hostname, port] = String(request.headers['host']).split(':');
  const headers = Object.fromEntries(signedNames.map((name) => [name, String(request.headers[name])]));
  const expected = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: hostname ?? '',
      ...(port ? { port: Number(port) } : {}),
      path: request.path,
      query: {},
      headers,
      body: request.bodyText,
    },
    { signingDate: date },
  );
  return expected.headers['authorization'] === authorization;
}

/** Bedrock's InvokeModel for Claude models (with SigV4 checked) and Anthropic's own API, on one loopback server. */
async function upstream(request: RecordedRequest): Promise<FakeResponse> {
  const body = request.body as Json;
  if (request.path === '/v1/messages') {
    const model = `${String(body['model'])}-20250929`;
    if (body['stream'] !== true) return claudeMessage(model);
    return { headers: { 'content-type': 'text/event-stream' }, body: asSse(claudeEvents(model)) };
  }
  const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(request.path);
  if (route === null) return { status: 404, body: 'not found' };
  if (!(await validlySigned(request)))
    return awsError(403, 'InvalidSignatureException', 'The request signature we calculated does not match the signature you provided.');
  const model = decodeURIComponent(route[1] ?? '');
  if (model.includes('claude-down')) return awsError(503, 'ServiceUnavailableException', 'Bedrock is unable to process your request.');
  if (route[2] === 'invoke') return claudeMessage('claude-sonnet-4-5-20250929');
  if (model.includes('claude-breaks'))
    return invokeStreamResponse(claudeEvents('claude-sonnet-4-5-20250929').slice(0, 3), ['modelStreamErrorException', { message: 'The model stream failed.' }]);
  if (model.includes('claude-throttled'))
    return invokeStreamResponse([], ['throttlingException', { message: 'Too many requests, please wait before trying again.' }]);
  return invokeStreamResponse(claudeEvents('claude-sonnet-4-5-20250929'));
}

let fake: FakeHttpServer;
let t: TestApp;
let origin: string;
let apiKey: string;
let anthropic: Anthropic;
const records: LlmCallRecord[] = [];

beforeAll(async () => {
  fake = await startFakeHttpServer(upstream);
  const env = {
    ANTHROPIC_API_KEY: 'sk-ant-upstream',
    ANTHROPIC_BASE_URL: `${fake.url}/v1`,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_REGION: region,
    BEDROCK_ENDPOINT: fake.url,
  };
  const toolkit = createToolkit({
    logger: pino({ level: 'silent' }),
    cwd: mkdtempSync(join(tmpdir(), 'sytest-native-bedrock-')),
    env,
    onCall: (record) => records.push(record),
  }).toolkit;
  t = await createTestApp({ toolkit });
  ({ apiKey } = await createMerchant(t.app, 'bedrock-shop'));
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  anthropic = new Anthropic({ apiKey, baseURL: origin, maxRetries: 0, timeout: 60_000 });
  for (const [name, first] of [
    ['bedrock-then-anthropic', 'anthropic.claude-down-v1:0'],
    ['throttled-then-anthropic', 'anthropic.claude-throttled-v1:0'],
  ] as const) {
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/route-groups/${name}`,
      headers: withKey(apiKey),
      payload: {
        candidates: [
          { provider: 'bedrock', model: first },
          { provider: 'anthropic', model: 'claude-sonnet-4-5' },
        ],
      },
    });
    expect(put.statusCode).toBe(200);
  }
}, 60_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** The last request the fake received on `path` whose body mentions `marker`. */
const sentTo = (path: string, marker: string): RecordedRequest => lastRequestMentioning(fake, path, marker);

/** A Claude Code shaped request: cache breakpoints with a TTL, thinking, a field the gateway does not know. */
function claudeCodeBody(marker: string, extra: Json = {}): Json {
  return {
    model: `bedrock/${claudeId}`,
    max_tokens: 32_000,
    system: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'Project instructions.', cache_control: { type: 'ephemeral' } },
    ],
    messages: [{ role: 'user', content: [{ type: 'text', text: `${marker} list the files`, cache_control: { type: 'ephemeral' } }] }],
    tools: [{ name: 'Bash', description: 'Runs a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
    thinking: { type: 'enabled', budget_tokens: 2000 },
    metadata: { user_id: 'user_bdrk_session_1' },
    some_future_field: { nested: [1, 'two'] },
    ...extra,
  };
}

const betas = 'interleaved-thinking-2025-05-14, context-1m-2025-08-07';

/** What Bedrock must receive for a client body: the same without `model` and `stream`, with Bedrock's anthropic_version (and the betas as an array). */
function onBedrock(body: Json, withBetas = true): Json {
  const { model: _model, stream: _stream, ...rest } = body;
  return {
    ...rest,
    ...(withBetas ? { anthropic_beta: ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'] } : {}),
    anthropic_version: 'bedrock-2023-05-31',
  };
}

describe('Messages → Claude on Amazon Bedrock: passed through natively with InvokeModel', () => {
  it('forwards a request to /invoke unchanged but for model, anthropic_version and the betas as anthropic_beta, signed with SigV4', async () => {
    const body = claudeCodeBody('bd-1');
    const { data, response } = await anthropic.beta.messages
      .create(body as never, { headers: { 'anthropic-beta': betas, 'anthropic-version': '2023-06-01' } })
      .withResponse();
    const sent = sentTo(invokePath(claudeId), 'bd-1');
    expect(sent.body).toEqual(onBedrock(body));
    expect(sent.headers['anthropic-beta']).toBeUndefined();
    expect(sent.headers['anthropic-version']).toBeUndefined();
    expect(sent.headers['x-api-key']).toBeUndefined();
    expect(sent.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKEFAKEFAKE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, /);
    expect(await validlySigned(sent)).toBe(true);
    expect(await validlySigned({ ...sent, bodyText: `${sent.bodyText} ` })).toBe(false);
    expect(response.headers.get('x-switchyard-provider')).toBe('bedrock');
    expect(data).toMatchObject({ id: 'msg_bdrk1', usage });
    expect(data.content[0]).toEqual({ type: 'thinking', thinking: 'Let me look.', signature });
  });

  it("streams from /invoke-with-response-stream and hands the chunks' Anthropic events to the client as server-sent events", async () => {
    const answer = await fetch(`${origin}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(claudeCodeBody('bd-2', { stream: true })),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-switchyard-provider')).toBe('bedrock');
    expect(await answer.text()).toBe(asSse(claudeEvents('claude-sonnet-4-5-20250929')));
    expect(sentTo(invokePath(claudeId, true), 'bd-2').body).toEqual(onBedrock(claudeCodeBody('bd-2', { stream: true }), false));
  });

  it('records the cache tokens of a plain and of a streamed call in llm.call (input counts every token)', async () => {
    const before = records.length;
    await anthropic.messages.create(claudeCodeBody('bd-3') as never);
    const stream = anthropic.messages.stream(claudeCodeBody('bd-4') as never);
    const final = await stream.finalMessage();
    expect(final.content[0]).toEqual({ type: 'thinking', thinking: 'Let me look.', signature });
    expect(final.usage).toMatchObject({ cache_read_input_tokens: 4000, cache_creation_input_tokens: 500 });
    const expected = {
      provider: 'bedrock',
      outcome: 'success',
      inputTokens: 20 + 500 + 4000,
      outputTokens: 30,
      cacheReadTokens: 4000,
      cacheWriteTokens: 300,
      cacheWrite1hTokens: 200,
    };
    expect(records.slice(before)).toEqual([
      expect.objectContaining({ ...expected, operation: 'generate', attribution: expect.objectContaining({ merchantId: 'bedrock-shop', api: 'messages' }) }),
      expect.objectContaining({ ...expected, operation: 'stream' }),
    ]);
  });

  it("answers Bedrock's own refusal with its body and status: the strict fake refuses thinking with a temperature", async () => {
    const refused = await anthropic.messages.create(claudeCodeBody('bd-5', { temperature: 0.5 }) as never).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).message).toContain('`temperature` may only be set to 1 when thinking is enabled');
  });

  it('fails over before the first byte from a refusing Bedrock candidate to Anthropic, natively on both', async () => {
    const before = records.length;
    const body = claudeCodeBody('bd-6', { model: 'bedrock-then-anthropic' });
    const { response } = await anthropic.messages.create(body as never).withResponse();
    expect(response.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(response.headers.get('x-switchyard-hops')).toBe('1');
    expect(sentTo(invokePath('anthropic.claude-down-v1:0'), 'bd-6').body).toEqual(onBedrock(body, false));
    expect(sentTo('/v1/messages', 'bd-6').body).toEqual({ ...body, model: 'claude-sonnet-4-5' });
    expect(records.slice(before).map((entry) => [entry.provider, entry.outcome, entry.fallbackHops])).toEqual([
      ['bedrock', 'error', 0],
      ['anthropic', 'success', 1],
    ]);
  });

  it('fails over when the event stream opens with a throttlingException frame', async () => {
    const answer = await fetch(`${origin}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(claudeCodeBody('bd-7', { model: 'throttled-then-anthropic', stream: true })),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(answer.headers.get('x-switchyard-hops')).toBe('1');
    expect(await answer.text()).toBe(asSse(claudeEvents('claude-sonnet-4-5-20250929')));
    expect(sentTo(invokePath('anthropic.claude-throttled-v1:0', true), 'bd-7').body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31' });
  });

  it("passes an exception frame after the first event on as Anthropic's error event, and records the call as failed", async () => {
    const before = records.length;
    const answer = await fetch(`${origin}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(claudeCodeBody('bd-8', { model: 'bedrock/anthropic.claude-breaks-v1:0', stream: true })),
    });
    expect(answer.status).toBe(200);
    const error = { type: 'error', error: { type: 'api_error', message: 'modelStreamErrorException: The model stream failed.' } };
    expect(await answer.text()).toBe(`${asSse(claudeEvents('claude-sonnet-4-5-20250929').slice(0, 3))}event: error\ndata: ${JSON.stringify(error)}\n\n`);
    expect(records.slice(before)).toEqual([expect.objectContaining({ provider: 'bedrock', operation: 'stream', outcome: 'error' })]);
  });
});
