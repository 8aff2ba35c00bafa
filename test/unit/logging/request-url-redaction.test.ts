import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../cli/create-logger.js';
import { redactUrl } from '../../../src/logging/redact-url.js';

describe('request URLs in logs', () => {
  it('redacts the values of secret query parameters only', () => {
    expect(redactUrl('/auth/verify-email?token=abc_DEF-123')).toBe('/auth/verify-email?token=[redacted]');
    expect(redactUrl('/x?a=1&code=xyz&b=2#frag')).toBe('/x?a=1&code=[redacted]&b=2#frag');
    expect(redactUrl('/analytics/decisions?range=1h&token_count=3')).toBe('/analytics/decisions?range=1h&token_count=3');
    expect(redactUrl('/auth/me')).toBe('/auth/me');
  });

  it("keeps a one-time token out of fastify's request log lines with the root logger", async () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        chunks.push(String(chunk));
        callback();
      },
    });
    const app = Fastify({ loggerInstance: createLogger({ logLevel: 'info' }, stream) });
    app.get('/auth/verify-email', async () => ({ message: 'ok' }));
    const secret = 'Zq3v9-one-time-token_ABCDEFGH';
    const response = await app.inject({ method: 'GET', url: `/auth/verify-email?token=${secret}&lang=en` });
    expect(response.statusCode).toBe(200);
    await app.close();
    const lines = chunks
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string; method?: string } });
    const incoming = lines.find((line) => line.msg === 'incoming request');
    expect(incoming?.req).toMatchObject({ method: 'GET', url: '/auth/verify-email?token=[redacted]&lang=en' });
    expect(chunks.join('')).not.toContain(secret);
  });
});
