import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { AIProviderError, TimeoutError } from '../../../src/index.js';
import { type FakeHttpServer, type RecordedRequest, startFakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../../fixtures/providers/openai-wire.js';

/*
 * Issue 26, interface leftovers of the library, over the real OpenAI adapter and a local fake
 * speaking OpenAI's wire: the provider-side timeout carries the call's timeout, `output.format`
 * json works without a schema, and the evaluation holds the answer to a minimum passing score.
 */

interface ChatBody {
  readonly model: string;
  readonly stream?: boolean;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

function lastUserText(request: RecordedRequest): string {
  const body = request.body as ChatBody;
  const last = [...body.messages].reverse().find((message) => message.role === 'user');
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
}

function systemText(request: RecordedRequest): string {
  const body = request.body as ChatBody;
  return body.messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => String(message.content))
    .join('\n');
}

function answer(request: RecordedRequest) {
  const body = request.body as ChatBody;
  const text = lastUserText(request);
  if (text.includes('slow upstream')) {
    return { status: 408, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'Request timed out', type: 'timeout' } }) };
  }
  if (text.includes("You are grading an AI assistant's answer")) {
    const overall = text.includes('mediocre') ? 5 : 9;
    return chatCompletion({
      model: body.model,
      content: JSON.stringify({ relevance: overall, accuracy: overall, completeness: overall, overall, isOffTopic: false, reasoning: 'graded' }),
    });
  }
  const wantsJson = systemText(request).includes('JSON');
  const content = text.includes('prose please') ? 'Sure, here it is.' : wantsJson ? '```json\n{"city":"Paris","population":2100000}\n```' : 'Paris.';
  if (body.stream === true)
    return chatCompletionStream({ model: body.model, deltas: [content.slice(0, 5), content.slice(5)], usage: { promptTokens: 5, completionTokens: 5 } });
  return chatCompletion({ model: body.model, content, usage: { promptTokens: 5, completionTokens: 5 } });
}

let provider: FakeHttpServer;
const workDir = mkdtempSync(join(tmpdir(), 'toolkit-leftovers-'));

beforeAll(async () => {
  provider = await startFakeHttpServer(answer);
});
afterAll(async () => {
  await provider.close();
  rmSync(workDir, { recursive: true, force: true });
});

function toolkit(extraEnv: Record<string, string> = {}) {
  return new DefaultNeuroLink({
    cwd: workDir,
    env: { OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${provider.url}/v1`, ...extraEnv },
    builtInTools: [],
  });
}

describe('TimeoutError.timeout for provider-side timeouts', () => {
  it('carries the timeout the call was given when the provider answers 408', async () => {
    const error = await toolkit()
      .generate({ input: { text: 'slow upstream' }, provider: 'openai', timeout: '45s' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeout).toBe(45_000);
    expect((error as TimeoutError).operation).toBe('generate');
    expect((error as TimeoutError).message).toMatch(/408.*45000 ms/);
  });

  it('stays 0 when no timeout was configured (the provider gave up on its own)', async () => {
    const error = await toolkit()
      .generate({ input: { text: 'slow upstream' }, provider: 'openai' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeout).toBe(0);
  });
});

describe('output.format without a schema', () => {
  it('json: tells the model to answer in JSON and returns the parsed object', async () => {
    const before = provider.requests.length;
    const result = await toolkit().generate({ input: { text: 'capital of France as JSON' }, provider: 'openai', output: { format: 'json' } });
    expect(result.object).toEqual({ city: 'Paris', population: 2_100_000 });
    expect(systemText(provider.requests[before] as RecordedRequest)).toContain('Answer with one valid JSON value');
  });

  it('json on a stream: the parsed object arrives with the final result', async () => {
    const result = await toolkit().stream({ input: { text: 'capital of France as JSON' }, provider: 'openai', output: { format: 'json' } });
    let text = '';
    for await (const chunk of result.stream) text += chunk.content;
    expect(text).toContain('"city":"Paris"');
    const final = await result.final;
    expect(final.object).toEqual({ city: 'Paris', population: 2_100_000 });
  });

  it('json: an answer that is not JSON is a clear, non-retryable error', async () => {
    const error = await toolkit()
      .generate({ input: { text: 'prose please' }, provider: 'openai', output: { format: 'json' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AIProviderError);
    expect((error as AIProviderError).message).toMatch(/not JSON although output.format asks for JSON/);
    expect((error as AIProviderError).isRetryable).toBe(false);
  });

  it('text: no JSON instruction and no object', async () => {
    const before = provider.requests.length;
    const result = await toolkit().generate({ input: { text: 'capital of France' }, provider: 'openai', output: { format: 'text' } });
    expect(result.content).toBe('Paris.');
    expect(result.object).toBeUndefined();
    expect(systemText(provider.requests[before] as RecordedRequest)).not.toContain('JSON');
  });
});

describe('evaluation minimum passing score', () => {
  it('passes at the default threshold of 7 and says so', async () => {
    const result = await toolkit().generate({ input: { text: 'capital of France' }, provider: 'openai', enableEvaluation: true });
    expect(result.evaluation).toMatchObject({ overallScore: 9, threshold: 7, passed: true });
  });

  it('fails below NEUROLINK_EVALUATION_THRESHOLD', async () => {
    const result = await toolkit({ NEUROLINK_EVALUATION_THRESHOLD: '6' }).generate({
      input: { text: 'a mediocre question' },
      provider: 'openai',
      enableEvaluation: true,
    });
    expect(result.evaluation).toMatchObject({ overallScore: 5, threshold: 6, passed: false });
  });

  it('takes a per-call evaluation.threshold over the environment', async () => {
    const result = await toolkit({ NEUROLINK_EVALUATION_THRESHOLD: '6' }).generate({
      input: { text: 'a mediocre question' },
      provider: 'openai',
      enableEvaluation: true,
      evaluation: { threshold: 4.5 },
    });
    expect(result.evaluation).toMatchObject({ overallScore: 5, threshold: 4.5, passed: true });
  });

  it('rejects a threshold outside 1..10 before any call, naming the option or variable', async () => {
    const before = provider.requests.length;
    await expect(toolkit().generate({ input: { text: 'x' }, provider: 'openai', enableEvaluation: true, evaluation: { threshold: 11 } })).rejects.toMatchObject(
      {
        option: 'evaluation.threshold',
      },
    );
    expect(() => toolkit({ NEUROLINK_EVALUATION_THRESHOLD: 'high' })).toThrow(/NEUROLINK_EVALUATION_THRESHOLD="high"/);
    expect(provider.requests.length).toBe(before);
  });
});
