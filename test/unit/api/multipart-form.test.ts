import { describe, expect, it } from 'vitest';
import { boundaryOf, MultipartError, parseMultipartForm } from '../../../api/wire/multipart-form.js';

function form(boundary: string, parts: readonly string[]): Buffer {
  return Buffer.from(`${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('')}--${boundary}--\r\n`);
}

describe('multipart form', () => {
  it('reads the boundary of a form-data content type, quoted or not, and nothing else', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc123')).toBe('abc123');
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
    expect(boundaryOf('application/json')).toBeUndefined();
    expect(boundaryOf('multipart/form-data')).toBeUndefined();
    expect(boundaryOf(undefined)).toBeUndefined();
  });

  it('splits fields and file parts, keeping file bytes as sent (line breaks and the boundary text inside included)', () => {
    const content = '{"a":1}\r\n{"b":"--xyz not a delimiter"}\n';
    const body = form('xyz', [
      'Content-Disposition: form-data; name="purpose"\r\n\r\nbatch',
      `Content-Disposition: form-data; name="file"; filename="in \\"q\\".jsonl"\r\nContent-Type: application/jsonl\r\n\r\n${content}`,
    ]);
    const parsed = parseMultipartForm(body, 'xyz');
    expect(parsed.fields.get('purpose')).toBe('batch');
    const file = parsed.files.get('file');
    expect(file?.filename).toBe('in "q".jsonl');
    expect(file?.contentType).toBe('application/jsonl');
    expect(file?.content.toString('utf8')).toBe(content);
  });

  it('refuses a body without its boundary, cut short, or with a part lacking headers', () => {
    expect(() => parseMultipartForm(Buffer.from('no parts here'), 'xyz')).toThrow(MultipartError);
    expect(() => parseMultipartForm(Buffer.from('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue'), 'xyz')).toThrow(/closing boundary/);
    expect(() => parseMultipartForm(Buffer.from('--xyz\r\nContent-Disposition: form-data; name="a"'), 'xyz')).toThrow(/end of headers/);
    expect(() => parseMultipartForm(Buffer.from('--xyzjunk'), 'xyz')).toThrow(/line break/);
  });
});
