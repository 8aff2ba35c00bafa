import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPdf } from '../../fixtures/documents/tiny-pdf.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../../fixtures/providers/openai-wire.js';
import { cliWorkDir, runSwitchyard, removeCliWorkDirs } from '../../helpers/cli-harness.js';

/** Issue 26: `generate`/`stream --file <path>` (repeatable) sends PDF and CSV documents as `files`. */

function userText(request: RecordedRequest): string {
  const body = request.body as { messages: { role: string; content: unknown }[] };
  const content = body.messages.filter((message) => message.role === 'user').at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

let provider: FakeHttpServer;
let env: Record<string, string>;
afterAll(removeCliWorkDirs);

beforeAll(async () => {
  provider = await startFakeHttpServer((request) => {
    const body = request.body as { model: string; stream?: boolean };
    if (body.stream === true) return chatCompletionStream({ model: body.model, deltas: ['read ', 'it'] });
    return chatCompletion({ model: body.model, content: 'read it' });
  });
  env = { OPENAI_API_KEY: 'sk-cli-files', OPENAI_BASE_URL: `${provider.url}/v1` };
});
afterAll(async () => provider.close());

describe('--file', () => {
  it('generate sends a CSV and a PDF (typed by extension and by content) ahead of the prompt', async () => {
    const cwd = cliWorkDir();
    writeFileSync(join(cwd, 'stock.csv'), 'sku,qty\nA-1,3\n');
    writeFileSync(join(cwd, 'invoice'), tinyPdf('Invoice 4711 total 99 EUR'));
    const before = provider.requests.length;
    const result = await runSwitchyard(['generate', 'Summarise', '--file', 'stock.csv', '--file', 'invoice', '--disable-tools', '--provider', 'openai'], {
      env,
      cwd,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('read it\n');
    const sent = userText(provider.requests[before] as RecordedRequest);
    expect(sent).toContain('<document name="stock.csv" type="CSV, 2 row(s) × 2 column(s)">\nsku,qty\nA-1,3\n</document>');
    expect(sent).toContain('Invoice 4711 total 99 EUR');
    expect(sent.endsWith('Summarise')).toBe(true);
  });

  it('stream takes --file too', async () => {
    const cwd = cliWorkDir();
    writeFileSync(join(cwd, 'numbers.csv'), 'a,b\n1,2\n');
    const before = provider.requests.length;
    const result = await runSwitchyard(['stream', 'What is in it?', '--file', 'numbers.csv', '--disable-tools', '--provider', 'openai'], { env, cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('read it');
    expect(userText(provider.requests[before] as RecordedRequest)).toContain('a,b\n1,2');
  });

  it('refuses other types, missing files and unreadable documents clearly, without a provider call', async () => {
    const cwd = cliWorkDir();
    writeFileSync(join(cwd, 'notes.txt'), 'plain text');
    writeFileSync(join(cwd, 'broken.pdf'), 'this is not a pdf');
    const before = provider.requests.length;
    const other = await runSwitchyard(['generate', 'x', '--file', 'notes.txt', '--disable-tools'], { env, cwd });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('--file notes.txt: only PDF (.pdf) and CSV (.csv) files are taken');
    const missing = await runSwitchyard(['generate', 'x', '--file', 'gone.csv', '--disable-tools'], { env, cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--file gone\.csv: .*ENOENT/);
    const broken = await runSwitchyard(['generate', 'x', '--file', 'broken.pdf', '--disable-tools', '--provider', 'openai'], { env, cwd });
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toMatch(/files\[0\] \(broken\.pdf\) is not a readable PDF/);
    expect(provider.requests.length).toBe(before);
  });
});
