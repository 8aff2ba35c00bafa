import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../cli/create-logger.js';

function sink(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('root logger redaction', () => {
  it('censors credentials, passwords, keys and tokens wherever the redact list names them', () => {
    const out = sink();
    const log = createLogger({ logLevel: 'info' }, out.stream);
    log.info(
      {
        req: { headers: { authorization: 'Bearer eyJhbGciOi', 'x-api-key': 'DE_abc', 'x-admin-secret': 'top', cookie: 'c=1' } },
        password: 'hunter2hunter2',
        user: { password: 'p', apiKey: 'k', token: 't' },
        api_key: 'DE_raw',
        providerKey: 'sk-123',
      },
      'login attempt',
    );
    const [line] = out.lines();
    const text = JSON.stringify(line);
    for (const secret of ['eyJhbGciOi', 'DE_abc', 'top', 'c=1', 'hunter2hunter2', '"k"', '"t"', 'DE_raw', 'sk-123']) expect(text).not.toContain(secret);
    expect(line).toMatchObject({ password: '[redacted]', api_key: '[redacted]', msg: 'login attempt' });
  });
});
