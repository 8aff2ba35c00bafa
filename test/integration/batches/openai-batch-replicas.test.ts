import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { S3ObjectClient } from '../../../src/adapters/s3/s3-object-client.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { s3Env, s3Settings, uniqueNamespace } from '../adapters/local-services.js';
import { createMerchant, createPipelineNamespace, deletePipelineNamespace, pipelineEnv, type PipelineNamespace } from '../pipeline/pipeline-harness.js';
import { createPinoSink } from '../pipeline/pino-sink.js';

/**
 * OpenAI batches in distributed mode: two API replicas on one namespace of the real Redis, Kafka
 * and ClickHouse, their lines on the shared BullMQ queue, their files in the distributed file store
 * (FILE_STORE=s3 on the S3-compatible server of deploy/local/s3.sh, under a key prefix of this
 * file's; each replica has a data directory of its own, so no disk is shared). A batch created on
 * one replica is run by the replicas' line workers and read, finished, on the other, all through
 * the official `openai` client; another merchant sees none of it.
 */

function echo(request: RecordedRequest) {
  const body = request.body as { model: string; messages: { content: string }[] };
  return chatCompletion({ model: body.model, content: `echo: ${body.messages.at(-1)?.content ?? ''}`, usage: { promptTokens: 3, completionTokens: 2 } });
}

describe('OpenAI batches across two API replicas', () => {
  let provider: FakeHttpServer;
  let namespace: PipelineNamespace;
  const servers: RunningServer[] = [];
  const s3Prefix = `${uniqueNamespace('batch-files')}/`;

  beforeAll(async () => {
    provider = await startFakeHttpServer(echo);
    namespace = await createPipelineNamespace();
    for (const replica of ['a', 'b']) {
      const env = pipelineEnv(namespace, {
        distributed: true,
        embeddedWorkers: false,
        extra: { DATA_DIR: join(namespace.dataDir, replica), ...s3Env(s3Prefix), LOG_LEVEL: 'silent', BATCH_BACKOFF_MS: '10' },
      });
      servers.push(
        await startServer(loadConfig(env), createPinoSink('silent').logger, {
          toolkit: {
            cwd: mkdtempSync(join(tmpdir(), `sytest-batch-replica-${replica}-`)),
            env: { OPENAI_API_KEY: 'sk-replicas', OPENAI_BASE_URL: `${provider.url}/v1` },
          },
        }),
      );
    }
  });

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await provider.close();
    await deletePipelineNamespace(namespace, { distributed: true });
    const s3 = new S3ObjectClient({
      endpoint: s3Settings.endpoint,
      bucket: s3Settings.bucket,
      region: s3Settings.region,
      credentials: { accessKeyId: s3Settings.accessKeyId, secretAccessKey: s3Settings.secretAccessKey },
    });
    for (const key of await s3.list(s3Prefix)) await s3.delete(key);
  });

  it('runs a batch created on one replica and reads it, completed with its output file, on the other', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const apiKey = (await createMerchant(a.url, 'shop-replicas'))['x-api-key']!;
    const onA = new OpenAI({ apiKey, baseURL: `${a.url}/v1`, maxRetries: 0 });
    const onB = new OpenAI({ apiKey, baseURL: `${b.url}/v1`, maxRetries: 0 });
    const lines = Array.from({ length: 8 }, (_, n) =>
      JSON.stringify({
        custom_id: `line-${n}`,
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: `n${n}` }] },
      }),
    );
    const input = await onA.files.create({ file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'in.jsonl'), purpose: 'batch' });
    const batch = await onA.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect((await onB.batches.retrieve(batch.id)).input_file_id).toBe(input.id);
    let done = await onB.batches.retrieve(batch.id);
    while (done.status !== 'completed') done = await onB.batches.retrieve(batch.id);
    expect(done.request_counts).toEqual({ total: 8, completed: 8, failed: 0 });
    const output = (await (await onB.files.content(done.output_file_id!)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { custom_id: string; response: { body: { choices: { message: { content: string } }[] } } });
    expect(output.map((line) => line.custom_id).sort()).toEqual(Array.from({ length: 8 }, (_, n) => `line-${n}`).sort());
    for (const line of output) expect(line.response.body.choices[0]?.message.content).toBe(`echo: n${line.custom_id.slice('line-'.length)}`);
    // Each line called the provider once.
    expect(provider.requests.filter((request) => request.path.endsWith('/chat/completions'))).toHaveLength(8);
    expect((await onA.batches.list()).data.map((entry) => entry.id)).toEqual([batch.id]);

    // Another merchant, on either replica, sees none of the first one's files or batches.
    const otherKey = (await createMerchant(b.url, 'shop-replicas-other'))['x-api-key']!;
    const other = new OpenAI({ apiKey: otherKey, baseURL: `${b.url}/v1`, maxRetries: 0 });
    for (const fileId of [input.id, done.output_file_id!]) {
      await expect(other.files.retrieve(fileId)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
      await expect(other.files.content(fileId)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
      await expect(other.files.delete(fileId)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    }
    await expect(other.batches.retrieve(batch.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect((await other.files.list()).data).toEqual([]);
    // The owner still has both: the refused deletes removed nothing.
    expect((await onA.files.list()).data.map((entry) => entry.id).sort()).toEqual([input.id, done.output_file_id!].sort());
    expect((await onB.files.retrieve(input.id)).bytes).toBe(input.bytes);
  });
});
