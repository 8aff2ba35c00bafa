import { signThinking } from '../fixtures/providers/anthropic-rules.js';
import { encryptedReasoningContent } from '../fixtures/providers/openai-rules.js';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
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
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

// Signed and encrypted as the strict fakes issue them (test/fixtures/providers/*-rules.ts): a real provider refuses anything else.
const npSignature = signThinking('Let me look.');
const npEncrypted = encryptedReasoningContent('rs_np1');
const prevEncrypted = encryptedReasoningContent('rs_prev1');

/**
 * Native pass-through (issue 34): a request whose wire the chosen provider speaks reaches it as the
 * client sent it (only `model` rewritten) and its answer comes back as the provider gave it, events
 * included. Driven by the official `@anthropic-ai/sdk` and `openai` clients against recording
 * fakes of Anthropic's Messages API and OpenAI's Chat Completions and Responses APIs, which refuse
 * what the real ones refuse for these cases (a tool-use turn sent back without its signed thinking
 * block, an unstored reasoning item without its encrypted content).
 */

type Json = Record<string, unknown>;

const sse = (events: readonly (readonly [string | undefined, Json | string])[]): string =>
  events.map(([name, data]) => `${name === undefined ? '' : `event: ${name}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('');

async function* chunked(text: string): AsyncIterable<string> {
  // Split mid-event, as a network does: the gateway must put events back together before passing them on.
  for (let at = 0; at < text.length; at += 97) yield text.slice(at, at + 97);
}

const claudeUsage = {
  input_tokens: 12,
  cache_creation_input_tokens: 300,
  cache_read_input_tokens: 2000,
  cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
  output_tokens: 40,
};

const anthropicRefusal = (status: number, type: string, message: string): FakeResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_fake' }),
});

/** Anthropic's rule: with thinking on, an assistant turn that called a tool comes back with its signed thinking block first. */
function thinkingRuleBroken(body: Json): string | undefined {
  if ((body['thinking'] as Json | undefined)?.['type'] !== 'enabled') return undefined;
  const messages = body['messages'] as { role: string; content: unknown }[];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const blocks = message.content as Json[];
    if (!blocks.some((block) => block['type'] === 'tool_use')) continue;
    const first = blocks[0];
    if (first?.['type'] !== 'thinking' || first['signature'] !== npSignature || first['thinking'] !== 'Let me look.')
      return `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first?.['type'])}\`.`;
  }
  return undefined;
}

/** The Anthropic fake: its answers carry thinking, signature and cache usage; `np-bad` gets a 400, model `claude-down` a 529. */
function claudeUpstream(request: RecordedRequest): FakeResponse {
  const body = request.body as Json;
  if (body['model'] === 'claude-down') return anthropicRefusal(529, 'overloaded_error', 'Overloaded');
  if (request.bodyText.includes('np-bad')) return anthropicRefusal(400, 'invalid_request_error', 'thinking.budget_tokens: must be less than max_tokens');
  const broken = thinkingRuleBroken(body);
  if (broken !== undefined) return anthropicRefusal(400, 'invalid_request_error', broken);
  const toolTurn = request.bodyText.includes('np-tool') && !request.bodyText.includes('tool_result');
  const content = [
    { type: 'thinking', thinking: 'Let me look.', signature: npSignature },
    toolTurn ? { type: 'tool_use', id: 'toolu_np1', name: 'Bash', input: { command: 'ls' } } : { type: 'text', text: 'Done.' },
  ];
  const model = `${String(body['model'])}-20250929`;
  if (body['stream'] !== true)
    return {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'msg_np1',
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: toolTurn ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: claudeUsage,
      }),
    };
  return { headers: { 'content-type': 'text/event-stream' }, body: chunked(claudeStream(model)) };
}

function claudeStream(model: string): string {
  return sse([
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_np2',
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...claudeUsage, output_tokens: 1 },
        },
      },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me look.' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: npSignature } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['ping', { type: 'ping' }],
    ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Done, ünïcode ✓.' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 1 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 40 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

const chatUsage = {
  prompt_tokens: 2100,
  completion_tokens: 30,
  total_tokens: 2130,
  prompt_tokens_details: { cached_tokens: 1920 },
  completion_tokens_details: { reasoning_tokens: 12 },
};
const responsesUsage = {
  input_tokens: 2100,
  input_tokens_details: { cached_tokens: 1024 },
  output_tokens: 50,
  output_tokens_details: { reasoning_tokens: 20 },
  total_tokens: 2150,
};

