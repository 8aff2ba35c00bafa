import { afterEach, describe, expect, it } from 'vitest';
import { batchJobId, batchQueueName } from '../../../../src/generation/batch/batch-queue.js';
import { createBatchItemProcessor } from '../../../../src/generation/batch/process-batch-item.js';
import { AIProviderError } from '../../../../src/generation/errors/ai-provider-error.js';
import { InvalidRequestError, RateLimitError, TimeoutError } from '../../../../src/generation/errors/provider-errors.js';
import { silentLogger } from '../../../../src/logging/logger.js';
import { createBatchHarness, type BatchHarness } from '../../../helpers/batch-harness.js';
import { ScriptedLanguageModel } from '../../../helpers/scripted-language-model.js';

let harness: BatchHarness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function open(...args: Parameters<typeof createBatchHarness>): BatchHarness {
  harness = createBatchHarness(...args);
  return harness;
}

describe('BatchService.submit', () => {
  it('enqueues one job per prompt under <batchId>:<index> and stores every answer', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-test', [
      { text: 'answer zero' },
      { text: 'answer one' },
      { text: 'answer two', usage: { inputTokens: 5, outputTokens: 6, totalTokens: 11 } },
    ]);
    const t = open({ openai });
    const submitted = await t.service.submit({
      merchantId: 'shop-1',
      prompts: ['zero', 'one', 'two'],
      options: { temperature: 0.1, maxTokens: 50, systemPrompt: 'be brief' },
    });
    expect(submitted).toMatchObject({ status: 'running', merchantId: 'shop-1', provider: 'openai', total: 3, pending: 3, succeeded: 0 });
    const queueName = batchQueueName('openai');
    expect(await Promise.all([0, 1, 2].map((index) => t.queue.state(queueName, batchJobId(submitted.batchId, index))))).toEqual([
      'waiting',
      'waiting',
      'waiting',
    ]);

    await t.startWorker('openai');
    await t.settled(submitted.batchId);
    expect(await t.service.status(submitted.batchId)).toMatchObject({ status: 'completed', total: 3, pending: 0, succeeded: 3, failed: 0, cancelled: 0 });
    expect(openai.calls.map((call) => [call.messages.at(-1)?.content, call.temperature, call.maxTokens, call.system, call.tools])).toEqual([
      ['zero', 0.1, 50, 'be brief', undefined],
      ['one', 0.1, 50, 'be brief', undefined],
      ['two', 0.1, 50, 'be brief', undefined],
    ]);
    const page = await t.service.results(submitted.batchId, { offset: 1, limit: 2 });
    expect(page).toMatchObject({ batchId: submitted.batchId, status: 'completed', total: 3, offset: 1, limit: 2 });
    expect(page?.nextOffset).toBeUndefined();
    expect(page?.items).toEqual([
      expect.objectContaining({
        index: 1,
        jobId: `${submitted.batchId}:1`,
        status: 'succeeded',
        prompt: 'one',
        content: 'answer one',
        provider: 'openai',
        model: 'gpt-test',
        attempts: 1,
      }),
      expect.objectContaining({ index: 2, status: 'succeeded', content: 'answer two', usage: { inputTokens: 5, outputTokens: 6, totalTokens: 11 } }),
    ]);
    expect((await t.service.results(submitted.batchId, { offset: 0, limit: 1 }))?.nextOffset).toBe(1);
  });

  it('passes the batch attribution with every call and keeps tools off', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-test', [{ text: 'a' }, { text: 'b' }]);
    const t = open({ openai });
    const submitted = await t.service.submit({ merchantId: 'shop-9', userId: 'user-3', prompts: ['p0', 'p1'] });
    await t.startWorker('openai');
    await t.settled(submitted.batchId);
    expect(t.calls.map((call) => [call.attribution, call.disableTools, call.provider])).toEqual([
      [
        { merchantId: 'shop-9', userId: 'user-3', batchId: submitted.batchId, jobId: `${submitted.batchId}:0`, jobAttempt: 1, surface: 'batch' },
        true,
        'openai',
      ],
      [
        { merchantId: 'shop-9', userId: 'user-3', batchId: submitted.batchId, jobId: `${submitted.batchId}:1`, jobAttempt: 1, surface: 'batch' },
        true,
        'openai',
      ],
    ]);
  });

  it('pins the batch to the provider chosen at submit and gives every item the default timeout', async () => {
    const mistral = new ScriptedLanguageModel('mistral', 'mistral-small', [{ text: 'bonjour' }]);
    const t = open({ mistral });
    const submitted = await t.service.submit({ merchantId: 'shop-1', prompts: ['salut'] });
    expect(submitted.provider).toBe('mistral');
    await t.startWorker('mistral');
    await t.settled(submitted.batchId);
    expect(t.calls[0]).toMatchObject({ provider: 'mistral', timeout: 120_000 });
  });

  it.each([
    ['too many prompts', { prompts: ['1', '2', '3', '4', '5', '6'] }, 'prompts', 'at most 5 prompts; got 6'],
    ['no prompts', { prompts: [] }, 'prompts', 'non-empty array'],
    ['a blank prompt', { prompts: ['fine', '  '] }, 'prompts[1]', 'prompts[1] must be a non-empty string'],
    ['a temperature out of range', { prompts: ['x'], options: { temperature: 2 } }, 'temperature', 'temperature must be a number from 0 to 1'],
    ['a malformed timeout', { prompts: ['x'], options: { timeout: '5 minutes' } }, 'timeout', 'timeout must be a positive number'],
    ['an unknown provider', { prompts: ['x'], options: { provider: 'skynet' } }, 'provider', 'names no known provider: "skynet"'],
  ])('refuses %s before storing or enqueuing anything', async (_label, submission, option, message) => {
    const t = open({ openai: new ScriptedLanguageModel('openai', 'gpt-test', []) });
    const error = await t.service.submit({ merchantId: 'shop-1', ...submission }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: 'SY_BATCH_INVALID', message: expect.stringContaining(message), details: expect.objectContaining({ option }) });
    expect(await t.state.batches.unfinished()).toEqual([]);
  });

  it('refuses a provider this server has no credentials for, naming the variable to set', async () => {
    const t = open({ openai: new ScriptedLanguageModel('openai', 'gpt-test', []) });
    await expect(t.service.submit({ merchantId: 'shop-1', prompts: ['x'], options: { provider: 'anthropic' } })).rejects.toMatchObject({
      code: 'SY_BATCH_INVALID',
      message: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
  });

  it('cancels the stored batch when its jobs cannot be enqueued, so a resubmission never runs it twice', async () => {
    const t = open({ openai: new ScriptedLanguageModel('openai', 'gpt-test', []) });
    await t.queue.close();
    await expect(t.service.submit({ merchantId: 'shop-1', prompts: ['x', 'y'] })).rejects.toThrow('job queue is closed');
    const [batchId] = await t.state.batches.unfinished();
    expect((await t.service.status(batchId!))?.status).toBe('cancelling');
  });
});

