import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayLinesWorker } from '../../cli/create-batch-service.js';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import type { WorkerHandle } from '../../workers/worker-handle.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatError, embeddingsResponse } from '../fixtures/providers/openai-wire.js';
import { responsesMessageItem, responsesResponse } from '../fixtures/providers/openai-responses-wire.js';
import { createKeyWith, createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * OpenAI's Files and Batches APIs driven by the official `openai` client (only its base URL
 * changed), in front of a local fake speaking OpenAI's wire: uploads, the batch input checks, a
 * batch run line by line through the gateway, its output and error files, cancel, list pages, and
 * one merchant never seeing another's files or batches.
 */

interface ChatBody {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content: string }[];
}

/** Chat: "reject…" is the provider's 400, anything else an echo. Embeddings: one 3-float vector per input. */
function upstream(request: RecordedRequest) {
  if (request.path.endsWith('/responses')) {
    const body = request.body as { model: string; input: string };
    return responsesResponse({
      model: body.model,
      output: [responsesMessageItem(`echo: ${body.input}`)],
      usage: { inputTokens: 3, outputTokens: 2 },
      request: body,
    });
  }
  if (request.path.endsWith('/embeddings')) {
    const input = (request.body as { input: string | string[] }).input;
    const inputs = Array.isArray(input) ? input : [input];
    return embeddingsResponse({ model: 'text-embedding-3-small', vectors: inputs.map(() => [0.1, 0.2, 0.3]), promptTokens: 4 });
  }
  const body = request.body as ChatBody;
  const prompt = body.messages.at(-1)?.content ?? '';
  if (prompt.startsWith('reject')) return chatError('bad-request', 'openai', body.model);
  return chatCompletion({ model: body.model, content: `echo: ${prompt}`, usage: { promptTokens: 5, completionTokens: 2 } });
}

function chatLine(customId: string, prompt: string, url = '/v1/chat/completions'): string {
  return JSON.stringify({ custom_id: customId, method: 'POST', url, body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: prompt }] } });
}

function jsonl(...lines: string[]): Promise<Awaited<ReturnType<typeof toFile>>> {
  return toFile(Buffer.from(`${lines.join('\n')}\n`), 'requests.jsonl');
}

/** Polls `retrieve` until the batch has ended (each poll is a request; the worker runs between them). */
async function untilEnded(client: OpenAI, batchId: string): Promise<OpenAI.Batches.Batch> {
  for (;;) {
    const batch = await client.batches.retrieve(batchId);
    if (batch.status === 'completed' || batch.status === 'cancelled' || batch.status === 'expired' || batch.status === 'failed') return batch;
  }
}