/** The OpenAI fake: Chat Completions and Responses, plain and streamed; a reasoning item sent back unstored needs its encrypted content. */
function gptUpstream(request: RecordedRequest): FakeResponse {
  const body = request.body as Json;
  if (body['model'] === 'gpt-down')
    return { status: 503, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }) };
  if (request.path === '/v1/chat/completions') return chatAnswer(body);
  if (request.path !== '/v1/responses') return { status: 404, body: 'not found' };
  const input = Array.isArray(body['input']) ? (body['input'] as Json[]) : [];
  const bare = input.find((item) => item['type'] === 'reasoning' && body['store'] === false && typeof item['encrypted_content'] !== 'string');
  if (bare !== undefined)
    return {
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        error: {
          message: `Item with id '${String(bare['id'])}' not found. Items are not persisted when \`store\` is set to false.`,
          type: 'invalid_request_error',
          param: 'input',
          code: null,
        },
      }),
    };
  const encrypted = Array.isArray(body['include']) && (body['include'] as string[]).includes('reasoning.encrypted_content');
  const response = {
    id: `resp_np${request.bodyText.length}`,
    object: 'response',
    created_at: 1_764_000_000,
    status: 'completed',
    model: `${String(body['model'])}-2025-08-07`,
    output: [
      { id: 'rs_np1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thought.' }], ...(encrypted ? { encrypted_content: npEncrypted } : {}) },
      { id: 'msg_np1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hi.', annotations: [] }] },
    ],
    usage: responsesUsage,
  };
  if (body['stream'] !== true) return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(response) };
  const events: [string, Json][] = [
    ['response.created', { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } }],
    ['response.output_item.added', { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...response.output[0], summary: [] } }],
    ['response.output_item.done', { type: 'response.output_item.done', sequence_number: 2, output_index: 0, item: response.output[0] }],
    [
      'response.output_text.delta',
      { type: 'response.output_text.delta', sequence_number: 3, item_id: 'msg_np1', output_index: 1, content_index: 0, delta: 'Hi.' },
    ],
    ['response.completed', { type: 'response.completed', sequence_number: 4, response }],
  ];
  return { headers: { 'content-type': 'text/event-stream' }, body: chunked(sse(events)) };
}

