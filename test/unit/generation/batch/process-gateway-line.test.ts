import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStateStore } from '../../../../src/adapters/memory/memory-state-store.js';
import { batchJobId, type BatchItemJob } from '../../../../src/generation/batch/batch-queue.js';
import type { GatewayLineAnswer, GatewayLineCall } from '../../../../src/generation/batch/gateway-line.js';
import { createGatewayLineProcessor } from '../../../../src/generation/batch/process-gateway-line.js';
import { silentLogger } from '../../../../src/logging/logger.js';
import type { QueuedJob } from '../../../../src/ports/job-queue.js';
import type { BatchRecord } from '../../../../src/ports/state/batch-store.js';
import type { StateStore } from '../../../../src/ports/state-store.js';
import { createManualClock } from '../../../../src/time/clock.js';

const record: BatchRecord = {
  batchId: 'batch_unit',
  merchantId: 'shop-1',
  apiKeyId: 'key-1',
  createdAt: 1_700_000_000_000,
  total: 2,
  options: { provider: 'openai', timeoutMs: 1000 },
  maxAttempts: 3,
  openAi: { endpoint: '/v1/chat/completions', inputFileId: 'file-in', completionWindow: '24h', expiresAtMs: 1_700_086_400_000 },
};

const line = (customId: string) =>
  JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: [] } });

function job(index: number, attempt: number, maxAttempts = 3): QueuedJob<BatchItemJob> {
  return { id: batchJobId(record.batchId, index), data: { batchId: record.batchId, index }, attempt, maxAttempts };
}

const ok: GatewayLineAnswer = {
  statusCode: 200,
  body: { object: 'chat.completion', choices: [{ finish_reason: 'stop' }], usage: { prompt_tokens: 4, completion_tokens: 2 } },
  provider: 'openai',
  model: 'gpt-4o-mini',
};

describe('gateway line processor', () => {
  let state: StateStore;
  let calls: GatewayLineCall[];
  let answers: GatewayLineAnswer[];
  let finalized: string[];

  beforeEach(async () => {
    state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
    await state.batches.create(record, [line('a'), line('b')], 3600);
    calls = [];
    answers = [];
    finalized = [];
  });
  afterEach(async () => state.close());

  const processor = () =>
    createGatewayLineProcessor({
      store: state.batches,
      lines: {
        run: async (call) => {
          calls.push(call);
          return answers.shift() ?? ok;
        },
      },
      batches: {
        finalizeIfDone: async (batchId) => {
          finalized.push(batchId);
          return (await state.batches.get(batchId))!;
        },
      },
      clock: createManualClock(1_700_000_001_000),
      logger: silentLogger,
    });

  it('runs a line once under its key with a request id stable across attempts, and skips a redelivery', async () => {
    const process = processor();
    await process(job(0, 1));
    await process(job(0, 1));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ merchantId: 'shop-1', apiKeyId: 'key-1', url: '/v1/chat/completions', requestId: expect.stringMatching(/^req_/) });
    const item = await state.batches.item(record.batchId, 0);
    expect(item?.outcome).toMatchObject({
      status: 'succeeded',
      provider: 'openai',
      usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 },
      finishReason: 'stop',
    });
    expect(finalized).toEqual([record.batchId]);
  });

  it('retries a 5xx and a rate-limit 429 while attempts remain, then keeps the last answer for the error file', async () => {
    const process = processor();
    answers.push({ statusCode: 503, body: { error: { message: 'overloaded', code: null } } });
    await expect(process(job(1, 1))).rejects.toThrow(/503/);
    answers.push({ statusCode: 429, body: { error: { message: 'slow down', code: 'rate_limit_exceeded' } } });
    await expect(process(job(1, 2))).rejects.toThrow(/429/);
    answers.push({ statusCode: 429, body: { error: { message: 'slow down', code: 'rate_limit_exceeded' } } });
    await process(job(1, 3));
    expect(calls.map((call) => call.requestId)).toEqual([calls[0]!.requestId, calls[0]!.requestId, calls[0]!.requestId]);
    expect((await state.batches.item(record.batchId, 1))?.outcome).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: {
        statusCode: 429,
        code: 'rate_limit_exceeded',
        retryable: true,
        responseBody: JSON.stringify({ error: { message: 'slow down', code: 'rate_limit_exceeded' } }),
      },
    });
  });

  it("does not retry a client error or a key's spent budget", async () => {
    const process = processor();
    answers.push({ statusCode: 429, body: { error: { message: 'budget spent', code: 'insufficient_quota' } } });
    await process(job(0, 1));
    answers.push({ statusCode: 400, body: { error: { message: 'bad', code: null } } });
    await process(job(1, 1));
    expect(calls).toHaveLength(2);
    expect((await state.batches.get(record.batchId))?.counts).toEqual({ succeeded: 0, failed: 2, cancelled: 0 });
  });

  it('ends the lines of a cancelled batch without a call', async () => {
    await state.batches.cancel(record.batchId, 1_700_000_000_500);
    await processor()(job(0, 1));
    expect(calls).toEqual([]);
    expect((await state.batches.item(record.batchId, 0))?.outcome).toMatchObject({ status: 'cancelled' });
  });
});
