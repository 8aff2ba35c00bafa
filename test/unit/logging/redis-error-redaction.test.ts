import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../cli/create-logger.js';

describe('root logger and Redis client errors', () => {
  it('censors the arguments of the command an ioredis error carries (a refused AUTH holds the password)', () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        chunks.push(String(chunk));
        callback();
      },
    });
    const log = createLogger({ logLevel: 'debug' }, stream);
    const refused = Object.assign(new Error('WRONGPASS invalid username-password pair or user is disabled.'), {
      command: { name: 'auth', args: ['switchyard', 'hunter2-redis'] },
    });
    log.debug({ err: refused }, 'state store connection error');
    log.warn({ error: refused }, 'other shape');
    const text = chunks.join('');
    expect(text).not.toContain('hunter2-redis');
    expect(text).toContain('WRONGPASS');
    expect(text.match(/"args":"\[redacted\]"/g)).toHaveLength(2);
  });
});
