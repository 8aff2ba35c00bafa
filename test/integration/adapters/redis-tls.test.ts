import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../cli/create-runtime.js';
import { loadConfig } from '../../../src/config/load-config.js';
import type { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import { envOf, type SecureServices, secureServices } from './secure-services.js';
import { runtimeStartFailure } from '../../helpers/runtime-start-failure.js';
import { jobRoundTrip } from '../../helpers/job-round-trip.js';

/**
 * Issue 28: the composition root reaches Redis over TLS as an ACL user (deploy/local/secure-services.sh:
 * rediss:// on 127.0.0.1:16440 unless SECURE_BASE_PORT moved it, user `default` disabled), for the state store and the BullMQ queue
 * alike; a refused password or an untrusted certificate stops the start naming the variable.
 */
describe('Redis over TLS with an ACL user', () => {
  let services: SecureServices;
  const runtimes: Runtime[] = [];
  const silent = pino({ level: 'silent' });

  beforeAll(async () => {
    services = await secureServices();
  });
  afterAll(async () => {
    for (const runtime of runtimes) await runtime.close();
  });

  function config(overrides: Record<string, string | undefined>) {
    return loadConfig({
      ...envOf(services, 'REDIS_'),
      REDIS_KEY_PREFIX: `sytls-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}:`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'sytest-redis-tls-')),
      ...overrides,
    });
  }

  /** The server as the messages name it: rediss://127.0.0.1:<port> (16440 unless SECURE_BASE_PORT moved it). */
  function server(): string {
    return services.env['REDIS_URL']!;
  }
  /** `server()` inside a RegExp. */
  function serverPattern(): string {
    return server().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }

  function startFailure(overrides: Record<string, string | undefined>): Promise<SwitchyardError> {
    return runtimeStartFailure(config(overrides), { analytics: false });
  }

  it('runs the state store and the job queue as the ACL user over TLS', async () => {
    const runtime = await createRuntime(config({}), silent, { analytics: false });
    runtimes.push(runtime);
    expect(runtime.mode).toMatchObject({ state: 'redis', jobs: 'bullmq' });
    expect(await runtime.state.probe()).toEqual({ ok: true });
    await runtime.state.sessions.revokeToken('jti-tls', Date.now() + 60_000);
    expect(await runtime.state.sessions.isTokenRevoked('jti-tls')).toBe(true);
    expect(await runtime.state.sessions.isTokenRevoked('jti-other')).toBe(false);

    expect(await jobRoundTrip(runtime.jobs, 'tls-smoke', 'tls:1', { over: 'tls' })).toEqual({ over: 'tls' });
  });

  it('takes the user and password from the rediss:// URL too, and a client certificate', async () => {
    const url = new URL(services.env['REDIS_URL']!);
    url.username = services.env['REDIS_USERNAME']!;
    url.password = services.env['REDIS_PASSWORD']!;
    const runtime = await createRuntime(
      config({
        REDIS_URL: url.toString(),
        REDIS_USERNAME: undefined,
        REDIS_PASSWORD: undefined,
        REDIS_TLS_CERT_FILE: join(services.tlsDir, 'client.pem'),
        REDIS_TLS_KEY_FILE: join(services.tlsDir, 'client.key'),
      }),
      silent,
      { analytics: false },
    );
    runtimes.push(runtime);
    expect(await runtime.state.probe()).toEqual({ ok: true });
  });

  it('stops the start naming REDIS_PASSWORD when the password is refused, without the password', async () => {
    const error = await startFailure({ REDIS_PASSWORD: 'not-the-password-x1' });
    expect(error.code).toBe('SY_CONFIG_INVALID');
    expect(error.message).toBe(`REDIS_PASSWORD: authentication failed for user switchyard at ${server()}`);
    expect(JSON.stringify({ message: error.message, details: error.details, cause: String(error.cause) })).not.toContain('not-the-password-x1');
  });

  it('names REDIS_URL when the refused password came in the URL', async () => {
    const url = new URL(services.env['REDIS_URL']!);
    url.username = 'switchyard';
    url.password = 'wrong-in-url';
    const error = await startFailure({ REDIS_URL: url.toString(), REDIS_USERNAME: undefined, REDIS_PASSWORD: undefined });
    expect(error.message).toBe(`REDIS_URL: authentication failed for user switchyard at ${server()}`);
  });

  it('names REDIS_PASSWORD when no credentials are given and the default user is disabled', async () => {
    const error = await startFailure({ REDIS_USERNAME: undefined, REDIS_PASSWORD: undefined });
    expect(error.message).toMatch(new RegExp(`^REDIS_PASSWORD: the server at ${serverPattern()} requires authentication`));
  });

  it('stops the start naming REDIS_TLS_CA_FILE when the server certificate is not signed by that CA', async () => {
    const error = await startFailure({ REDIS_TLS_CA_FILE: join(services.tlsDir, 'other-ca.pem') });
    expect(error.code).toBe('SY_CONFIG_INVALID');
    expect(error.message).toMatch(new RegExp(`^REDIS_TLS_CA_FILE: certificate verify failed \\([A-Z_]+\\) for ${serverPattern()}`));
  });

  it('names REDIS_TLS_CA_FILE when no CA is given and no system CA signed the certificate', async () => {
    const error = await startFailure({ REDIS_TLS_CA_FILE: undefined });
    expect(error.message).toMatch(/^REDIS_TLS_CA_FILE: certificate verify failed .*set REDIS_TLS_CA_FILE/);
  });

  it('refuses to start before connecting when the CA file cannot be read', async () => {
    const error = await startFailure({ REDIS_TLS_CA_FILE: join(services.tlsDir, 'missing-ca.pem') });
    expect(error.message).toMatch(/REDIS_TLS_CA_FILE cannot read .*missing-ca\.pem \(ENOENT\)/);
  });
});