describe('batch item processing', () => {
  it('retries a retryable failure with backoff and stores the answer of the attempt that succeeded', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-test', [
      { error: new RateLimitError('slow down', 'openai', 1) },
      { error: new AIProviderError('Bad Gateway', 'openai', { statusCode: 502 }) },
      { text: 'third time lucky' },
    ]);
    const t = open({ openai });
    const { batchId } = await t.service.submit({ merchantId: 'shop-1', prompts: ['try'] });
    await t.startWorker('openai');
    await t.settled(batchId);
    expect(openai.calls).toHaveLength(3);
    expect((await t.service.results(batchId))?.items[0]).toMatchObject({ status: 'succeeded', content: 'third time lucky', attempts: 3 });
  });

  it('sends a non-retryable failure to the dead letter at once, with its error class', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-test', [
      { error: new InvalidRequestError("Invalid 'messages': too long", 'openai', undefined, { statusCode: 400 }) },
      { text: 'fine' },
    ]);
    const t = open({ openai });
    const { batchId } = await t.service.submit({ merchantId: 'shop-1', prompts: ['too long', 'short'] });
    await t.startWorker('openai');
    await t.settled(batchId);
    expect(openai.calls).toHaveLength(2);
    expect(await t.service.status(batchId)).toMatchObject({ status: 'completed', succeeded: 1, failed: 1 });
    expect((await t.service.results(batchId))?.items[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { errorClass: 'InvalidRequestError', code: 'INVALID_REQUEST', retryable: false, statusCode: 400, message: "Invalid 'messages': too long" },
    });
  });

  it('dead-letters a retryable failure once its attempts are spent', async () => {
    const timeout = () => new TimeoutError('generate timed out after 50ms', 'openai', 50, 'generate');
    const openai = new ScriptedLanguageModel('openai', 'gpt-test', [{ error: timeout() }, { error: timeout() }, { error: timeout() }]);
    const t = open({ openai });
    const { batchId } = await t.service.submit({ merchantId: 'shop-1', prompts: ['slow'] });
    await t.startWorker('openai');
    await t.settled(batchId);
    expect(openai.calls).toHaveLength(3);
    expect((await t.service.results(batchId))?.items[0]).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: { errorClass: 'TimeoutError', code: 'TIMEOUT', retryable: true },
    });
  });

  it('skips a redelivered job whose item already has its outcome: no second call, no second count', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-test', [{ text: 'once' }]);
    const t = open({ openai });
    const { batchId } = await t.service.submit({ merchantId: 'shop-1', prompts: ['only'] });
    await t.startWorker('openai');
    await t.settled(batchId);
    // The same job delivered again, as after a lost acknowledgement or a stalled worker.
    const processor = createBatchItemProcessor({ store: t.state.batches, models: t.models, clock: t.clock, logger: silentLogger });
    await processor({ id: batchJobId(batchId, 0), data: { batchId, index: 0 }, attempt: 1, maxAttempts: 3 });
    expect(openai.calls).toHaveLength(1);
    expect(await t.service.status(batchId)).toMatchObject({ succeeded: 1, pending: 0 });
  });
});

