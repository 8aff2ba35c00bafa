import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicEchoUpstream } from '../fixtures/providers/anthropic-echo-upstream.js';
import { anthropicMessage } from '../fixtures/providers/anthropic-wire.js';
import { type FakeHttpServer, startFakeHttpServer } from '../fixtures/providers/fake-http-server.js';
import { createOpenAiEchoUpstream } from '../fixtures/providers/openai-echo-upstream.js';

/**
 * The upstream fakes refuse what the real providers refuse and answer, through the echo upstreams,
 * in a shape the official SDKs read (issue 34 point 6): driven by `@anthropic-ai/sdk` and `openai`
 * straight against the fakes, no gateway in between.
 */

let claude: FakeHttpServer;
let gpt: FakeHttpServer;
let anthropic: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  claude = await startFakeHttpServer(createAnthropicEchoUpstream().handler);
  gpt = await startFakeHttpServer(createOpenAiEchoUpstream().handler);
  anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: claude.url, maxRetries: 0 });
  openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${gpt.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await claude.close();
  await gpt.close();
});

const weatherTool: Anthropic.Tool = { name: 'get_weather', description: 'weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const thinking = { type: 'enabled', budget_tokens: 2048 } as const;

describe('the fake server applies the provider rules before the handler', () => {
  it('refuses thinking with temperature 0.7 without calling the handler, and still records the request', async () => {
    let called = 0;
    const fake = await startFakeHttpServer(() => {
      called += 1;
      return anthropicMessage([{ type: 'text', text: 'hi' }]);
    });
    try {
      const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 0 });
      const refused = await client.messages
        .create({
          model: 'claude-sonnet-4-5',
          max_tokens: 4096,
          thinking,
          temperature: 0.7,
          messages: [{ role: 'user', content: 'rule-1' }],
        } as Anthropic.MessageCreateParamsNonStreaming)
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect((refused as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringContaining('`temperature` may only be set to 1') },
      });
      expect(called).toBe(0);
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]?.body).toMatchObject({ temperature: 0.7 });
    } finally {
      await fake.close();
    }
  });

  it('lets a lenient fake (rules: none) pass the same request to its handler', async () => {
    const fake = await startFakeHttpServer(() => anthropicMessage([{ type: 'text', text: 'lenient' }]), { rules: 'none' });
    try {
      const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 0 });
      const message = await client.messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 4096,
        thinking,
        temperature: 0.7,
        messages: [{ role: 'user', content: 'x' }],
      } as Anthropic.MessageCreateParamsNonStreaming);
      expect(message.content).toEqual([{ type: 'text', text: 'lenient' }]);
    } finally {
      await fake.close();
    }
  });
});

describe('anthropic echo upstream', () => {
  it.each([false, true])('runs a two-turn tool cycle with thinking when the thinking block goes back verbatim (stream %s)', async (stream) => {
    const question: Anthropic.MessageParam = { role: 'user', content: `echo-tool-${stream} weather in Paris?` };
    const request = { model: 'claude-sonnet-4-5', max_tokens: 4096, thinking, tools: [weatherTool], messages: [question] };
    const first = stream ? await anthropic.messages.stream(request).finalMessage() : await anthropic.messages.create(request);
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const toolUse = first.content[1] as Anthropic.ToolUseBlock;
    const result: Anthropic.MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'sunny' }] };
    const second = await anthropic.messages.create({ ...request, messages: [question, { role: 'assistant', content: first.content }, result] });
    expect(second.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(second.content[1]).toMatchObject({ type: 'text', text: `echo: echo-tool-${stream} weather in Paris?` });

    const withoutThinking = await anthropic.messages
      .create({ ...request, messages: [question, { role: 'assistant', content: [toolUse] }, result] })
      .catch((error: unknown) => error);
    expect(withoutThinking).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((withoutThinking as Error).message)).toContain('Expected `thinking` or `redacted_thinking`, but found `tool_use`');

    const thought = first.content[0] as Anthropic.ThinkingBlock;
    const edited = await anthropic.messages
      .create({ ...request, messages: [question, { role: 'assistant', content: [{ ...thought, thinking: `${thought.thinking} (edited)` }, toolUse] }, result] })
      .catch((error: unknown) => error);
    expect(String((edited as Error).message)).toContain('messages.1.content.0: Invalid `signature` in `thinking` block');
  });

  it.each([false, true])('reports a cache write, then a cache read of a marked system prompt (stream %s)', async (stream) => {
    const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: `cache-${stream} ${'policy '.repeat(800)}`, cache_control: { type: 'ephemeral' } }];
    const call = async (question: string) => {
      const request = { model: 'claude-sonnet-4-5', max_tokens: 256, system, messages: [{ role: 'user' as const, content: question }] };
      return (stream ? await anthropic.messages.stream(request).finalMessage() : await anthropic.messages.create(request)).usage;
    };
    const first = await call('one');
    expect(first.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation).toEqual({ ephemeral_5m_input_tokens: first.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 });
    const second = await call('two');
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBe(0);
    expect(second.input_tokens).toBeLessThan(10);
  });

  it('counts tokens for count_tokens', async () => {
    const counted = await anthropic.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'x'.repeat(400) }] });
    expect(counted.input_tokens).toBeGreaterThanOrEqual(100);
  });
});

