import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { cliWorkDir, runSwitchyard, removeCliWorkDirs } from '../../helpers/cli-harness.js';
import { deleteRedisNamespace, redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/**
 * `switchyard batch …` in distributed mode: each command is its own run with its own Redis and
 * BullMQ connections (as separate processes would be), on one namespace of the real Redis. A
 * submit without --wait leaves the jobs queued for `worker generation`; --wait runs them itself.
 */

function promptOf(request: RecordedRequest): string {
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
  const content = [...messages].reverse().find((message) => message.role === 'user')?.content;
  return typeof content === 'string' ? content : '';
}

interface View {
  readonly batchId: string;
  readonly status: string;
  readonly total: number;
  readonly pending: number;
  readonly succeeded: number;
  readonly cancelled: number;
}

afterAll(removeCliWorkDirs);

describe('switchyard batch on BullMQ and Redis', () => {
  let provider: FakeHttpServer;
  let keyPrefix: string;
  let cwd: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    provider = await startFakeHttpServer((request) => chatCompletion({ model: 'gpt-4o-mini', content: `echo: ${promptOf(request)}` }));
    keyPrefix = `${uniqueNamespace('cli-batch')}:`;
    cwd = cliWorkDir();
    env = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: keyPrefix, OPENAI_API_KEY: 'sk-cli-batch', OPENAI_BASE_URL: `${provider.url}/v1`, BATCH_BACKOFF_MS: '20' };
    writeFileSync(join(cwd, 'prompts.txt'), 'alpha\nbeta\ngamma\n');
  });

  afterAll(async () => {
    const admin = new Redis(redisUrl);
    await deleteRedisNamespace(admin, keyPrefix);
    admin.disconnect();
    await provider?.close();
  });

  const run = async (argv: readonly string[], stdin?: string) => {
    const result = await runSwitchyard(argv, { cwd, env, ...(stdin !== undefined ? { stdin } : {}) });
    expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
    return JSON.parse(result.stdout) as View;
  };

  it('queues a batch without waiting, cancels it from another run, and nothing of it is ever generated', async () => {
    const queued = await run(['batch', 'submit', 'prompts.txt', '--provider', 'openai', '--merchant', 'cli-shop', '--format', 'json']);
    expect(queued).toMatchObject({ status: 'running', total: 3, pending: 3, succeeded: 0 });
    expect(await run(['batch', 'status', queued.batchId, '--format', 'json'])).toMatchObject({ batchId: queued.batchId, pending: 3 });
    const cancelled = await run(['batch', 'cancel', queued.batchId, '--format', 'json']);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelled: 3, succeeded: 0 });

    // A later --wait starts a generation worker on the same queue: the cancelled jobs stay dropped.
    const before = provider.requests.length;
    const done = await run(['batch', 'submit', '-', '--provider', 'openai', '--merchant', 'cli-shop', '--wait', '--format', 'json'], 'delta\nepsilon\n');
    expect(done).toMatchObject({ status: 'completed', total: 2, succeeded: 2, pending: 0 });
    expect(provider.requests.slice(before).map(promptOf).sort()).toEqual(['delta', 'epsilon']);
    expect(await run(['batch', 'status', queued.batchId, '--format', 'json'])).toMatchObject({ status: 'cancelled', succeeded: 0 });

    const page = (await run(['batch', 'results', done.batchId, '--format', 'json'])) as unknown as { items: { index: number; content: string }[] };
    expect(page.items.map((item) => item.content)).toEqual(['echo: delta', 'echo: epsilon']);
  });
});