function chatAnswer(body: Json): FakeResponse {
  const model = `${String(body['model'])}-2024-07-18`;
  if (body['stream'] !== true)
    return {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'chatcmpl-np1',
        object: 'chat.completion',
        created: 1_764_000_000,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.', refusal: null }, finish_reason: 'stop', logprobs: null }],
        usage: chatUsage,
        system_fingerprint: 'fp_np',
      }),
    };
  const includeUsage = (body['stream_options'] as Json | undefined)?.['include_usage'] === true;
  const chunk = (delta: Json, finish: string | null) => ({
    id: 'chatcmpl-np2',
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: [undefined, Json | string][] = [
    [undefined, chunk({ role: 'assistant', content: '' }, null)],
    [undefined, chunk({ content: 'Hi there.' }, null)],
    [undefined, chunk({}, 'stop')],
    ...(includeUsage
      ? [
          [undefined, { id: 'chatcmpl-np2', object: 'chat.completion.chunk', created: 1_764_000_000, model, choices: [], usage: chatUsage }] as [
            undefined,
            Json,
          ],
        ]
      : []),
    [undefined, '[DONE]'],
  ];
  return { headers: { 'content-type': 'text/event-stream' }, body: chunked(sse(events)) };
}

let claude: FakeHttpServer;
let gpt: FakeHttpServer;
let t: TestApp;
let origin: string;
let apiKey: string;
let anthropic: Anthropic;
let openai: OpenAI;
const records: LlmCallRecord[] = [];

beforeAll(async () => {
  claude = await startFakeHttpServer(claudeUpstream);
  gpt = await startFakeHttpServer(gptUpstream);
  const env = { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${gpt.url}/v1`, ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: `${claude.url}/v1` };
  const toolkit = createToolkit({
    logger: pino({ level: 'silent' }),
    cwd: mkdtempSync(join(tmpdir(), 'sytest-native-')),
    env,
    onCall: (record) => records.push(record),
  }).toolkit;
  t = await createTestApp({ toolkit });
  ({ apiKey } = await createMerchant(t.app, 'native-shop'));
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // A timeout of its own: the SDK refuses non-streamed calls with a large max_tokens otherwise.
  anthropic = new Anthropic({ apiKey, baseURL: origin, maxRetries: 0, timeout: 60_000 });
  openai = new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0 });
  const group = (candidates: Json[]) => ({ candidates });
  for (const [name, candidates] of [
    [
      'claude-failover',
      [
        { provider: 'anthropic', model: 'claude-down' },
        { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      ],
    ],
    [
      'claude-then-gpt',
      [
        { provider: 'anthropic', model: 'claude-down' },
        { provider: 'openai', model: 'gpt-4o-mini' },
      ],
    ],
    [
      'gpt-failover',
      [
        { provider: 'openai', model: 'gpt-down' },
        { provider: 'openai', model: 'gpt-4o-mini' },
      ],
    ],
  ] as const) {
    const put = await t.app.inject({ method: 'PUT', url: `/v1/route-groups/${name}`, headers: withKey(apiKey), payload: group([...candidates]) });
    expect(put.statusCode).toBe(200);
  }
}, 60_000);
afterAll(async () => {
  await t.close();
  await claude.close();
  await gpt.close();
});

/** Claude Code's shape of a Messages request (November 2026): cache breakpoints with TTLs, thinking, betas' fields, server tools. */
function claudeCodeBody(marker: string, extra: Json = {}): Json {
  return {
    model: 'anthropic/claude-sonnet-4-5',
    max_tokens: 32_000,
    system: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'Project instructions.', cache_control: { type: 'ephemeral' } },
    ],
    messages: [{ role: 'user', content: [{ type: 'text', text: `${marker} list the files`, cache_control: { type: 'ephemeral' } }] }],
    tools: [
      {
        name: 'Bash',
        description: 'Runs a command',
        input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'], additionalProperties: false },
      },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
    ],
    thinking: { type: 'enabled', budget_tokens: 2000 },
    metadata: { user_id: 'user_5f3a_account_0b1c_session_9d8e' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    output_config: { effort: 'high' },
    ...extra,
  };
}

const betas = 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,prompt-caching-scope-2026-01-05';

describe('Messages → Anthropic: passed through natively', () => {
  const rows: readonly [string, Json][] = [
    ['a plain Claude Code request', claudeCodeBody('np-m1')],
    ['a streamed Claude Code request', claudeCodeBody('np-m2', { stream: true })],
    [
      'adaptive thinking, a service tier, a container and a PDF document with citations',
      claudeCodeBody('np-m3', {
        thinking: { type: 'adaptive' },
        service_tier: 'auto',
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'document',
                source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' },
                citations: { enabled: true },
                title: 'spec',
              },
              { type: 'text', text: 'np-m3 summarise' },
            ],
          },
        ],
      }),
    ],
    [
      'a system-role message inside messages (as Claude Code sends them), thinking off',
      {
        model: 'anthropic/claude-sonnet-4-5',
        max_tokens: 64_000,
        messages: [
          { role: 'user', content: 'np-m4 hello' },
          { role: 'system', content: 'Reminder: be brief.' },
        ],
      },
    ],
  ];

  it.each(rows)('forwards %s unchanged but for its model, with anthropic-version and anthropic-beta', async (_name, body) => {
    const marker = JSON.stringify(body).match(/np-m\d/)?.[0] ?? '';
    const response = await anthropic.beta.messages.create(body as never, { headers: { 'anthropic-beta': betas, 'anthropic-version': '2023-06-01' } });
    const sent = lastRequestMentioning(claude, '/v1/messages', marker);
    expect(sent.body).toEqual({ ...body, model: 'claude-sonnet-4-5' });
    expect(sent.headers['anthropic-beta']).toBe(betas);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream');
    expect(sent.body).not.toHaveProperty('temperature');
    if (body['stream'] !== true) expect(response).toMatchObject({ id: 'msg_np1', model: 'claude-sonnet-4-5-20250929', usage: claudeUsage });
  });

  it('streams the upstream events to the client byte for byte (thinking_delta, signature_delta, ping, cache usage), with the routing headers', async () => {
    const answer = await fetch(`${origin}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(claudeCodeBody('np-m5', { stream: true })),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(answer.headers.get('x-switchyard-routing-approach')).toBe('explicit');
    expect(await answer.text()).toBe(claudeStream('claude-sonnet-4-5-20250929'));
  });

  it('carries a two-turn tool cycle with thinking on: the signed thinking block goes back verbatim', async () => {
    const first = await anthropic.messages.create(claudeCodeBody('np-tool-1') as never);
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const second = claudeCodeBody('np-tool-1', {
      messages: [
        ...(claudeCodeBody('np-tool-1')['messages'] as Json[]),
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_np1', content: 'a.txt b.txt' }] },
      ],
    });
    const answer = await anthropic.messages.create(second as never);
    expect(answer.content.at(-1)).toEqual({ type: 'text', text: 'Done.' });
    const sent = lastRequestMentioning(claude, '/v1/messages', 'tool_result');
    expect((sent.body as Json)['messages']).toEqual(second['messages']);
  });

  it("answers a provider's own 400 with its body and status (no failover, no rewording)", async () => {
    const refused = await anthropic.messages.create(claudeCodeBody('np-bad') as never).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).error).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'thinking.budget_tokens: must be less than max_tokens' },
      request_id: 'req_fake',
    });
  });

  it('reports the upstream cache tokens in the answer and in the llm.call record (input counts every token)', async () => {
    const before = records.length;
    const answer = await anthropic.messages.create(claudeCodeBody('np-m6') as never);
    expect(answer.usage).toMatchObject({ cache_read_input_tokens: 2000, cache_creation_input_tokens: 300 });
    const record = records.slice(before).find((entry) => entry.provider === 'anthropic');
    expect(record).toMatchObject({
      model: 'claude-sonnet-4-5-20250929',
      operation: 'generate',
      outcome: 'success',
      inputTokens: 12 + 300 + 2000,
      outputTokens: 40,
      cacheReadTokens: 2000,
      cacheWriteTokens: 100,
      cacheWrite1hTokens: 200,
      fallbackHops: 0,
      attribution: expect.objectContaining({ merchantId: 'native-shop', api: 'messages' }),
    });
  });

  it('records a streamed call once its last event has passed, with the cache tokens of message_start', async () => {
    const before = records.length;
    const stream = anthropic.messages.stream(claudeCodeBody('np-m7') as never);
    const kinds: string[] = [];
    for await (const event of stream) kinds.push(event.type === 'content_block_delta' ? event.delta.type : event.type);
    expect(kinds).toContain('thinking_delta');
    expect(kinds).toContain('signature_delta');
    const final = await stream.finalMessage();
    expect(final.content[0]).toEqual({ type: 'thinking', thinking: 'Let me look.', signature: npSignature });
    expect(records.slice(before)).toContainEqual(
      expect.objectContaining({ operation: 'stream', inputTokens: 2312, outputTokens: 40, cacheReadTokens: 2000, timeToFirstTokenMs: expect.any(Number) }),
    );
  });

  it('fails over before the first byte from a failing native candidate to the next native one', async () => {
    const before = records.length;
    const answer = await anthropic.messages.create(claudeCodeBody('np-m8', { model: 'claude-failover' }) as never).withResponse();
    expect(answer.response.headers.get('x-switchyard-hops')).toBe('1');
    expect(answer.response.headers.get('x-switchyard-route-group')).toBe('claude-failover');
    expect(lastRequestMentioning(claude, '/v1/messages', 'np-m8').body).toMatchObject({
      model: 'claude-sonnet-4-5',
      thinking: { type: 'enabled', budget_tokens: 2000 },
    });
    const attempts = records.slice(before).filter((entry) => entry.provider === 'anthropic');
    expect(attempts.map((entry) => [entry.outcome, entry.fallbackHops])).toEqual([
      ['error', 0],
      ['success', 1],
    ]);
    expect(attempts[0]?.attribution.routeGroup).toBe('claude-failover');
  });

  it('fails over from a failing Anthropic candidate to an OpenAI one by translation', async () => {
    const body = { model: 'claude-then-gpt', max_tokens: 256, messages: [{ role: 'user', content: 'np-m9 hello' }] };
    const { data, response } = await anthropic.messages.create(body as never).withResponse();
    expect(response.headers.get('x-switchyard-provider')).toBe('openai');
    expect(response.headers.get('x-switchyard-hops')).toBe('1');
    expect(data.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hi.' })]);
    expect(lastRequestMentioning(gpt, '/v1/chat/completions', 'np-m9').body).toMatchObject({ model: 'gpt-4o-mini' });
  });
});

