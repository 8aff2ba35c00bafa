import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataUrl, tinyPdf } from '../fixtures/documents/tiny-pdf.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 26 on the HTTP surface: /api/generate and /api/stream take `files` (PDF/CSV), `output.format`
 * without a schema and `evaluation` (threshold, passed), mapped to the toolkit as the service makes it,
 * against a local fake speaking OpenAI's Chat Completions wire.
 */

interface ChatBody {
  readonly model: string;
  readonly stream?: boolean;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

function textOf(request: RecordedRequest, role: 'user' | 'system'): string {
  const body = request.body as ChatBody;
  const roles = role === 'system' ? ['system', 'developer'] : ['user'];
  const found = [...body.messages].reverse().filter((message) => roles.includes(message.role));
  const content = (role === 'user' ? found.slice(0, 1) : found).map((message) => message.content);
  return content.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('\n');
}

function answer(request: RecordedRequest) {
  const body = request.body as ChatBody;
  const text = textOf(request, 'user');
  if (text.includes("You are grading an AI assistant's answer")) {
    return chatCompletion({
      model: body.model,
      content: JSON.stringify({ relevance: 6, accuracy: 6, completeness: 6, overall: 6, isOffTopic: false, reasoning: 'fair' }),
    });
  }
  const content = textOf(request, 'system').includes('JSON') ? '{"total":99,"currency":"EUR"}' : 'read it';
  if (body.stream === true) return chatCompletionStream({ model: body.model, deltas: [content], usage: { promptTokens: 5, completionTokens: 3 } });
  return chatCompletion({ model: body.model, content, usage: { promptTokens: 5, completionTokens: 3 } });
}

let provider: FakeHttpServer;
beforeAll(async () => {
  provider = await startFakeHttpServer(answer);
});
afterAll(async () => provider.close());

describe('documents, output.format and evaluation over HTTP', () => {
  let t: TestApp;
  let key: string;

  beforeEach(async () => {
    t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-docs-fake', OPENAI_BASE_URL: `${provider.url}/v1` } });
    key = (await createMerchant(t.app, 'docs-shop')).apiKey;
  });
  afterEach(async () => t.close());

  const post = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, headers: withKey(key), payload });
  const base = { provider: 'openai', disableTools: true };

