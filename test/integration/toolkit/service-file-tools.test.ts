import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantToolFilesDir } from '../../../cli/create-toolkit.js';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';

/**
 * The service's built-in file tools answer merchants' prompts, so they must not reach the
 * service's own secrets (`.env` in its working directory and `DATA_DIR`: the generated JWT secret,
 * the state) nor another merchant's files. A fake OpenAI model asks for `readFile` on the path
 * named in the prompt and answers with whatever the tool returned, as a model told to would.
 */

interface WireMessage {
  readonly role: string;
  readonly content: unknown;
}

function modelThatReadsFiles(request: RecordedRequest) {
  const body = request.body as { model: string; messages: readonly WireMessage[] };
  const last = body.messages.at(-1);
  if (last?.role === 'tool') return chatCompletion({ model: body.model, content: `tool said: ${String(last.content)}` });
  const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
  const path = /^read (.+)$/.exec(text)?.[1] ?? '';
  return chatCompletion({ model: body.model, toolCalls: [{ id: 'call_read_1', name: 'readFile', arguments: { path } }] });
}

const adminSecret = 'file-tools-admin-secret';
const dotenvSecret = 'dotenv-secret-3b9c1e';

describe("the service's file tools", () => {
  let provider: FakeHttpServer;
  let root: string;
  let server: RunningServer | undefined;
  let auth: Record<string, string>;
  let otherAuth: Record<string, string>;

  beforeAll(async () => {
    provider = await startFakeHttpServer(modelThatReadsFiles);
    // The layout of a default deployment: .env in the working directory, DATA_DIR=./data below it.
    root = mkdtempSync(join(tmpdir(), 'sytest-file-tools-'));
    writeFileSync(join(root, '.env'), `OPENAI_API_KEY=sk-${dotenvSecret}\nOPENAI_BASE_URL=${provider.url}/v1\n`);
    const dataDir = join(root, 'data');
    const shopDir = merchantToolFilesDir(join(dataDir, 'tool-files'), 'file-tools-shop');
    mkdirSync(shopDir, { recursive: true });
    writeFileSync(join(shopDir, 'notes.txt'), 'shop notes for the model');
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ADMIN_SECRET: adminSecret, DATA_DIR: dataDir, EMBEDDED_WORKERS: 'false' });
    server = await startServer(config, pino({ level: 'silent' }), { toolkit: { cwd: root } });
    auth = await createMerchant('file-tools-shop');
    otherAuth = await createMerchant('file-tools-other');
  });

  async function createMerchant(merchantId: string): Promise<Record<string, string>> {
    const created = await fetch(`${server!.url}/merchant-account/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-secret': adminSecret },
      body: JSON.stringify({ merchant_id: merchantId }),
    });
    return { 'x-api-key': ((await created.json()) as { api_key: string }).api_key };
  }

  afterAll(async () => {
    await server?.stop();
    await provider?.close();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  async function ask(prompt: string, as: Record<string, string> = auth): Promise<string> {
    const response = await fetch(`${server!.url}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...as },
      body: JSON.stringify({ prompt }),
    });
    const body = (await response.json()) as { content: string };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body.content;
  }

  it("reads files of the merchant's own directory, <DATA_DIR>/tool-files/merchants/<id> by default", async () => {
    expect(await ask('read notes.txt')).toContain('shop notes for the model');
  });

  it("never reaches another merchant's files, however the path is spelled", async () => {
    const shopDir = merchantToolFilesDir(join(root, 'data', 'tool-files'), 'file-tools-shop');
    for (const path of ['notes.txt', 'merchants/file-tools-shop/notes.txt', '../file-tools-shop/notes.txt', join(shopDir, 'notes.txt'), '../../notes.txt']) {
      const answer = await ask(`read ${path}`, otherAuth);
      expect(answer).toContain('"success":false');
      expect(answer).not.toContain('shop notes');
    }
  });

  it('keeps an id such as .. inside the merchants directory', () => {
    const base = join(root, 'data', 'tool-files');
    for (const id of ['..', '.', 'a/../..', 'a%2F..']) expect(merchantToolFilesDir(base, id).startsWith(join(base, 'merchants', ''))).toBe(true);
    expect(merchantToolFilesDir(base, '..')).not.toBe(join(base, 'merchants', '..'));
  });

  it('never reaches .env or DATA_DIR, however the path is spelled', async () => {
    const jwtSecret = readFileSync(join(root, 'data', 'jwt-secret'), 'utf8').trim();
    expect(jwtSecret.length).toBeGreaterThan(0);
    for (const path of ['.env', '../../.env', join(root, '.env'), '../jwt-secret', join(root, 'data', 'jwt-secret'), '../state']) {
      const answer = await ask(`read ${path}`);
      expect(answer).toContain('"success":false');
      expect(answer).not.toContain(dotenvSecret);
      expect(answer).not.toContain(jwtSecret);
    }
  });
});