/** What the OpenAI SDK sends for a chat completion of an agent: developer message, tools, prompt cache key, store, metadata. */
function chatBody(marker: string, extra: Json = {}): Json {
  return {
    model: 'openai/gpt-4o-mini',
    messages: [
      { role: 'developer', content: 'You are terse.' },
      { role: 'user', content: [{ type: 'text', text: `${marker} hi` }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_np1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
      { role: 'tool', tool_call_id: 'call_np1', content: 'found' },
    ],
    tools: [
      {
        type: 'function',
        function: { name: 'lookup', description: 'Looks up', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: false },
      },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    prompt_cache_key: 'np-session-1',
    store: false,
    metadata: { session: 'np' },
    service_tier: 'default',
    logit_bias: { '50256': -100 },
    ...extra,
  };
}

describe('chat completions → OpenAI: passed through natively', () => {
  const rows: readonly [string, Json][] = [
    ['a plain agent request', chatBody('np-c1')],
    ['a streamed request asking for usage', chatBody('np-c2', { stream: true, stream_options: { include_usage: true } })],
    [
      'a reasoning model request with reasoning_effort and a verbosity',
      chatBody('np-c3', { model: 'openai/gpt-5', reasoning_effort: 'low', verbosity: 'low' }),
    ],
  ];

  it.each(rows)('forwards %s unchanged but for its model (no temperature, no max_tokens added)', async (_name, body) => {
    const marker = JSON.stringify(body).match(/np-c\d/)?.[0] ?? '';
    if (body['stream'] === true) {
      const stream = await openai.chat.completions.create(body as never);
      for await (const _chunk of stream as unknown as AsyncIterable<unknown>) {
        // drained
      }
    } else await openai.chat.completions.create(body as never);
    const sent = lastRequestMentioning(gpt, '/v1/chat/completions', marker);
    expect(sent.body).toEqual({ ...body, model: String(body['model']).slice('openai/'.length) });
    expect(sent.headers['authorization']).toBe('Bearer sk-upstream');
  });

  it('answers with the upstream body as it was, cached tokens included, and records them', async () => {
    const before = records.length;
    const { data, response } = await openai.chat.completions.create(chatBody('np-c4') as never).withResponse();
    expect(response.headers.get('x-switchyard-provider')).toBe('openai');
    expect(data).toMatchObject({ id: 'chatcmpl-np1', system_fingerprint: 'fp_np', usage: chatUsage });
    expect(records.slice(before)).toContainEqual(
      expect.objectContaining({
        provider: 'openai',
        model: 'gpt-4o-mini-2024-07-18',
        inputTokens: 2100,
        outputTokens: 30,
        cacheReadTokens: 1920,
        reasoningTokens: 12,
      }),
    );
  });

  it('streams the chunks as they came and estimates usage when the client did not ask the provider for it', async () => {
    const before = records.length;
    const stream = await openai.chat.completions.create(chatBody('np-c5', { stream: true }) as never);
    const texts: string[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>) texts.push(chunk.choices[0]?.delta.content ?? '');
    expect(texts.join('')).toBe('Hi there.');
    expect((lastRequestMentioning(gpt, '/v1/chat/completions', 'np-c5').body as Json)['stream_options']).toBeUndefined();
    const record = records.slice(before).find((entry) => entry.operation === 'stream');
    expect(record?.inputTokens).toBeGreaterThan(0);
    expect(record?.outputTokens).toBe(Math.ceil('Hi there.'.length / 4));
  });

  it('fails over before the first byte to the next OpenAI candidate', async () => {
    const { response } = await openai.chat.completions.create(chatBody('np-c6', { model: 'gpt-failover' }) as never).withResponse();
    expect(response.headers.get('x-switchyard-hops')).toBe('1');
    expect(lastRequestMentioning(gpt, '/v1/chat/completions', 'np-c6').body).toMatchObject({ model: 'gpt-4o-mini' });
  });
});

/** What Codex sends to the Responses API: store false, the whole history as items with ids, encrypted reasoning, hosted tools. */
function codexBody(marker: string, extra: Json = {}): Json {
  return {
    model: 'openai/gpt-5',
    instructions: 'You are Codex.',
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'sandbox: workspace-write' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: `${marker} fix the build` }] },
      { type: 'reasoning', id: 'rs_prev1', summary: [{ type: 'summary_text', text: 'Check the logs.' }], encrypted_content: prevEncrypted },
      { type: 'function_call', id: 'fc_prev1', call_id: 'call_prev1', name: 'shell', arguments: '{"command":["ls"]}' },
      { type: 'function_call_output', id: 'fco_prev1', call_id: 'call_prev1', output: 'Makefile' },
    ],
    tools: [
      {
        type: 'function',
        name: 'shell',
        description: 'Runs a command',
        parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } },
        strict: false,
      },
      { type: 'web_search' },
      { type: 'local_shell' },
      { type: 'custom', name: 'apply_patch', description: 'Applies a patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'np-codex-session',
    text: { verbosity: 'low' },
    ...extra,
  };
}