describe('openai echo upstream', () => {
  it('returns an encrypted reasoning item with store false, accepts it back, and refuses it without its encrypted_content', async () => {
    const request = {
      model: 'gpt-5',
      store: false,
      include: ['reasoning.encrypted_content' as const],
      reasoning: { effort: 'low' as const, summary: 'auto' as const },
    };
    const first = await openai.responses.stream({ ...request, input: 'echo-reasoning hello' }).finalResponse();
    const reasoning = first.output[0] as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning).toMatchObject({ type: 'reasoning', id: expect.stringMatching(/^rs_/), encrypted_content: expect.any(String) });
    expect(reasoning.summary[0]?.text).toContain('echo-reasoning hello');
    expect(first.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);

    const history: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'echo-reasoning hello' },
      reasoning,
      { role: 'user', content: 'and then?' },
    ];
    const second = await openai.responses.create({ ...request, input: history });
    expect(second.output_text).toBe('echo: and then?');

    const { encrypted_content: _dropped, ...bare } = reasoning;
    const refused = await openai.responses
      .create({ ...request, input: [history[0] as OpenAI.Responses.ResponseInputItem, bare] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
    expect((refused as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      param: 'input',
      message: expect.stringContaining('Items are not persisted when `store` is set to false'),
    });
  });

  it('accepts a reasoning item without encrypted_content when the fake stored it (store left on)', async () => {
    const first = await openai.responses.create({ model: 'o4-mini', input: 'stored' });
    const reasoning = first.output[0] as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.encrypted_content ?? undefined).toBeUndefined();
    const second = await openai.responses.create({
      model: 'o4-mini',
      input: [{ role: 'user', content: 'stored' }, reasoning, { role: 'user', content: 'next' }],
    });
    expect(second.status).toBe('completed');
  });

  it('refuses max_tokens and temperature 0.7 for a reasoning model on chat completions, and reports cached tokens on a repeated long prompt', async () => {
    const maxTokens = await openai.chat.completions
      .create({ model: 'o4-mini', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(maxTokens).toBeInstanceOf(OpenAI.BadRequestError);
    expect((maxTokens as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('unsupported_parameter');
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'rules '.repeat(1000) },
      { role: 'user', content: 'question' },
    ];
    const first = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, prompt_cache_key: 'echo-chat' });
    expect(first.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const second = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      prompt_cache_key: 'echo-chat',
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of second) usage = chunk.usage ?? usage;
    expect(usage?.prompt_tokens).toBe(first.usage?.prompt_tokens);
    expect(usage?.prompt_tokens_details?.cached_tokens).toBeGreaterThanOrEqual(1024);
  });

  it('calls the offered function tool, then answers the tool result with text', async () => {
    const tools: OpenAI.Responses.FunctionTool[] = [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} }, strict: false }];
    const first = await openai.responses.create({ model: 'gpt-4.1', input: 'find it', tools });
    const call = first.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call).toMatchObject({ type: 'function_call', name: 'lookup' });
    const second = await openai.responses.create({
      model: 'gpt-4.1',
      tools,
      input: [{ role: 'user', content: 'find it' }, call, { type: 'function_call_output', call_id: call.call_id, output: 'found' }],
    });
    expect(second.output_text).toBe('echo: find it');
  });
});
