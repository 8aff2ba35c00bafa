import { signThinking } from '../fixtures/providers/anthropic-rules.js';
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolkit } from '../../cli/create-toolkit.js';
import type { LlmCallRecord } from '../../src/generation/llm-call-record.js';
import {
  lastRequestMentioning,
  startFakeHttpServer,
  type FakeHttpServer,
  type FakeResponse,
  type RecordedRequest,
} from '../fixtures/providers/fake-http-server.js';
import { fakeAccessToken, stsTokenResponse, writeExternalAccountCredentials, type CredentialsFile } from '../fixtures/providers/vertex-auth.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Native pass-through of Messages to Claude on Vertex AI (issue 34 point 2): a `/v1/messages`
 * request routed to `vertex/claude-…` reaches Vertex's `:rawPredict` (`:streamRawPredict` when
 * streamed) as the client sent it, but for `model` (in the URL instead) and `anthropic_version:
 * "vertex-2023-10-16"` (in place of the `anthropic-version` header), with a real OAuth token from
 * an external-account credentials file; the answer and its events come back as Vertex gave them.
 * The fake refuses what Vertex refuses (a body `model`, no `anthropic_version`, and Anthropic's
 * own rules: test/fixtures/providers/anthropic-rules.ts).
 */

type Json = Record<string, unknown>;

const signature = signThinking('Let me look.');
const project = 'proj-fake';
const location = 'us-east5';
const vertexPath = (model: string, method: 'rawPredict' | 'streamRawPredict') =>
  `/v1/projects/${project}/locations/${location}/publishers/anthropic/models/${model}:${method}`;
const vertexRoute = /^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/;

const usage = {
  input_tokens: 15,
  cache_creation_input_tokens: 400,
  cache_read_input_tokens: 3000,
  cache_creation: { ephemeral_5m_input_tokens: 400, ephemeral_1h_input_tokens: 0 },
  output_tokens: 25,
};

const sse = (events: readonly (readonly [string, Json])[]): string =>
  events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');

async function* chunked(text: string): AsyncIterable<string> {
  // Split mid-event, as a network does.
  for (let at = 0; at < text.length; at += 61) yield text.slice(at, at + 61);
}

function claudeStream(model: string): string {
  return sse([
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_vx2',
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me look.' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['ping', { type: 'ping' }],
    ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Vertex ✓.' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 1 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 25 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function claudeAnswer(model: string, stream: boolean): FakeResponse {
  if (stream) return { headers: { 'content-type': 'text/event-stream' }, body: chunked(claudeStream(model)) };
  return {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'msg_vx1',
      type: 'message',
      role: 'assistant',
      model,
      content: [
        { type: 'thinking', thinking: 'Let me look.', signature },
        { type: 'text', text: 'Vertex.' },
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    }),
  };
}

const refusal = (status: number, type: string, message: string): FakeResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'error', error: { type, message } }),
});

/** Vertex AI (OAuth token exchange, Claude's rawPredict/streamRawPredict) and Anthropic's own API, on one loopback server. */
function upstream(request: RecordedRequest): FakeResponse {
  const token = stsTokenResponse(request);
  if (token !== undefined) return token;
  const body = request.body as Json;
  if (request.path === '/v1/messages') return claudeAnswer(`${String(body['model'])}-20250929`, body['stream'] === true);
  const route = vertexRoute.exec(request.path);
  if (route === null) return { status: 404, body: 'not found' };
  if (request.headers['authorization'] !== `Bearer ${fakeAccessToken}`)
    return { status: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 401, status: 'UNAUTHENTICATED' } }) };
  const model = route[1] ?? '';
  if (model === 'claude-down') return refusal(529, 'overloaded_error', 'Overloaded');
  if ((route[2] === 'streamRawPredict') !== (body['stream'] === true)) return refusal(400, 'invalid_request_error', 'stream does not match the method');
  return claudeAnswer(model, body['stream'] === true);
}

let fake: FakeHttpServer;
let credentials: CredentialsFile;
let t: TestApp;
let origin: string;
let apiKey: string;
let anthropic: Anthropic;
const records: LlmCallRecord[] = [];