describe('BatchService.cancel', () => {
  it('removes items not yet started, lets the running one finish, and is idempotent', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const openai = new ScriptedLanguageModel('openai', 'gpt-test', [{ text: 'finished anyway' }]);
    const t = open({ openai }, { gate });
    const { batchId } = await t.service.submit({ merchantId: 'shop-1', prompts: ['first', 'second', 'third'] });
    await t.startWorker('openai');
    // The first item is running (held at the model); the other two wait.
    await t.callsMade(1);
    const cancelled = await t.service.cancel(batchId);
    expect(cancelled).toMatchObject({ status: 'cancelling', pending: 1, cancelled: 2 });
    expect(cancelled?.cancelledAt).toBe(new Date(t.clock.now()).toISOString());
    release();
    await t.settled(batchId);
    expect(await t.service.status(batchId)).toMatchObject({ status: 'cancelled', succeeded: 1, cancelled: 2, pending: 0 });
    expect(openai.calls).toHaveLength(1);
    expect((await t.service.cancel(batchId))?.cancelled).toBe(2);
    expect(await t.service.cancel('no-such-batch')).toBeUndefined();
  });

  it('leaves a finished batch as it ended: still completed, no cancelledAt, nothing counted as cancelled', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-test', [{ text: 'one' }, { text: 'two' }]);
    const t = open({ openai });
    const { batchId } = await t.service.submit({ merchantId: 'shop-1', prompts: ['p1', 'p2'] });
    await t.startWorker('openai');
    await t.settled(batchId);
    const finished = await t.service.status(batchId);
    expect(finished).toMatchObject({ status: 'completed', succeeded: 2, cancelled: 0 });
    const cancelled = await t.service.cancel(batchId);
    expect(cancelled).toEqual(finished);
    expect(cancelled?.cancelledAt).toBeUndefined();
    expect(await t.service.status(batchId)).toEqual(finished);
  });
});

describe('BatchService.resumeUnfinished', () => {
  it('enqueues again the items whose jobs the queue lost, and only those', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-test', [{ text: 'zero' }, { text: 'one' }, { text: 'two' }]);
    const t = open({ openai });
    const { batchId } = await t.service.submit({ merchantId: 'shop-1', prompts: ['p0', 'p1', 'p2'] });
    // What a restart of the embedded service leaves: outcomes in the store, an empty queue.
    await t.state.batches.finishItem(batchId, 1, {
      status: 'succeeded',
      content: 'before the restart',
      provider: 'openai',
      model: 'gpt-test',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      responseTimeMs: 1,
      attempts: 1,
      finishedAt: 1,
    });
    for (const index of [0, 1, 2]) await t.queue.cancel(batchQueueName('openai'), batchJobId(batchId, index));
    expect(await t.service.resumeUnfinished()).toEqual({ batches: 1, requeued: 2, abandoned: 0, cancelled: 0 });
    await t.startWorker('openai');
    await t.settled(batchId);
    expect(openai.calls.map((call) => call.messages.at(-1)?.content)).toEqual(['p0', 'p2']);
    expect((await t.service.results(batchId))?.items.map((item) => item.content)).toEqual(['zero', 'before the restart', 'one']);
    // Nothing left to resume.
    expect(await t.service.resumeUnfinished()).toEqual({ batches: 0, requeued: 0, abandoned: 0, cancelled: 0 });
  });

  it('dead-letters an item whose job the queue gave up on without an outcome', async () => {
    const t = open({ openai: new ScriptedLanguageModel('openai', 'gpt-test', []) }, { settings: { attempts: 1 } });
    const { batchId } = await t.service.submit({ merchantId: 'shop-1', prompts: ['p0'] });
    // A worker that dies on the item every time (here: throws before recording anything).
    const failing = await t.queue.process(batchQueueName('openai'), async () => Promise.reject(new Error('worker crashed')), { concurrency: 1 });
    await failing.close();
    expect(await t.queue.state(batchQueueName('openai'), batchJobId(batchId, 0))).toBe('failed');
    expect(await t.service.resumeUnfinished()).toEqual({ batches: 1, requeued: 0, abandoned: 1, cancelled: 0 });
    expect((await t.service.results(batchId))?.items[0]).toMatchObject({ status: 'failed', error: { errorClass: 'JobAbandonedError' } });
  });
});
