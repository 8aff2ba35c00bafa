import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadDefaultModelRegistry, type NeuroLink, TimeoutError } from '../../../src/index.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream, chatError } from '../../fixtures/providers/openai-wire.js';

/**
 * The real NeuroLink, real provider adapters and real AI SDK against local fakes speaking the
 * OpenAI Chat Completions wire format: tools, streaming, fallback and evaluation end to end.
 */

interface ChatBody {
  readonly model: string;
  readonly stream?: boolean;
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? '').join('');
  return '';
}

/** Answers like OpenAI would for the scenarios below, chosen from what the request carries. */
function openAiLike(request: RecordedRequest) {
  const body = request.body as ChatBody;
  const lastUser = textOf([...body.messages].reverse().find((message) => message.role === 'user')?.content);
  if (lastUser.includes('grading an AI assistant')) {
    return chatCompletion({
      model: body.model,
      content: '{"relevance": 9, "accuracy": 10, "completeness": 8, "overall": 9, "isOffTopic": false, "reasoning": "The arithmetic is right."}',
    });
  }
  if (lastUser.includes('hang')) return new Promise<never>(() => undefined);
  if (body.stream === true)
    return chatCompletionStream({ model: body.model, deltas: ['Streams ', 'flow ', 'downhill.'], usage: { promptTokens: 9, completionTokens: 3 } });
  const toolMessage = body.messages.find((message) => message.role === 'tool');
  if (toolMessage !== undefined)
    return chatCompletion({ model: body.model, content: `The result is ${textOf(toolMessage.content)}`, usage: { promptTokens: 40, completionTokens: 6 } });
  const offered = body.tools?.map((tool) => tool.function.name) ?? [];
  if (lastUser.includes('calculate') && offered.includes('calculateMath')) {
    return chatCompletion({ model: body.model, toolCalls: [{ id: 'call_c1', name: 'calculateMath', arguments: { expression: '(2 + 3) * 4' } }] });
  }
  if (lastUser.includes('add up') && offered.includes('add')) {
    return chatCompletion({ model: body.model, toolCalls: [{ id: 'call_a1', name: 'add', arguments: { a: 2, b: 3 } }] });
  }
  if (lastUser.includes('multiply') && offered.includes('multiply')) {
    return chatCompletion({
      model: body.model,
      toolCalls: [{ id: 'call_m1', name: 'multiply', arguments: { a: 6, b: 7 } }],
      usage: { promptTokens: 30, completionTokens: 10 },
    });
  }
  return chatCompletion({ model: body.model, content: 'Four.', usage: { promptTokens: 15, completionTokens: 150 } });
}

let primary: FakeHttpServer;
let secondary: FakeHttpServer;
let workDir: string;

beforeAll(async () => {
  primary = await startFakeHttpServer(openAiLike);
  secondary = await startFakeHttpServer(openAiLike);
  workDir = mkdtempSync(join(tmpdir(), 'neurolink-fake-'));
});

afterAll(async () => {
  await primary.close();
  await secondary.close();
  rmSync(workDir, { recursive: true, force: true });
});

function toolkit(extraEnv: Record<string, string> = {}): NeuroLink {
  return new DefaultNeuroLink({
    cwd: workDir,
    env: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: `${primary.url}/v1`, ...extraEnv },
    warn: () => undefined,
  });
}

