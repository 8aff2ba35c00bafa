import { describe, expect, it } from 'vitest';
import { mapEventToRows } from '../../../src/analytics/map-event-to-rows.js';
import { validateEvent } from '../../../src/events/validate-event.js';
import { DeprecationNotice } from '../../../src/generation/deprecation-notice.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { RateLimitError } from '../../../src/generation/errors/provider-errors.js';
import { GenerationService } from '../../../src/generation/generation-service.js';
import type { LlmCallRecord } from '../../../src/generation/llm-call-record.js';
import { llmCallEventId, llmCallPayload, unattributedMerchant } from '../../../src/generation/publish-llm-calls.js';
import { createEvent } from '../../../src/events/event-envelope.js';
import { noTelemetry } from '../../../src/generation/telemetry.js';
import { ScriptedLanguageModel, scriptedCatalog } from '../../helpers/scripted-language-model.js';

function recordingService(catalog: ReturnType<typeof scriptedCatalog>, records: LlmCallRecord[], recorder?: (record: LlmCallRecord) => void) {
  let tick = 0;
  return new GenerationService({
    catalog,
    tools: async () => [],
    telemetry: () => noTelemetry,
    notice: new DeprecationNotice(() => undefined),
    evaluation: { timeoutMs: 1000 },
    priceOf: (model) => (model === 'gpt-4o-mini' ? { input: 0.00015, output: 0.0006 } : undefined),
    // Each reading advances 10 ms: latencies and time to first token are exact.
    clock: () => (tick += 10),
    recordCall: recorder ?? ((record) => records.push(record)),
  });
}

