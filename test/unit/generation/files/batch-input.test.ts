import { describe, expect, it } from 'vitest';
import { parseBatchInput } from '../../../../src/generation/files/batch-input.js';

const encode = (text: string) => new TextEncoder().encode(text);
const line = (customId: string, overrides: Record<string, unknown> = {}) =>
  JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: [] }, ...overrides });

function refusal(text: string, maxLines = 10): { message: string; details: unknown } {
  try {
    parseBatchInput(encode(text), maxLines);
  } catch (error) {
    return { message: (error as Error).message, details: (error as { details?: unknown }).details };
  }
  throw new Error('the input was accepted');
}

describe('batch input file', () => {
  it('reads one request per non-blank line, with or without a final line break', () => {
    expect(parseBatchInput(encode(`${line('a')}\n\n${line('b', { url: '/v1/embeddings' })}`), 10).map((entry) => [entry.custom_id, entry.url])).toEqual([
      ['a', '/v1/chat/completions'],
      ['b', '/v1/embeddings'],
    ]);
  });

  it('names the first bad line and its field', () => {
    expect(refusal(`${line('a')}\n${line('a')}`)).toEqual({
      message: expect.stringMatching(/^line 2: custom_id "a" is used/),
      details: { param: 'custom_id', line: 2 },
    });
    expect(refusal(line('a', { method: 'GET' })).details).toEqual({ param: 'method', line: 1 });
    expect(refusal(line('a', { url: '/v1/moderations' })).details).toEqual({ param: 'url', line: 1 });
    expect(refusal(line('a', { body: [] })).details).toEqual({ param: 'body', line: 1 });
    expect(refusal(line('a', { body: { messages: [] } })).details).toEqual({ param: 'body.model', line: 1 });
    expect(refusal(line('a', { body: { model: 'm', stream: true } })).details).toEqual({ param: 'body.stream', line: 1 });
    expect(refusal(`${line('a')}\n[1]`).details).toEqual({ param: 'file', line: 2 });
    expect(refusal(`${line('a')}\n{oops`).message).toBe('line 2: is not valid JSON');
    expect(refusal(line('')).details).toEqual({ param: 'custom_id', line: 1 });
  });

  it('refuses an empty file, one past the line limit, and bytes that are not UTF-8', () => {
    expect(refusal('\n \n').message).toMatch(/at least one request/);
    expect(refusal([line('a'), line('b'), line('c')].join('\n'), 2).message).toMatch(/at most 2 requests/);
    expect(() => parseBatchInput(new Uint8Array([0xff, 0xfe, 0x00]), 10)).toThrow(/UTF-8/);
  });
});