  it('sends the extracted text of a PDF (data URL) and a CSV ({data, mimeType, name}) to the provider', async () => {
    const before = provider.requests.length;
    const response = await post('/api/generate', {
      ...base,
      input: { text: 'Summarise both documents.' },
      files: [
        dataUrl('application/pdf', tinyPdf('Invoice 4711 total 99 EUR')),
        { data: Buffer.from('sku,qty\r\nA-1,3\r\n"B,2",5\r\n').toString('base64'), mimeType: 'text/csv', name: 'stock.csv' },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: true, content: 'read it' });
    expect(provider.requests.length).toBe(before + 1);
    const sent = textOf(provider.requests[before] as RecordedRequest, 'user');
    expect(sent).toContain('Invoice 4711 total 99 EUR');
    expect(sent).toContain('type="PDF, 1 page(s)"');
    expect(sent).toContain('<document name="stock.csv" type="CSV, 3 row(s) × 2 column(s)">\nsku,qty\nA-1,3\n"B,2",5\n</document>');
    expect(sent.endsWith('Summarise both documents.')).toBe(true);
  });

  it('streams with a CSV file too', async () => {
    const before = provider.requests.length;
    const response = await post('/api/stream', { ...base, input: { text: 'What is in it?' }, files: [dataUrl('text/csv', 'a,b\n1,2\n')] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain('"type":"complete"');
    expect(textOf(provider.requests[before] as RecordedRequest, 'user')).toContain('a,b\n1,2');
  });

  it('takes a body over the app-wide 1 MiB limit on these routes (three 400 kB CSVs, 1.6 MB encoded)', async () => {
    const before = provider.requests.length;
    const csv = `n,v\n${`${'x'.repeat(400)},1\n`.repeat(1000)}`;
    const files = [dataUrl('text/csv', csv), dataUrl('text/csv', csv), dataUrl('text/csv', csv)];
    const response = await post('/api/generate', { ...base, input: { text: 'Count the rows.' }, files });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(textOf(provider.requests[before] as RecordedRequest, 'user')).toContain('CSV, 1001 row(s) × 2 column(s)');
  });

  it('refuses a body over the 24 MiB route limit with 413', async () => {
    const response = await post('/api/generate', { ...base, input: { text: 'x' }, files: [`data:text/csv;base64,${'QQ=='.repeat(6.5 * 1024 * 1024)}`] });
    expect(response.statusCode).toBe(413);
  });

  it('answers 400 naming files[0] for a file that is not a readable PDF, before any provider call', async () => {
    const before = provider.requests.length;
    const response = await post('/api/generate', { ...base, input: { text: 'x' }, files: [dataUrl('application/pdf', 'this is not a pdf')] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'INVALID_REQUEST', option: 'files[0]' });
    expect(response.json().error).toMatch(/files\[0\] \(file 1\) is not a readable PDF/);
    expect(provider.requests.length).toBe(before);
  });

  it('answers 400 naming the file for other types, bad base64 and malformed CSV, on /api/stream too', async () => {
    const html = await post('/api/generate', { ...base, input: { text: 'x' }, files: [dataUrl('text/html', '<p>')] });
    expect(html.statusCode).toBe(400);
    expect(html.json()).toMatchObject({ option: 'files[0]' });
    const type = await post('/api/generate', { ...base, input: { text: 'x' }, files: [{ data: 'AAAA', mimeType: 'image/png' }] });
    expect(type.statusCode).toBe(400);
    expect(type.json()).toMatchObject({ option: 'files[0].mimeType' });
    const notBase64 = await post('/api/generate', { ...base, input: { text: 'x' }, files: [{ data: 'not base64!', mimeType: 'text/csv' }] });
    expect(notBase64.statusCode).toBe(400);
    expect(notBase64.json()).toMatchObject({ option: 'files[0].data' });
    const csv = await post('/api/stream', { ...base, input: { text: 'x' }, files: [dataUrl('text/csv', 'a\n'), dataUrl('text/csv', 'a,b\n1,"2\n')] });
    expect(csv.statusCode).toBe(400);
    expect(csv.json().error).toMatch(/files\[1\] \(file 2\) is not valid CSV/);
  });

  it('refuses more than 10 files and unknown file fields by the request schema (422)', async () => {
    const many = await post('/api/generate', { ...base, input: { text: 'x' }, files: Array.from({ length: 11 }, () => dataUrl('text/csv', 'a\n')) });
    expect(many.statusCode).toBe(422);
    expect(many.body).toMatch(/files/);
    const extra = await post('/api/generate', { ...base, input: { text: 'x' }, files: [{ data: 'AAAA', mimeType: 'text/csv', path: '/etc/passwd' }] });
    expect(extra.statusCode).toBe(422);
  });

  it('output.format json without a schema answers the parsed object', async () => {
    const before = provider.requests.length;
    const response = await post('/api/generate', { ...base, input: { text: 'The invoice total as JSON.' }, output: { format: 'json' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().object).toEqual({ total: 99, currency: 'EUR' });
    expect(textOf(provider.requests[before] as RecordedRequest, 'system')).toContain('JSON');
    const text = await post('/api/generate', { ...base, input: { text: 'Plain please.' }, output: { format: 'text' } });
    expect(text.json()).not.toHaveProperty('object');
    const bad = await post('/api/generate', { ...base, input: { text: 'x' }, output: { format: 'yaml' } });
    expect(bad.statusCode).toBe(422);
  });

  it('evaluation.threshold is held to and the answer says threshold and passed', async () => {
    const strict = await post('/api/generate', { ...base, input: { text: 'capital of France' }, enableEvaluation: true });
    expect(strict.statusCode, strict.body).toBe(200);
    expect(strict.json().evaluation).toMatchObject({ overall: 6, threshold: 7, passed: false });
    const lenient = await post('/api/generate', { ...base, input: { text: 'capital of France' }, enableEvaluation: true, evaluation: { threshold: 5.5 } });
    expect(lenient.json().evaluation).toMatchObject({ overall: 6, threshold: 5.5, passed: true });
    const outOfRange = await post('/api/generate', { ...base, input: { text: 'x' }, enableEvaluation: true, evaluation: { threshold: 11 } });
    expect(outOfRange.statusCode).toBe(422);
  });
});