describe('Responses → OpenAI: passed through natively', () => {
  const rows: readonly [string, Json][] = [
    ['a plain Codex request', codexBody('np-r1')],
    ['a streamed Codex request', codexBody('np-r2', { stream: true })],
    [
      'an Agents SDK request with a service tier, truncation and metadata',
      codexBody('np-r3', { service_tier: 'auto', truncation: 'auto', metadata: { run: 'np' }, store: true, include: [] }),
    ],
  ];

  it.each(rows)('forwards %s to /v1/responses unchanged but for its model', async (_name, body) => {
    const marker = JSON.stringify(body).match(/np-r\d/)?.[0] ?? '';
    if (body['stream'] === true) {
      const stream = await openai.responses.create(body as never);
      for await (const _event of stream as unknown as AsyncIterable<unknown>) {
        // drained
      }
    } else await openai.responses.create(body as never);
    const sent = lastRequestMentioning(gpt, '/v1/responses', marker);
    expect(sent.body).toEqual({ ...body, model: 'gpt-5' });
  });

  it('streams the events as they came (sequence numbers, reasoning items) and records the cached and reasoning tokens', async () => {
    const before = records.length;
    const stream = await openai.responses.create(codexBody('np-r4', { stream: true }) as never);
    const events: Json[] = [];
    for await (const event of stream as unknown as AsyncIterable<Json>) events.push(event);
    expect(events.map((event) => event['sequence_number'])).toEqual([0, 1, 2, 3, 4]);
    const completed = events.at(-1)?.['response'] as Json;
    expect(completed['usage']).toEqual(responsesUsage);
    expect((completed['output'] as Json[])[0]).toMatchObject({ type: 'reasoning', encrypted_content: npEncrypted });
    expect(records.slice(before)).toContainEqual(
      expect.objectContaining({ operation: 'stream', inputTokens: 2100, outputTokens: 50, cacheReadTokens: 1024, reasoningTokens: 20 }),
    );
  });

  it('carries reasoning across turns with store false: the encrypted reasoning item goes back in input verbatim', async () => {
    const first = await openai.responses.create(codexBody('np-r5') as never);
    const reasoning = first.output[0] as unknown as Json;
    expect(reasoning).toMatchObject({ type: 'reasoning', id: 'rs_np1', encrypted_content: npEncrypted });
    const next = codexBody('np-r5', {
      input: [
        ...(codexBody('np-r5')['input'] as Json[]),
        ...first.output,
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'np-r5b go on' }] },
      ],
    });
    const second = await openai.responses.create(next as never);
    expect(second.output_text).toBe('Hi.');
    expect((lastRequestMentioning(gpt, '/v1/responses', 'np-r5b').body as Json)['input']).toEqual(next['input']);
  });

  it("continues a stored response through previous_response_id: its items, reasoning included, go before the request's", async () => {
    const first = await openai.responses.create({ model: 'openai/gpt-5', input: 'np-r6 first', reasoning: { effort: 'low' } });
    const second = await openai.responses.create({ model: 'openai/gpt-5', input: 'np-r6b second', previous_response_id: first.id });
    expect(second.output_text).toBe('Hi.');
    const sent = lastRequestMentioning(gpt, '/v1/responses', 'np-r6b').body as Json;
    expect(sent).not.toHaveProperty('previous_response_id');
    expect(sent['input']).toEqual([
      { type: 'message', role: 'user', content: 'np-r6 first' },
      ...(first.output as unknown as Json[]),
      { type: 'message', role: 'user', content: 'np-r6b second' },
    ]);
    const stored = await openai.responses.retrieve(second.id);
    expect(stored.id).toBe(second.id);
  });

  it("answers an upstream refusal with OpenAI's own body and status", async () => {
    const body = codexBody('np-r7', {
      input: [
        { type: 'reasoning', id: 'rs_gone', summary: [] },
        { type: 'message', role: 'user', content: 'np-r7 hi' },
      ],
    });
    const refused = await openai.responses.create(body as never).catch((error: unknown) => error);
    // OpenAI answers an unknown (unstored) reasoning item with 404, passed on as it came.
    expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
    expect((refused as InstanceType<typeof OpenAI.NotFoundError>).message).toContain("Item with id 'rs_gone' not found");
  });
});