describe('NeuroLink against an OpenAI-wire fake', () => {
  it('generates with a tool call round trip, analytics and usage', async () => {
    const neurolink = toolkit();
    neurolink.registerTool('multiply', {
      description: 'multiplies two numbers a and b',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }: { a: number; b: number }) => ({ product: a * b }),
    });
    const before = primary.requests.length;
    const result = await neurolink.generate({ input: { text: 'Please multiply 6 by 7' }, enableAnalytics: true, context: { userId: 'u1' } });
    expect(result.provider).toBe('openai');
    expect(result.model).toBe('gpt-4o-mini');
    expect(result.content).toMatch(/The result is .*42/);
    expect(result.toolsUsed).toEqual(['multiply']);
    expect(result.toolExecutions[0]).toMatchObject({ name: 'multiply', input: { a: 6, b: 7 }, output: { product: 42 } });
    expect(result.usage).toMatchObject({ promptTokens: 70, completionTokens: 16, inputTokens: 70, outputTokens: 16, totalTokens: 86 });
    expect(result.analytics).toMatchObject({ provider: 'openai', tokens: { input: 70, output: 16, total: 86 }, context: { userId: 'u1' } });
    const pricing = loadDefaultModelRegistry(workDir).getModelConfig('gpt-4o-mini')?.pricing ?? { input: 0.00015, output: 0.0006 };
    expect(result.analytics?.cost).toBe(Math.round(((70 / 1000) * pricing.input + (16 / 1000) * pricing.output) * 100_000) / 100_000);
    const sent = primary.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.headers.authorization).toBe('Bearer sk-test-fake');
    const firstBody = sent[0]?.body as ChatBody & { temperature: number; max_completion_tokens?: number; max_tokens?: number };
    expect(firstBody.temperature).toBe(0.7);
    expect(firstBody.tools?.map((tool) => tool.function.name)).toContain('multiply');
  });

  it('offers the six built-in tools and runs calculateMath', async () => {
    const before = primary.requests.length;
    const result = await toolkit().generate({ input: { text: 'Please calculate (2 + 3) * 4' } });
    const offered = ((primary.requests[before]!.body as ChatBody).tools ?? []).map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(['getCurrentTime', 'readFile', 'listDirectory', 'calculateMath', 'writeFile', 'searchFiles']));
    expect(result.toolsUsed).toEqual(['calculateMath']);
    expect(result.toolExecutions[0]).toMatchObject({ name: 'calculateMath', input: { expression: '(2 + 3) * 4' }, success: true });
    expect(result.content).toContain('20');
  });

  it('sends no tools with disableTools', async () => {
    const before = primary.requests.length;
    await toolkit().generate({ input: { text: 'What is 2+2?' }, disableTools: true });
    expect((primary.requests[before]!.body as ChatBody).tools).toBeUndefined();
  });

  it('streams chunks and reports usage at the end', async () => {
    const result = await toolkit().stream({ input: { text: 'Say something about streams' } });
    const chunks: string[] = [];
    for await (const chunk of result.stream) chunks.push(chunk.content);
    expect(chunks.join('')).toBe('Streams flow downhill.');
    expect(result.metadata.totalChunks).toBe(chunks.length);
    expect(await result.usage).toMatchObject({ promptTokens: 9, completionTokens: 3, totalTokens: 12 });
    expect(await result.finishReason).toBe('stop');
  });

  it('falls back from a 503 provider to the next configured one', async () => {
    const failing = await startFakeHttpServer(() => chatError('overloaded'));
    try {
      const neurolink = new DefaultNeuroLink({
        cwd: workDir,
        env: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: `${failing.url}/v1`, LITELLM_BASE_URL: secondary.url },
        warn: () => undefined,
      });
      const before = secondary.requests.length;
      const result = await neurolink.generate({ input: { text: 'What is 2+2?' }, disableTools: true });
      expect(result.provider).toBe('litellm');
      expect(result.content).toBe('Four.');
      expect(result.attempts).toEqual([expect.objectContaining({ provider: 'openai', errorCode: 'PROVIDER_ERROR' })]);
      expect(failing.requests).toHaveLength(1);
      expect(secondary.requests.length - before).toBe(1);
    } finally {
      await failing.close();
    }
  });

  it('does not fall back on a 400 from the provider', async () => {
    const failing = await startFakeHttpServer(() => chatError('bad-request'));
    try {
      const neurolink = new DefaultNeuroLink({
        cwd: workDir,
        env: { OPENAI_API_KEY: 'sk', OPENAI_BASE_URL: `${failing.url}/v1`, LITELLM_BASE_URL: secondary.url },
        warn: () => undefined,
      });
      const before = secondary.requests.length;
      await expect(neurolink.generate({ input: { text: 'x' }, disableTools: true })).rejects.toMatchObject({ statusCode: 400, isRetryable: false });
      expect(secondary.requests.length).toBe(before);
    } finally {
      await failing.close();
    }
  });

  it('times out a provider that never answers', async () => {
    const error = await toolkit()
      .generate({ input: { text: 'please hang' }, disableTools: true, timeout: '200ms', provider: 'openai' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 200, provider: 'openai' });
  });

  it('offers the tools of an added MCP server and runs them', async () => {
    const neurolink = toolkit();
    try {
      await neurolink.addMCPServer('echo', { command: process.execPath, args: [fileURLToPath(new URL('../../fixtures/mcp/echo-server.ts', import.meta.url))] });
      expect(neurolink.getMCPStatus()).toMatchObject({ totalServers: 1, availableServers: 1 });
      expect(neurolink.getMCPStatus().totalTools).toBeGreaterThan(0);
      const result = await neurolink.generate({ input: { text: 'Please add up 2 and 3' } });
      expect(result.toolsUsed).toEqual(['add']);
      expect(result.content).toContain('5');
      expect((await neurolink.getAllAvailableTools()).some((tool) => tool.name === 'add' && tool.category === 'mcp')).toBe(true);
      await neurolink.removeMCPServer('echo');
      expect(neurolink.getMCPStatus().totalServers).toBe(0);
    } finally {
      await neurolink.close();
    }
  });

  it('evaluates the answer with a judge served by the fake', async () => {
    const result = await toolkit({ NEUROLINK_EVALUATION_PROVIDER: 'openai', NEUROLINK_EVALUATION_MODEL: 'gpt-4o-judge' }).generate({
      input: { text: 'What is 2+2?' },
      disableTools: true,
      enableEvaluation: true,
    });
    expect(result.content).toBe('Four.');
    expect(result.evaluation).toMatchObject({
      relevanceScore: 9,
      accuracyScore: 10,
      completenessScore: 8,
      overallScore: 9,
      alertLevel: 'none',
      alertSeverity: 'none',
      reasoning: 'The arithmetic is right.',
      evaluationModel: 'openai/gpt-4o-judge',
    });
    const judgeRequest = primary.requests.at(-1)?.body as ChatBody;
    expect(judgeRequest.model).toBe('gpt-4o-judge');
  });
});
