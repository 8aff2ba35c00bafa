import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { InvalidRequestError } from '../../../src/index.js';
import { type FakeHttpServer, type RecordedRequest, startFakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { dataUrl, tinyPdf } from '../../fixtures/documents/tiny-pdf.js';

/*
 * Issue 26: PDF and CSV documents beside images (`files`). The PDF is built by the fixture, a real
 * one-page PDF 1.4 with a Helvetica text line and a correct cross-reference table; its text must
 * reach the provider (the OpenAI adapter against a local fake of its wire).
 */

function userText(request: RecordedRequest): string {
  const body = request.body as { messages: { role: string; content: unknown }[] };
  const last = body.messages.filter((message) => message.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
}

let provider: FakeHttpServer;
const workDir = mkdtempSync(join(tmpdir(), 'toolkit-documents-'));
beforeAll(async () => {
  provider = await startFakeHttpServer((request) => chatCompletion({ model: (request.body as { model: string }).model, content: 'read it' }));
});
afterAll(async () => {
  await provider.close();
  rmSync(workDir, { recursive: true, force: true });
});

const toolkit = () => new DefaultNeuroLink({ cwd: workDir, env: { OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${provider.url}/v1` }, builtInTools: [] });

describe('PDF and CSV files', () => {
  it('sends the text of a PDF and of a CSV ahead of the prompt', async () => {
    const before = provider.requests.length;
    const result = await toolkit().generate({
      input: { text: 'Summarise both documents.' },
      provider: 'openai',
      files: [
        dataUrl('application/pdf', tinyPdf('Invoice 4711 total 99 EUR')),
        { data: new Uint8Array(Buffer.from('sku,qty\r\nA-1,3\r\n"B,2",5\r\n')), mimeType: 'text/csv', name: 'stock.csv' },
      ],
    });
    expect(result.content).toBe('read it');
    const sent = userText(provider.requests[before] as RecordedRequest);
    expect(sent).toContain('Invoice 4711 total 99 EUR');
    expect(sent).toContain('type="PDF, 1 page(s)"');
    expect(sent).toContain('<document name="stock.csv" type="CSV, 3 row(s) × 2 column(s)">\nsku,qty\nA-1,3\n"B,2",5\n</document>');
    expect(sent.endsWith('Summarise both documents.')).toBe(true);
    expect(sent.indexOf('Invoice 4711')).toBeLessThan(sent.indexOf('sku,qty'));
  });

  it('streams with files too', async () => {
    const before = provider.requests.length;
    const result = await toolkit().stream({ input: { text: 'What is in it?' }, provider: 'openai', files: [dataUrl('text/csv', 'a,b\n1,2\n')] });
    for await (const _chunk of result.stream) {
      // drain
    }
    expect(userText(provider.requests[before] as RecordedRequest)).toContain('a,b\n1,2');
  });

  it('refuses a file that is not a PDF, naming it, before any provider call', async () => {
    const before = provider.requests.length;
    const error = await toolkit()
      .generate({ input: { text: 'x' }, provider: 'openai', files: [dataUrl('text/csv', 'a\n'), dataUrl('application/pdf', 'this is not a pdf')] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ option: 'files[1]' });
    expect((error as Error).message).toMatch(/files\[1\] \(file 2\) is not a readable PDF/);
    expect(provider.requests.length).toBe(before);
  });

  it('refuses malformed CSV, other types, too many and too large files', async () => {
    const call = (files: unknown) =>
      toolkit()
        .generate({ input: { text: 'x' }, provider: 'openai', files: files as never })
        .then(
          () => new InvalidRequestError('the call was accepted', 'test'),
          (caught: unknown) => caught as InvalidRequestError,
        );
    expect((await call([dataUrl('text/csv', 'a,b\n1,"2\n')])).message).toMatch(/files\[0\] \(file 1\) is not valid CSV: Quote Not Closed/);
    expect(await call([dataUrl('text/html', '<p>')])).toMatchObject({ option: 'files[0]' });
    expect(await call([{ data: new Uint8Array(3), mimeType: 'image/png' }])).toMatchObject({ option: 'files[0].mimeType' });
    expect(await call(Array.from({ length: 11 }, () => dataUrl('text/csv', 'a\n')))).toMatchObject({ option: 'files' });
    expect((await call([{ data: new Uint8Array(10 * 1024 * 1024 + 1), mimeType: 'application/pdf' }])).message).toMatch(/at most 10485760 \(10 MiB\)/);
    expect(await call('not a list')).toMatchObject({ option: 'files' });
  });
});