describe('LLM call records', () => {
  it('records each provider attempt of a fallback chain with its hop, outcome, error class and cost', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ error: new RateLimitError('slow down', 'openai', 20) }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'claude-3-haiku', [
      { text: 'hi', usage: { inputTokens: 1000, outputTokens: 500, totalTokens: 1500 } },
    ]);
    const records: LlmCallRecord[] = [];
    await recordingService(scriptedCatalog({ openai, anthropic }), records).generate({
      input: { text: 'hello' },
      attribution: { merchantId: 'm1', requestId: 'r1', surface: 'http' },
    });
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      operation: 'generate',
      outcome: 'error',
      errorClass: 'RateLimitError',
      fallbackHops: 0,
      inputTokens: 0,
      costUsd: 0,
    });
    expect(records[1]).toMatchObject({
      provider: 'anthropic',
      outcome: 'success',
      fallbackHops: 1,
      inputTokens: 1000,
      outputTokens: 500,
      attribution: { merchantId: 'm1', requestId: 'r1', surface: 'http' },
    });
    expect(records[1]?.errorClass).toBeUndefined();
    expect(records[1]?.latencyMs).toBeGreaterThan(0);
  });

  it('prices a record exactly, below the rounding of analytics.cost', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ text: 'x', usage: { inputTokens: 15, outputTokens: 2, totalTokens: 17 } }]);
    const records: LlmCallRecord[] = [];
    await recordingService(scriptedCatalog({ openai }), records).generate({ input: { text: 'x' } });
    expect(records[0]?.costUsd).toBeCloseTo((15 / 1000) * 0.00015 + (2 / 1000) * 0.0006, 12);
    expect(records[0]?.attribution).toEqual({ surface: 'library' });
  });

  it('records a stream once, at its end, with the time to its first chunk', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ chunks: ['a', 'b', 'c'] }]);
    const records: LlmCallRecord[] = [];
    const result = await recordingService(scriptedCatalog({ openai }), records).stream({
      input: { text: 'x' },
      attribution: { merchantId: 'm1', surface: 'sse' },
    });
    expect(records).toEqual([]);
    for await (const _ of result.stream) void _;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ operation: 'stream', outcome: 'success', attribution: { surface: 'sse' } });
    expect(records[0]?.timeToFirstTokenMs).toBeGreaterThan(0);
    expect(records[0]?.timeToFirstTokenMs).toBeLessThanOrEqual(records[0]!.latencyMs);
  });

  it('records a stream that fails after its first chunk as an error, with its time to first token', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [
      { chunks: ['a', 'b', 'c'], errorAfterChunks: 1, error: new RateLimitError('slow down', 'openai', 20) },
    ]);
    const records: LlmCallRecord[] = [];
    const result = await recordingService(scriptedCatalog({ openai }), records).stream({ input: { text: 'x' }, provider: 'openai' });
    await expect(async () => {
      for await (const _ of result.stream) void _;
    }).rejects.toThrow('slow down');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ operation: 'stream', outcome: 'error', errorClass: 'RateLimitError', fallbackHops: 0 });
    expect(records[0]?.timeToFirstTokenMs).toBeGreaterThan(0);
  });

  it('records a stream its consumer leaves early as cancelled', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ chunks: ['a', 'b', 'c'] }]);
    const records: LlmCallRecord[] = [];
    const result = await recordingService(scriptedCatalog({ openai }), records).stream({
      input: { text: 'x' },
      attribution: { merchantId: 'm1', surface: 'sse' },
    });
    for await (const _ of result.stream) break;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ operation: 'stream', outcome: 'error', errorClass: 'Cancelled', attribution: { merchantId: 'm1' } });
    expect(records[0]?.timeToFirstTokenMs).toBeGreaterThan(0);
  });

  it('records the failed opening of a stream and the provider that took over, one hop later', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ error: new RateLimitError('slow down', 'openai', 20) }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'claude-3-haiku', [{ chunks: ['h', 'i'] }]);
    const records: LlmCallRecord[] = [];
    const result = await recordingService(scriptedCatalog({ openai, anthropic }), records).stream({ input: { text: 'x' } });
    for await (const _ of result.stream) void _;
    expect(records.map((r) => [r.provider, r.operation, r.outcome, r.fallbackHops])).toEqual([
      ['openai', 'stream', 'error', 0],
      ['anthropic', 'stream', 'success', 1],
    ]);
    // The failed opening never produced a chunk: it has no time to first token.
    expect(records[0]?.timeToFirstTokenMs).toBeUndefined();
    expect(records[1]?.timeToFirstTokenMs).toBeGreaterThan(0);
  });

  it('never fails a stream because the recorder throws', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ chunks: ['still ', 'here'] }]);
    const told: unknown[] = [];
    const service = new GenerationService({
      catalog: scriptedCatalog({ openai }),
      tools: async () => [],
      telemetry: () => noTelemetry,
      notice: new DeprecationNotice(() => undefined),
      evaluation: { timeoutMs: 1000 },
      recordCall: () => {
        throw new Error('bus exploded');
      },
      onRecorderError: (error) => told.push(error),
    });
    const result = await service.stream({ input: { text: 'x' } });
    let text = '';
    for await (const chunk of result.stream) text += chunk.content;
    expect(text).toBe('still here');
    expect(told).toEqual([expect.objectContaining({ message: 'bus exploded' })]);
  });

  it('records the evaluation judge as its own call', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [
      { text: 'four' },
      { text: '{"relevance":9,"accuracy":9,"completeness":9,"overall":9,"reasoning":"fine"}' },
    ]);
    const records: LlmCallRecord[] = [];
    const result = await recordingService(scriptedCatalog({ openai }), records).generate({ input: { text: '2+2?' }, enableEvaluation: true });
    expect(result.evaluation?.overall).toBe(9);
    expect(records.map((record) => record.operation)).toEqual(['generate', 'evaluation']);
  });

  it('never fails a call because the recorder throws', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ text: 'still here' }]);
    const result = await recordingService(scriptedCatalog({ openai }), [], () => {
      throw new Error('bus exploded');
    }).generate({ input: { text: 'x' } });
    expect(result.content).toBe('still here');
  });

  it('becomes a valid llm.call event without text, and a row of analytics_llm_calls', () => {
    const record: LlmCallRecord = {
      provider: 'openai',
      model: 'gpt-4o-mini',
      operation: 'stream',
      inputTokens: 3,
      outputTokens: 4,
      costUsd: 0.000002,
      latencyMs: 120,
      timeToFirstTokenMs: 30,
      outcome: 'error',
      errorClass: 'TimeoutError',
      fallbackHops: 1,
      attribution: { userId: 'u1', surface: 'websocket' },
    };
    const event = createEvent('llm.call', unattributedMerchant, llmCallPayload(record), 1_700_000_000_000);
    expect(() => validateEvent(event)).not.toThrow();
    expect(mapEventToRows(event).llm).toEqual([
      expect.objectContaining({
        merchant_id: '_unattributed',
        provider: 'openai',
        operation: 'stream',
        surface: 'websocket',
        ttft_ms: 30,
        has_ttft: 1,
        outcome: 'error',
        error_class: 'TimeoutError',
        fallback_hops: 1,
        user_id: 'u1',
        batch_id: '',
      }),
    ]);
  });

  it('prices prompt-cache reads and writes at the registry prices and records the usage and what caching saved', async () => {
    const sonnet = { input: 0.003, output: 0.015, cacheRead: 0.0003, cacheWrite: 0.00375, cacheWrite1h: 0.006 };
    const usage = { inputTokens: 10_000, outputTokens: 200, totalTokens: 10_200, cacheReadTokens: 8_000, cacheWriteTokens: 1_000, reasoningTokens: 50 };
    const anthropic = new ScriptedLanguageModel('anthropic', 'claude-sonnet-4', [{ text: 'x', usage }]);
    const records: LlmCallRecord[] = [];
    await new GenerationService({
      catalog: scriptedCatalog({ anthropic }),
      tools: async () => [],
      telemetry: () => noTelemetry,
      notice: new DeprecationNotice(() => undefined),
      evaluation: { timeoutMs: 1000 },
      priceOf: (model) => (model === 'claude-sonnet-4' ? sonnet : undefined),
      clock: () => 0,
      recordCall: (record) => records.push(record),
    }).generate({ input: { text: 'x' }, provider: 'anthropic' });
    const record = records[0];
    expect(record).toMatchObject({ inputTokens: 10_000, outputTokens: 200, cacheReadTokens: 8_000, cacheWriteTokens: 1_000, reasoningTokens: 50 });
    expect(record?.cacheWrite1hTokens).toBeUndefined();
    expect(record?.costUsd).toBeCloseTo((1_000 * 3 + 8_000 * 0.3 + 1_000 * 3.75 + 200 * 15) / 1e6, 12);
    expect(record?.promptCacheSavedUsd).toBeCloseTo((8_000 * 2.7 - 1_000 * 0.75) / 1e6, 12);

    const event = createEvent('llm.call', 'm1', llmCallPayload(record as LlmCallRecord), 1_700_000_000_000);
    expect(() => validateEvent(event)).not.toThrow();
    expect(event.payload).toMatchObject({ cacheReadTokens: 8_000, cacheWriteTokens: 1_000, cacheWrite1hTokens: null, reasoningTokens: 50 });
    expect(mapEventToRows(event).llm[0]).toMatchObject({
      cache_read_tokens: 8_000,
      cache_write_tokens: 1_000,
      cache_write_1h_tokens: 0,
      reasoning_tokens: 50,
      prompt_cache_saved_usd: record?.promptCacheSavedUsd,
    });
  });

  it('keeps an llm.call event of an older publisher (no cache or reasoning fields) valid, read as no cache use', () => {
    const record: LlmCallRecord = {
      provider: 'openai',
      model: 'gpt-4o',
      operation: 'generate',
      inputTokens: 10,
      outputTokens: 1,
      costUsd: 0.00001,
      latencyMs: 5,
      outcome: 'success',
      fallbackHops: 0,
      attribution: { merchantId: 'm1', surface: 'gateway', apiKeyId: 'key_1' },
    };
    const { cacheReadTokens, cacheWriteTokens, cacheWrite1hTokens, reasoningTokens, promptCacheSavedUsd, ...older } = llmCallPayload(record);
    expect([cacheReadTokens, cacheWriteTokens, cacheWrite1hTokens, reasoningTokens, promptCacheSavedUsd]).toEqual([null, null, null, null, null]);
    const event = createEvent('llm.call', 'm1', older, 1_700_000_000_000);
    expect(() => validateEvent(event)).not.toThrow();
    expect(mapEventToRows(event).llm[0]).toMatchObject({
      api_key_id: 'key_1',
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      cache_write_1h_tokens: 0,
      reasoning_tokens: 0,
      prompt_cache_saved_usd: 0,
    });
  });

  it("carries a routed request's decision (group, approach, eliminated candidates) into the event and its row", () => {
    const routed: LlmCallRecord = {
      provider: 'openai',
      model: 'steady',
      operation: 'generate',
      inputTokens: 1,
      outputTokens: 1,
      costUsd: 0,
      latencyMs: 5,
      outcome: 'success',
      fallbackHops: 0,
      attribution: { merchantId: 'm1', surface: 'gateway', routeGroup: 'chat', routeApproach: 'sr_downtime', eliminatedCandidates: ['openai/flaky'] },
    };
    const event = createEvent('llm.call', 'm1', llmCallPayload(routed), 1_700_000_000_000);
    expect(() => validateEvent(event)).not.toThrow();
    expect(event.payload).toMatchObject({ routeGroup: 'chat', routeApproach: 'sr_downtime', eliminatedCandidates: ['openai/flaky'] });
    expect(mapEventToRows(event).llm[0]).toMatchObject({ route_group: 'chat', route_approach: 'sr_downtime', eliminated_candidates: ['openai/flaky'] });
    const direct = createEvent('llm.call', 'm1', llmCallPayload({ ...routed, attribution: { merchantId: 'm1', surface: 'gateway' } }), 1_700_000_000_000);
    expect(direct.payload).toMatchObject({ routeGroup: null, routeApproach: null, eliminatedCandidates: null });
    expect(mapEventToRows(direct).llm[0]).toMatchObject({ route_group: '', route_approach: '', eliminated_candidates: [] });
  });

  it("derives a batch job's failed attempt's event id from the job and attempt; each successful call is its own record", () => {
    const batchId = '0b8f9f4e-3c1a-4c55-9a51-6f2f4a9b1c2d';
    const record = (outcome: 'success' | 'error'): LlmCallRecord => ({
      provider: 'openai',
      model: 'm',
      operation: 'generate',
      inputTokens: 1,
      outputTokens: 1,
      costUsd: 0,
      latencyMs: 1,
      outcome,
      fallbackHops: 0,
      attribution: { batchId, jobId: `${batchId}:3`, surface: 'batch' },
    });
    // A job that called twice (its worker killed before the answer was stored) spent twice: two records.
    expect(llmCallEventId(record('success'), 1)).not.toBe(llmCallEventId(record('success'), 1));
    expect(llmCallEventId(record('success'), 1)).not.toBe(llmCallEventId(record('error'), 1));
    const failedAttempt = (attempt: number): LlmCallRecord => ({ ...record('error'), attribution: { ...record('error').attribution, jobAttempt: attempt } });
    expect(llmCallEventId(failedAttempt(1), 1)).not.toBe(llmCallEventId(failedAttempt(2), 1));
    expect(llmCallEventId(failedAttempt(2), 1)).toBe(llmCallEventId(failedAttempt(2), 5));
    const plain: LlmCallRecord = { ...record('success'), attribution: { surface: 'http' } };
    expect(llmCallEventId(plain, 1)).not.toBe(llmCallEventId(plain, 1));
  });

  it('counts an AIProviderError without a known code as AIProviderError', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ error: new AIProviderError('bad gateway', 'openai', { statusCode: 400 }) }]);
    const records: LlmCallRecord[] = [];
    await expect(recordingService(scriptedCatalog({ openai }), records).generate({ input: { text: 'x' }, provider: 'openai' })).rejects.toThrow('bad gateway');
    expect(records[0]).toMatchObject({ outcome: 'error', errorClass: 'AIProviderError' });
  });
});