async function linesOf(client: OpenAI, fileId: string): Promise<Record<string, unknown>[]> {
  const text = await (await client.files.content(fileId)).text();
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

let provider: FakeHttpServer;
let t: TestApp;
let worker: WorkerHandle;
let client: OpenAI;
let apiKeyA: string;
let otherClient: OpenAI;
let baseURL: string;

beforeAll(async () => {
  provider = await startFakeHttpServer(upstream);
  t = await createTestApp({
    env: { FILES_MAX_BYTES: '4096', BATCH_BACKOFF_MS: '10', BATCH_ATTEMPTS: '2' },
    toolkitEnv: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` },
  });
  const { apiKey } = await createMerchant(t.app, 'files-shop-a');
  const other = await createMerchant(t.app, 'files-shop-b');
  baseURL = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1`;
  apiKeyA = apiKey;
  client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
  otherClient = new OpenAI({ apiKey: other.apiKey, baseURL, maxRetries: 0 });
  worker = await startGatewayLinesWorker(t.config, t.batchWiring, t.app, t.openAiBatches);
});

afterAll(async () => {
  await worker.close();
  await t.close();
  await provider.close();
});

describe('OpenAI Files API', () => {
  it('uploads a batch file and lists, retrieves, reads and deletes it', async () => {
    const text = `${chatLine('a', 'hello')}\n`;
    const file = await client.files.create({ file: await toFile(Buffer.from(text), 'in.jsonl'), purpose: 'batch' });
    expect(file).toMatchObject({ object: 'file', bytes: Buffer.byteLength(text), filename: 'in.jsonl', purpose: 'batch' });
    expect(file.id).toMatch(/^file-[A-Za-z0-9_-]+$/);
    // OpenAI's default for batch files: 30 days.
    expect(file.expires_at).toBe(file.created_at + 30 * 86_400);
    expect(await client.files.retrieve(file.id)).toEqual(file);
    expect(await (await client.files.content(file.id)).text()).toBe(text);
    const listed = await client.files.list({ purpose: 'batch' });
    expect(listed.data.map((entry) => entry.id)).toContain(file.id);
    expect(await client.files.delete(file.id)).toEqual({ id: file.id, object: 'file', deleted: true });
    await expect(client.files.retrieve(file.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('refuses a batch file naming its first bad line: a repeated custom_id, a url no batch runs, a streamed body', async () => {
    const duplicate = client.files.create({ file: await jsonl(chatLine('same', 'one'), chatLine('same', 'two')), purpose: 'batch' });
    await expect(duplicate).rejects.toMatchObject({ status: 400, param: 'custom_id', message: expect.stringContaining('line 2') });
    const badUrl = client.files.create({ file: await jsonl(chatLine('x', 'one', '/v1/completions')), purpose: 'batch' });
    await expect(badUrl).rejects.toMatchObject({ status: 400, param: 'url', message: expect.stringContaining('line 1') });
    const streamed = JSON.stringify({ custom_id: 's', method: 'POST', url: '/v1/chat/completions', body: { model: 'm', stream: true, messages: [] } });
    await expect(client.files.create({ file: await jsonl(streamed), purpose: 'batch' })).rejects.toMatchObject({ status: 400, param: 'body.stream' });
    await expect(client.files.create({ file: await jsonl('{not json'), purpose: 'batch' })).rejects.toMatchObject({ status: 400 });
    await expect(client.files.create({ file: await jsonl(chatLine('p', 'x')), purpose: 'nonsense' as 'batch' })).rejects.toMatchObject({
      status: 400,
      param: 'purpose',
    });
  });

  it('answers 413 for a file over FILES_MAX_BYTES, at the limit and far over it', async () => {
    const justOver = Buffer.alloc(4097, 0x61);
    await expect(client.files.create({ file: await toFile(justOver, 'big.txt'), purpose: 'user_data' })).rejects.toMatchObject({ status: 413 });
    // Over the route's body limit too (the file plus 1 MiB of form framing): refused before the body is
    // read, still 413 in OpenAI's shape (by inject: a real client may see its upload cut off first).
    const boundary = 'limit-boundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.txt"\r\n\r\n`),
      Buffer.alloc(1_200_000, 0x61),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/v1/files',
      headers: { authorization: `Bearer ${apiKeyA}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const atLimit = await client.files.create({ file: await toFile(Buffer.alloc(4096, 0x61), 'fits.txt'), purpose: 'user_data' });
    expect(atLimit.bytes).toBe(4096);
  });

  it('pages the list with after and limit, newest first', async () => {
    const ids: string[] = [];
    for (const name of ['p1', 'p2', 'p3'])
      ids.push((await client.files.create({ file: await toFile(Buffer.from(name), `${name}.txt`), purpose: 'user_data' })).id);
    const first = await client.files.list({ purpose: 'user_data', limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const all: string[] = [];
    for await (const file of client.files.list({ purpose: 'user_data', limit: 2 })) all.push(file.id);
    for (const id of ids) expect(all).toContain(id);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('OpenAI Batch API', () => {
  it('runs every line through the gateway under the key and writes output and error files in OpenAI line format', async () => {
    const input = await client.files.create({
      file: await jsonl(chatLine('first', 'hello'), chatLine('second', 'reject this'), chatLine('third', 'world')),
      purpose: 'batch',
    });
    const created = await client.batches.create({
      input_file_id: input.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { job: 'nightly' },
    });
    expect(created).toMatchObject({
      object: 'batch',
      endpoint: '/v1/chat/completions',
      input_file_id: input.id,
      completion_window: '24h',
      metadata: { job: 'nightly' },
      request_counts: { total: 3 },
    });
    expect(['in_progress', 'finalizing', 'completed']).toContain(created.status);
    expect(created.expires_at).toBe(created.created_at + 86_400);

    const done = await untilEnded(client, created.id);
    expect(done.status).toBe('completed');
    expect(done.request_counts).toEqual({ total: 3, completed: 2, failed: 1 });
    expect(done.completed_at).toBeGreaterThanOrEqual(done.created_at);
    expect(done.output_file_id).toMatch(/^file-/);
    expect(done.error_file_id).toMatch(/^file-/);

    const output = await linesOf(client, done.output_file_id!);
    expect(output.map((line) => line['custom_id']).sort()).toEqual(['first', 'third']);
    for (const line of output) {
      expect(line).toMatchObject({
        id: expect.stringMatching(/^batch_req_/),
        error: null,
        response: { status_code: 200, request_id: expect.stringMatching(/^req_/) },
      });
      const body = (line['response'] as { body: OpenAI.Chat.ChatCompletion }).body;
      expect(body.object).toBe('chat.completion');
      expect(body.choices[0]?.message.content).toBe(line['custom_id'] === 'first' ? 'echo: hello' : 'echo: world');
    }
    const errors = await linesOf(client, done.error_file_id!);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ custom_id: 'second', error: null, response: { status_code: 400, body: { error: { type: 'invalid_request_error' } } } });

    // The output files are the merchant's files too, with OpenAI's purpose.
    expect(await client.files.retrieve(done.output_file_id!)).toMatchObject({ purpose: 'batch_output', filename: `${created.id}_output.jsonl` });

    // Each line was a gateway call under the batch's key: its llm.call records carry the key and the line's request id.
    await t.eventsCaughtUp();
    const calls = t.events.filter(
      (event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.payload.requestId?.startsWith('req_') === true,
    );
    const requestIds = new Set([...output, ...errors].map((line) => (line['response'] as { request_id: string }).request_id));
    const lineCalls = calls.filter((event) => requestIds.has(event.payload.requestId!));
    expect(lineCalls.length).toBeGreaterThanOrEqual(3);
    expect(new Set(lineCalls.map((event) => event.merchantId))).toEqual(new Set(['files-shop-a']));
    expect(lineCalls.every((event) => event.payload.apiKeyId !== undefined && event.payload.api === 'chat_completions')).toBe(true);
    // …and name the batch and the line's job, as a toolkit batch item's records do.
    expect(new Set(lineCalls.map((event) => event.payload.batchId))).toEqual(new Set([created.id]));
    expect(lineCalls.every((event) => event.payload.jobId?.startsWith(`${created.id}:`) === true)).toBe(true);
  });

  it("holds the lines to the key's own limits: past its rpm a line ends in the error file with the gateway's 429", async () => {
    // rpm 3 on a clock that does not move: the upload and the create take two, so one line of two runs.
    const limited = await createKeyWith(t.app, apiKeyA, 'files-shop-a', { limits: { rpm: 3 } });
    const limitedClient = new OpenAI({ apiKey: limited.apiKey, baseURL, maxRetries: 0 });
    const input = await limitedClient.files.create({ file: await jsonl(chatLine('r1', 'one'), chatLine('r2', 'two')), purpose: 'batch' });
    const batch = await limitedClient.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const done = await untilEnded(client, batch.id);
    expect(done.request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
    const [refused] = await linesOf(client, done.error_file_id!);
    expect(refused).toMatchObject({ response: { status_code: 429, body: { error: { code: 'rate_limit_exceeded' } } }, error: null });
  });

  it("gives a line's concurrency slot back when it ends: a max_concurrent 1 key calls directly after its batch", async () => {
    const single = await createKeyWith(t.app, apiKeyA, 'files-shop-a', { limits: { max_concurrent: 1 } });
    const singleClient = new OpenAI({ apiKey: single.apiKey, baseURL, maxRetries: 0 });
    const input = await singleClient.files.create({ file: await jsonl(chatLine('c1', 'one')), purpose: 'batch' });
    const batch = await singleClient.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect((await untilEnded(client, batch.id)).request_counts).toEqual({ total: 1, completed: 1, failed: 0 });
    await t.spendCounted();
    const direct = await singleClient.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'after' }] });
    expect(direct.choices[0]?.message.content).toBe('echo: after');
  });

  it('runs embeddings lines through /v1/embeddings', async () => {
    const line = (id: string, text: string) =>
      JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/embeddings', body: { model: 'openai/text-embedding-3-small', input: text } });
    const input = await client.files.create({ file: await jsonl(line('e1', 'alpha'), line('e2', 'beta')), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/embeddings', completion_window: '24h' });
    const done = await untilEnded(client, batch.id);
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 2, completed: 2, failed: 0 }, error_file_id: null });
    const output = await linesOf(client, done.output_file_id!);
    expect(output.map((entry) => (entry['response'] as { body: { object: string; data: unknown[] } }).body)).toEqual([
      expect.objectContaining({ object: 'list', data: [expect.objectContaining({ object: 'embedding', embedding: [0.1, 0.2, 0.3] })] }),
      expect.objectContaining({ object: 'list' }),
    ]);
  });

  it('runs Responses API lines through /v1/responses', async () => {
    const line = (id: string, text: string) =>
      JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/responses', body: { model: 'openai/gpt-4o-mini', input: text, store: false } });
    const input = await client.files.create({ file: await jsonl(line('q1', 'alpha')), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/responses', completion_window: '24h' });
    const done = await untilEnded(client, batch.id);
    expect(done).toMatchObject({ status: 'completed', endpoint: '/v1/responses', request_counts: { total: 1, completed: 1, failed: 0 } });
    const [answer] = await linesOf(client, done.output_file_id!);
    const body = (answer!['response'] as { body: OpenAI.Responses.Response }).body;
    expect(body.object).toBe('response');
    // The raw body as the route sent it (`output_text` is only the SDK's convenience on its own calls).
    expect((body.output[0] as { content: { text: string }[] }).content[0]?.text).toBe('echo: alpha');
  });

  it('refuses a batch whose lines do not all call its endpoint, and an unknown input file', async () => {
    const input = await client.files.create({ file: await jsonl(chatLine('c1', 'hi')), purpose: 'batch' });
    await expect(client.batches.create({ input_file_id: input.id, endpoint: '/v1/embeddings', completion_window: '24h' })).rejects.toMatchObject({
      status: 400,
      param: 'endpoint',
    });
    await expect(client.batches.create({ input_file_id: 'file-unknown', endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toMatchObject({
      status: 400,
      param: 'input_file_id',
    });
    await expect(client.batches.retrieve('batch_unknown')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("hides one merchant's files and batches from another, as unknown ids", async () => {
    const input = await client.files.create({ file: await jsonl(chatLine('x1', 'hello')), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await untilEnded(client, batch.id);
    await expect(otherClient.files.retrieve(input.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(otherClient.files.content(input.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(otherClient.files.delete(input.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(otherClient.batches.retrieve(batch.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(otherClient.batches.cancel(batch.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(otherClient.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toMatchObject({
      status: 400,
      param: 'input_file_id',
    });
    expect((await otherClient.files.list()).data).toEqual([]);
    expect((await otherClient.batches.list()).data).toEqual([]);
    // Still there for its owner.
    expect((await client.files.retrieve(input.id)).id).toBe(input.id);
  });
});

describe('OpenAI Batch API without a running line worker', () => {
  let idle: TestApp;
  let idleClient: OpenAI;
  let idleKey: string;
  let idleBaseUrl: string;

  beforeAll(async () => {
    idle = await createTestApp({ env: { BATCH_MAX_LINES: '5' } });
    idleKey = (await createMerchant(idle.app, 'files-shop-idle')).apiKey;
    idleBaseUrl = `${await idle.app.listen({ port: 0, host: '127.0.0.1' })}/v1`;
    idleClient = new OpenAI({ apiKey: idleKey, baseURL: idleBaseUrl, maxRetries: 0 });
  });
  afterAll(async () => {
    await idle.close();
  });

  it('cancels a batch before its lines run: cancelled, each line in the error file as batch_cancelled', async () => {
    const input = await idleClient.files.create({ file: await jsonl(chatLine('k1', 'a'), chatLine('k2', 'b')), purpose: 'batch' });
    const batch = await idleClient.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(batch.status).toBe('in_progress');
    const cancelled = await idleClient.batches.cancel(batch.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', output_file_id: null, request_counts: { total: 2, completed: 0, failed: 0 } });
    expect(cancelled.cancelling_at).toBe(cancelled.cancelled_at);
    const errors = await linesOf(idleClient, cancelled.error_file_id!);
    expect(errors).toEqual([
      expect.objectContaining({ custom_id: 'k1', response: null, error: expect.objectContaining({ code: 'batch_cancelled' }) }),
      expect.objectContaining({ custom_id: 'k2', response: null, error: expect.objectContaining({ code: 'batch_cancelled' }) }),
    ]);
    // Cancelling again changes nothing.
    expect(await idleClient.batches.cancel(batch.id)).toEqual(cancelled);
  });

  it('pages batches newest first with after and limit', async () => {
    const input = await idleClient.files.create({ file: await jsonl(chatLine('l1', 'a')), purpose: 'batch' });
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      idle.clock.advance(1000);
      ids.push((await idleClient.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).id);
    }
    const first = await idleClient.batches.list({ limit: 2 });
    expect(first.data.map((entry) => entry.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const all: string[] = [];
    for await (const entry of idleClient.batches.list({ limit: 2 })) all.push(entry.id);
    expect(all.slice(0, 3)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('fails the lines of a key revoked before they run with the 401 a direct call gets', async () => {
    const key = await createKeyWith(idle.app, idleKey, 'files-shop-idle', {});
    const keyClient = new OpenAI({ apiKey: key.apiKey, baseURL: idleBaseUrl, maxRetries: 0 });
    const input = await keyClient.files.create({ file: await jsonl(chatLine('v1', 'a')), purpose: 'batch' });
    const batch = await keyClient.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect((await idle.app.inject({ method: 'DELETE', url: `/api-key/${key.keyId}`, headers: withKey(idleKey) })).statusCode).toBe(200);
    const lines = await startGatewayLinesWorker(idle.config, idle.batchWiring, idle.app, idle.openAiBatches);
    try {
      const done = await untilEnded(idleClient, batch.id);
      expect(done).toMatchObject({ status: 'completed', request_counts: { total: 1, completed: 0, failed: 1 }, output_file_id: null });
      const [refused] = await linesOf(idleClient, done.error_file_id!);
      expect(refused).toMatchObject({ custom_id: 'v1', response: { status_code: 401, body: { error: { code: 'invalid_api_key' } } }, error: null });
    } finally {
      await lines.close();
    }
  });

  it('documents every route in /openapi.json with its schema', async () => {
    const document = (await idle.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    for (const path of [
      '/v1/files',
      '/v1/files/{fileId}',
      '/v1/files/{fileId}/content',
      '/v1/batches',
      '/v1/batches/{batchId}',
      '/v1/batches/{batchId}/cancel',
    ])
      expect(document.paths[path], path).toBeDefined();
    expect(Object.keys(document.paths['/v1/batches']!)).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['OpenAiFile', 'OpenAiBatch', 'OpenAiBatchList', 'OpenAiBatchCreateRequest']),
    );
  });

  it('refuses a batch file over BATCH_MAX_LINES', async () => {
    const lines = Array.from({ length: 6 }, (_, n) => chatLine(`m${n}`, 'x'));
    await expect(idleClient.files.create({ file: await jsonl(...lines), purpose: 'batch' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('at most 5'),
    });
  });

  // Last in this app: it moves the app's clock a day on.
  it('expires a batch whose window ran out: expired, its unrun lines in the error file as batch_expired', async () => {
    const input = await idleClient.files.create({ file: await jsonl(chatLine('w1', 'a')), purpose: 'batch' });
    const batch = await idleClient.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    idle.clock.advance(86_400_000);
    const expired = await idleClient.batches.retrieve(batch.id);
    expect(expired).toMatchObject({ status: 'expired', cancelling_at: null, cancelled_at: null, output_file_id: null });
    expect(expired.expired_at).toBeGreaterThanOrEqual(expired.expires_at!);
    expect(await linesOf(idleClient, expired.error_file_id!)).toEqual([
      expect.objectContaining({ custom_id: 'w1', response: null, error: expect.objectContaining({ code: 'batch_expired' }) }),
    ]);
  });
});