beforeAll(async () => {
  fake = await startFakeHttpServer(upstream);
  credentials = await writeExternalAccountCredentials(fake.url);
  const env = {
    ANTHROPIC_API_KEY: 'sk-ant-upstream',
    ANTHROPIC_BASE_URL: `${fake.url}/v1`,
    GOOGLE_CLOUD_PROJECT_ID: project,
    GOOGLE_CLOUD_LOCATION: location,
    GOOGLE_APPLICATION_CREDENTIALS: credentials.path,
    VERTEX_BASE_URL: fake.url,
  };
  const toolkit = createToolkit({
    logger: pino({ level: 'silent' }),
    cwd: mkdtempSync(join(tmpdir(), 'sytest-native-vertex-')),
    env,
    onCall: (record) => records.push(record),
  }).toolkit;
  t = await createTestApp({ toolkit });
  ({ apiKey } = await createMerchant(t.app, 'vertex-shop'));
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  anthropic = new Anthropic({ apiKey, baseURL: origin, maxRetries: 0, timeout: 60_000 });
  const put = await t.app.inject({
    method: 'PUT',
    url: '/v1/route-groups/vertex-then-anthropic',
    headers: withKey(apiKey),
    payload: {
      candidates: [
        { provider: 'vertex', model: 'claude-down' },
        { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      ],
    },
  });
  expect(put.statusCode).toBe(200);
}, 60_000);
afterAll(async () => {
  await t.close();
  await fake.close();
  await credentials.remove();
});

/** The last request the fake received on `path` whose body mentions `marker`. */
const sentTo = (path: string, marker: string): RecordedRequest => lastRequestMentioning(fake, path, marker);

/** A Claude Code shaped request: cache breakpoints with a TTL, thinking, a field the gateway does not know. */
function claudeCodeBody(marker: string, extra: Json = {}): Json {
  return {
    model: 'vertex/claude-sonnet-4-5',
    max_tokens: 32_000,
    system: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'Project instructions.', cache_control: { type: 'ephemeral' } },
    ],
    messages: [{ role: 'user', content: [{ type: 'text', text: `${marker} list the files`, cache_control: { type: 'ephemeral' } }] }],
    tools: [{ name: 'Bash', description: 'Runs a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
    thinking: { type: 'enabled', budget_tokens: 2000 },
    metadata: { user_id: 'user_vx_session_1' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    some_future_field: { nested: [1, 'two'] },
    ...extra,
  };
}

const betas = 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27';

/** What Vertex must receive for a client body: the same, without `model`, with Vertex's anthropic_version. */
function onVertex(body: Json): Json {
  const { model: _model, ...rest } = body;
  return { ...rest, anthropic_version: 'vertex-2023-10-16' };
}

describe('Messages → Claude on Vertex AI: passed through natively', () => {
  it('forwards a request to :rawPredict unchanged but for model and anthropic_version, anthropic-beta as a header, with an OAuth token', async () => {
    const body = claudeCodeBody('vx-1');
    const { data, response } = await anthropic.beta.messages
      .create(body as never, { headers: { 'anthropic-beta': betas, 'anthropic-version': '2023-06-01' } })
      .withResponse();
    const sent = sentTo(vertexPath('claude-sonnet-4-5', 'rawPredict'), 'vx-1');
    expect(sent.body).toEqual(onVertex(body));
    expect(sent.headers['anthropic-beta']).toBe(betas);
    expect(sent.headers['anthropic-version']).toBeUndefined();
    expect(sent.headers['authorization']).toBe(`Bearer ${fakeAccessToken}`);
    expect(sent.headers['x-api-key']).toBeUndefined();
    expect(response.headers.get('x-switchyard-provider')).toBe('vertex');
    expect(data).toMatchObject({ id: 'msg_vx1', model: 'claude-sonnet-4-5', usage });
    expect(data.content[0]).toEqual({ type: 'thinking', thinking: 'Let me look.', signature });
  });

  it('streams from :streamRawPredict and passes the events on byte for byte', async () => {
    const answer = await fetch(`${origin}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'anthropic-beta': betas },
      body: JSON.stringify(claudeCodeBody('vx-2', { stream: true })),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-switchyard-provider')).toBe('vertex');
    expect(await answer.text()).toBe(claudeStream('claude-sonnet-4-5'));
    const sent = sentTo(vertexPath('claude-sonnet-4-5', 'streamRawPredict'), 'vx-2');
    expect(sent.body).toEqual(onVertex(claudeCodeBody('vx-2', { stream: true })));
    expect(sent.headers['anthropic-beta']).toBe(betas);
  });

  it('records the cache tokens of a plain and of a streamed call in llm.call (input counts every token)', async () => {
    const before = records.length;
    await anthropic.messages.create(claudeCodeBody('vx-3') as never);
    const stream = anthropic.messages.stream(claudeCodeBody('vx-4') as never);
    const final = await stream.finalMessage();
    expect(final.usage).toMatchObject({ cache_read_input_tokens: 3000, cache_creation_input_tokens: 400 });
    const vertexRecords = records.slice(before).filter((entry) => entry.provider === 'vertex');
    const expected = { outcome: 'success', inputTokens: 15 + 400 + 3000, outputTokens: 25, cacheReadTokens: 3000, cacheWriteTokens: 400 };
    expect(vertexRecords).toEqual([
      expect.objectContaining({ ...expected, operation: 'generate', attribution: expect.objectContaining({ merchantId: 'vertex-shop', api: 'messages' }) }),
      expect.objectContaining({ ...expected, operation: 'stream' }),
    ]);
  });

  it("answers Vertex's own 400 with its body and status: the strict fake refuses thinking with a temperature", async () => {
    const refused = await anthropic.messages.create(claudeCodeBody('vx-5', { temperature: 0.7 }) as never).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).message).toContain('`temperature` may only be set to 1 when thinking is enabled');
    expect(sentTo(vertexPath('claude-sonnet-4-5', 'rawPredict'), 'vx-5').body).toMatchObject({ temperature: 0.7 });
  });

  it('fails over before the first byte from a failing Vertex candidate to Anthropic, natively on both', async () => {
    const before = records.length;
    const body = claudeCodeBody('vx-6', { model: 'vertex-then-anthropic' });
    const { response } = await anthropic.messages.create(body as never).withResponse();
    expect(response.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(response.headers.get('x-switchyard-hops')).toBe('1');
    expect(sentTo(vertexPath('claude-down', 'rawPredict'), 'vx-6').body).toEqual(onVertex(body));
    expect(sentTo('/v1/messages', 'vx-6').body).toEqual({ ...body, model: 'claude-sonnet-4-5' });
    const attempts = records.slice(before).map((entry) => [entry.provider, entry.outcome, entry.fallbackHops]);
    expect(attempts).toEqual([
      ['vertex', 'error', 0],
      ['anthropic', 'success', 1],
    ]);
  });
});
