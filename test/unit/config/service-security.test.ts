import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../cli/config-report.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { resolveServiceSecurity } from '../../../src/config/service-security.js';
import { explainStartFailure, securityFailureOf } from '../../../src/config/service-start-failure.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';

const dir = mkdtempSync(join(tmpdir(), 'sytest-service-security-'));
// Removed here too: a run outside `make test` (no per-run TMPDIR) would leave it behind.
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const certPem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const keyPem = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';
const file = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const ca = file('ca.pem', certPem);
const cert = file('client.pem', certPem);
const key = file('client.key', keyPem);
const notPem = file('not-pem.txt', 'hello');

function resolve(env: Record<string, string>) {
  return resolveServiceSecurity(loadConfig(env));
}

/** The problems a bad environment is refused with (each names its variable). */
function problems(env: Record<string, string>): string[] {
  try {
    resolve(env);
  } catch (error) {
    expect(SwitchyardError.isInstance(error)).toBe(true);
    expect((error as SwitchyardError).code).toBe('SY_CONFIG_INVALID');
    return (error as SwitchyardError).details?.['problems'] as string[];
  }
  throw new Error('the environment was accepted');
}

describe('service TLS and credentials from the environment', () => {
  it('resolves nothing for embedded mode', () => {
    expect(resolve({})).toEqual({});
  });

  describe('Redis', () => {
    it('reads the CA, client certificate and key of a rediss:// URL, and the ACL user from REDIS_USERNAME / REDIS_PASSWORD', () => {
      const security = resolve({
        REDIS_URL: 'rediss://r:6380',
        REDIS_USERNAME: 'app',
        REDIS_PASSWORD: 'pw',
        REDIS_TLS_CA_FILE: ca,
        REDIS_TLS_CERT_FILE: cert,
        REDIS_TLS_KEY_FILE: key,
      });
      expect(security.redis).toEqual({
        username: 'app',
        password: 'pw',
        tls: { ca: Buffer.from(certPem), cert: Buffer.from(certPem), key: Buffer.from(keyPem) },
        passwordVariable: 'REDIS_PASSWORD',
      });
    });

    it('takes the user and password from the URL, decoded, when the variables are unset; TLS with the system CAs', () => {
      expect(resolve({ REDIS_URL: 'rediss://app:p%40ss@r:6380' }).redis).toEqual({ username: 'app', password: 'p@ss', tls: {}, passwordVariable: 'REDIS_URL' });
      expect(resolve({ REDIS_URL: 'rediss://app:url-pw@r:6380', REDIS_PASSWORD: 'env-pw' }).redis).toMatchObject({
        password: 'env-pw',
        passwordVariable: 'REDIS_PASSWORD',
      });
    });

    it('has no TLS for redis://', () => {
      expect(resolve({ REDIS_URL: 'redis://r:6379', REDIS_PASSWORD: 'pw' }).redis).toEqual({ password: 'pw', passwordVariable: 'REDIS_PASSWORD' });
    });

    it('applies to a cluster given by REDIS_CLUSTER_NODES alone', () => {
      expect(resolve({ REDIS_CLUSTER_NODES: 'a:7000,b:7001', REDIS_PASSWORD: 'pw' }).redis).toMatchObject({ password: 'pw' });
    });

    it('refuses TLS files for redis://, a certificate without its key, unreadable and non-PEM files, each by name', () => {
      expect(problems({ REDIS_URL: 'redis://r:6379', REDIS_TLS_CA_FILE: ca })).toEqual(['REDIS_TLS_CA_FILE needs TLS: REDIS_URL must start with rediss://']);
      expect(problems({ REDIS_URL: 'rediss://r:6380', REDIS_TLS_CERT_FILE: cert })).toEqual([
        'REDIS_TLS_KEY_FILE must be set with REDIS_TLS_CERT_FILE (a client certificate needs its key)',
      ]);
      expect(problems({ REDIS_URL: 'rediss://r:6380', REDIS_TLS_CA_FILE: join(dir, 'nope.pem') })).toEqual([
        `REDIS_TLS_CA_FILE cannot read ${join(dir, 'nope.pem')} (ENOENT)`,
      ]);
      expect(problems({ REDIS_URL: 'rediss://r:6380', REDIS_TLS_CA_FILE: notPem })).toEqual([`REDIS_TLS_CA_FILE ${notPem} holds no PEM certificate`]);
      expect(problems({ REDIS_URL: 'rediss://r:6380', REDIS_TLS_CERT_FILE: cert, REDIS_TLS_KEY_FILE: cert })).toEqual([
        `REDIS_TLS_KEY_FILE ${cert} holds no PEM private key`,
      ]);
    });

    it('refuses a user without a password and settings without a Redis', () => {
      expect(problems({ REDIS_URL: 'redis://r:6379', REDIS_USERNAME: 'app' })).toEqual([
        'REDIS_PASSWORD must be set with REDIS_USERNAME (or give the password in REDIS_URL)',
      ]);
      expect(problems({ REDIS_PASSWORD: 'pw', REDIS_TLS_CA_FILE: ca })).toEqual([
        'REDIS_PASSWORD is set but neither REDIS_URL nor REDIS_CLUSTER_NODES is',
        'REDIS_TLS_CA_FILE is set but neither REDIS_URL nor REDIS_CLUSTER_NODES is',
      ]);
    });
  });

  describe('Kafka', () => {
    const brokers = { KAFKA_BROKERS: 'k1:9093,k2:9093' };
    it('defaults to PLAINTEXT', () => {
      expect(resolve(brokers).kafka).toEqual({ protocol: 'PLAINTEXT' });
    });

    it.each(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const)('SASL_SSL with %s, the CA and a client certificate', (mechanism) => {
      const security = resolve({
        ...brokers,
        KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
        KAFKA_SASL_MECHANISM: mechanism,
        KAFKA_SASL_USERNAME: 'app',
        KAFKA_SASL_PASSWORD: 'pw',
        KAFKA_TLS_CA_FILE: ca,
        KAFKA_TLS_CERT_FILE: cert,
        KAFKA_TLS_KEY_FILE: key,
      });
      expect(security.kafka).toEqual({
        protocol: 'SASL_SSL',
        tls: { ca: Buffer.from(certPem), cert: Buffer.from(certPem), key: Buffer.from(keyPem) },
        sasl: { mechanism, username: 'app', password: 'pw' },
      });
    });

    it('SSL with the system CAs, SASL_PLAINTEXT without TLS', () => {
      expect(resolve({ ...brokers, KAFKA_SECURITY_PROTOCOL: 'SSL' }).kafka).toEqual({ protocol: 'SSL', tls: {} });
      expect(
        resolve({ ...brokers, KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT', KAFKA_SASL_MECHANISM: 'PLAIN', KAFKA_SASL_USERNAME: 'a', KAFKA_SASL_PASSWORD: 'b' })
          .kafka,
      ).toEqual({ protocol: 'SASL_PLAINTEXT', sasl: { mechanism: 'PLAIN', username: 'a', password: 'b' } });
    });

    it('refuses unknown protocols and mechanisms by name', () => {
      expect(() => resolve({ ...brokers, KAFKA_SECURITY_PROTOCOL: 'TLS' })).toThrow(
        /KAFKA_SECURITY_PROTOCOL \(kafkaSecurityProtocol\) must be equal to one of the allowed values/,
      );
      expect(() => resolve({ ...brokers, KAFKA_SECURITY_PROTOCOL: 'SASL_SSL', KAFKA_SASL_MECHANISM: 'GSSAPI' })).toThrow(
        /KAFKA_SASL_MECHANISM \(kafkaSaslMechanism\) must be equal to one of the allowed values/,
      );
    });

    it('refuses SASL without its settings, SASL or TLS settings the protocol does not use, and settings without brokers', () => {
      expect(problems({ ...brokers, KAFKA_SECURITY_PROTOCOL: 'SASL_SSL', KAFKA_SASL_USERNAME: 'app' })).toEqual([
        'KAFKA_SASL_MECHANISM is required with KAFKA_SECURITY_PROTOCOL=SASL_SSL',
        'KAFKA_SASL_PASSWORD is required with KAFKA_SECURITY_PROTOCOL=SASL_SSL',
      ]);
      expect(problems({ ...brokers, KAFKA_SASL_MECHANISM: 'PLAIN', KAFKA_TLS_CA_FILE: ca })).toEqual([
        'KAFKA_SASL_MECHANISM is set but KAFKA_SECURITY_PROTOCOL=PLAINTEXT uses no SASL (use SASL_SSL or SASL_PLAINTEXT)',
        'KAFKA_TLS_CA_FILE is set but KAFKA_SECURITY_PROTOCOL=PLAINTEXT uses no TLS (use SSL or SASL_SSL)',
      ]);
      expect(problems({ ...brokers, KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_TLS_KEY_FILE: key, KAFKA_TLS_CA_FILE: join(dir, 'gone.pem') })).toEqual([
        'KAFKA_TLS_CERT_FILE must be set with KAFKA_TLS_KEY_FILE (a client certificate needs its key)',
        `KAFKA_TLS_CA_FILE cannot read ${join(dir, 'gone.pem')} (ENOENT)`,
      ]);
      expect(problems({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SASL_PASSWORD: 'pw' })).toEqual([
        'KAFKA_SASL_PASSWORD is set but KAFKA_BROKERS is not',
        'KAFKA_SECURITY_PROTOCOL is set but KAFKA_BROKERS is not',
      ]);
    });
  });

  describe('ClickHouse', () => {
    it('https:// with CLICKHOUSE_USER / CLICKHOUSE_PASSWORD and the CA', () => {
      expect(resolve({ CLICKHOUSE_URL: 'https://ch:8443', CLICKHOUSE_USER: 'app', CLICKHOUSE_PASSWORD: 'pw', CLICKHOUSE_TLS_CA_FILE: ca }).clickhouse).toEqual({
        url: 'https://ch:8443',
        username: 'app',
        password: 'pw',
        passwordVariable: 'CLICKHOUSE_PASSWORD',
        tls: { caCert: Buffer.from(certPem) },
      });
    });

    it('takes credentials out of the URL, decoded; mutual TLS with the client certificate', () => {
      expect(
        resolve({ CLICKHOUSE_URL: 'https://app:p%2Fw@ch:8443', CLICKHOUSE_TLS_CA_FILE: ca, CLICKHOUSE_TLS_CERT_FILE: cert, CLICKHOUSE_TLS_KEY_FILE: key })
          .clickhouse,
      ).toEqual({
        url: 'https://ch:8443',
        username: 'app',
        password: 'p/w',
        passwordVariable: 'CLICKHOUSE_URL',
        tls: { caCert: Buffer.from(certPem), cert: Buffer.from(certPem), key: Buffer.from(keyPem) },
      });
    });

    it('plain http with the defaults; https with the system CAs', () => {
      expect(resolve({ CLICKHOUSE_URL: 'http://ch:8123' }).clickhouse).toEqual({
        url: 'http://ch:8123',
        username: 'default',
        password: '',
        passwordVariable: 'CLICKHOUSE_PASSWORD',
      });
      expect(resolve({ CLICKHOUSE_URL: 'https://ch:8443' }).clickhouse).not.toHaveProperty('tls');
    });

    it('refuses TLS files for http://, a client certificate without a CA, a password given twice, settings without a URL', () => {
      expect(problems({ CLICKHOUSE_URL: 'http://ch:8123', CLICKHOUSE_TLS_CA_FILE: ca })).toEqual([
        'CLICKHOUSE_TLS_CA_FILE needs TLS: CLICKHOUSE_URL must start with https://',
      ]);
      expect(problems({ CLICKHOUSE_URL: 'https://ch:8443', CLICKHOUSE_TLS_CERT_FILE: cert, CLICKHOUSE_TLS_KEY_FILE: key })).toEqual([
        'CLICKHOUSE_TLS_CA_FILE must be set with CLICKHOUSE_TLS_CERT_FILE (the ClickHouse client takes a client certificate only with a CA)',
      ]);
      expect(problems({ CLICKHOUSE_URL: 'https://u:a@ch:8443', CLICKHOUSE_PASSWORD: 'b' })).toEqual([
        'CLICKHOUSE_PASSWORD is set and CLICKHOUSE_URL carries a password too: give it once',
      ]);
      expect(problems({ CLICKHOUSE_TLS_CA_FILE: ca })).toEqual(['CLICKHOUSE_TLS_CA_FILE is set but CLICKHOUSE_URL is not']);
    });
  });

  it('reports every problem at once and never a password', () => {
    const list = problems({ REDIS_URL: 'redis://:hunter2@r:6379', REDIS_TLS_CA_FILE: ca, KAFKA_BROKERS: 'k:9092', KAFKA_SASL_PASSWORD: 'sekret-pw' });
    expect(list).toHaveLength(2);
    expect(list.join(' ')).not.toMatch(/hunter2|sekret-pw/);
  });
});

describe('start-up failures of the services, named by variable', () => {
  const tlsError = (code: string) => Object.assign(new Error(`tls: ${code}`), { code });

  it('finds TLS and authentication failures through causes and aggregated errors', () => {
    expect(securityFailureOf(new Error('outer', { cause: tlsError('SELF_SIGNED_CERT_IN_CHAIN') }))).toEqual({
      kind: 'certificate',
      reason: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(securityFailureOf(new AggregateError([new Error('x'), tlsError('ERR_TLS_CERT_ALTNAME_INVALID')]))).toEqual({
      kind: 'hostname',
      reason: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
    expect(securityFailureOf(tlsError('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'))).toMatchObject({ kind: 'client-certificate' });
    expect(securityFailureOf(tlsError('ERR_SSL_WRONG_VERSION_NUMBER'))).toMatchObject({ kind: 'handshake' });
    expect(securityFailureOf(new Error('Code: 193, e.displayText() = DB::Exception: Wrong password for user app'))).toMatchObject({ kind: 'authentication' });
    expect(securityFailureOf(Object.assign(new Error('Failed to refresh slots cache.'), { lastNodeError: tlsError('CERT_HAS_EXPIRED') }))).toEqual({
      kind: 'certificate',
      reason: 'CERT_HAS_EXPIRED',
    });
    expect(securityFailureOf(new Error('connect ECONNREFUSED 127.0.0.1:6379'))).toBeUndefined();
    expect(securityFailureOf('not an error')).toBeUndefined();
  });

  it('names the variable to fix, never the password', () => {
    const redis = { username: 'app', password: 'hunter2', passwordVariable: 'REDIS_PASSWORD' as const, tls: {} };
    const refused = explainStartFailure(
      { service: 'redis', security: redis, where: 'rediss://r:6380' },
      new Error('WRONGPASS invalid username-password pair or user is disabled.'),
    );
    expect(refused?.message).toBe('REDIS_PASSWORD: authentication failed for user app at rediss://r:6380');
    expect(JSON.stringify(refused?.details)).not.toContain('hunter2');

    const kafka = { protocol: 'SASL_SSL' as const, tls: {}, sasl: { mechanism: 'SCRAM-SHA-256' as const, username: 'x', password: 'pw' } };
    const sasl = Object.assign(new Error('SASL authentication failed.'), { code: 'PLT_KFK_AUTHENTICATION' });
    expect(explainStartFailure({ service: 'kafka', security: kafka, where: '127.0.0.1:9094' }, new Error('wrapped', { cause: sasl }))?.message).toBe(
      'KAFKA_SASL_PASSWORD: SASL authentication failed for user x (SCRAM-SHA-256) at 127.0.0.1:9094',
    );
    expect(explainStartFailure({ service: 'kafka', security: { protocol: 'PLAINTEXT' }, where: 'k:9092' }, sasl)?.message).toMatch(
      /^KAFKA_SECURITY_PROTOCOL: /,
    );
    expect(explainStartFailure({ service: 'kafka', security: kafka, where: 'k:9093' }, tlsError('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'))?.message).toMatch(
      /^KAFKA_TLS_CERT_FILE: the server at k:9093 requires a client certificate/,
    );

    const ch = {
      url: 'https://ch:8443',
      username: 'app',
      password: 'pw',
      passwordVariable: 'CLICKHOUSE_PASSWORD' as const,
      tls: { caCert: Buffer.from(certPem) },
    };
    expect(explainStartFailure({ service: 'clickhouse', security: ch, where: ch.url }, tlsError('UNABLE_TO_VERIFY_LEAF_SIGNATURE'))?.message).toBe(
      'CLICKHOUSE_TLS_CA_FILE: certificate verify failed (UNABLE_TO_VERIFY_LEAF_SIGNATURE) for https://ch:8443: the server certificate is not signed by that CA',
    );
    expect(explainStartFailure({ service: 'clickhouse', security: ch, where: ch.url }, tlsError('ERR_SSL_WRONG_VERSION_NUMBER'))?.message).toMatch(
      /^CLICKHOUSE_URL: TLS handshake/,
    );
    expect(explainStartFailure({ service: 'redis', security: redis, where: 'r' }, new Error('connect ECONNREFUSED'))).toBeUndefined();
  });

  it('names KAFKA_TLS_CERT_FILE when a TLS broker closed every connection of a client without a certificate', () => {
    // What @platformatic/kafka reports when a broker requiring mutual TLS refuses under TLS 1.3.
    const closed = () => Object.assign(new Error('Connection closed'), { code: 'PLT_KFK_NETWORK' });
    const attempts = (leaf: () => Error) => new AggregateError([new AggregateError([leaf(), leaf()], 'listApis failed 2 times.')], 'metadata failed.');
    const unreachable = new Error('event bus unreachable at k:9093', { cause: attempts(closed) });
    const ssl = { protocol: 'SSL' as const, tls: {} };
    expect(explainStartFailure({ service: 'kafka', security: ssl, where: 'k:9093' }, unreachable)?.message).toBe(
      'KAFKA_TLS_CERT_FILE: the server at k:9093 requires a client certificate (every TLS connection closed by the broker); set KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE',
    );
    // Not with a certificate given, not without TLS, not for a broker that is down.
    const withCertificate = { protocol: 'SSL' as const, tls: { cert: Buffer.from(certPem), key: Buffer.from(keyPem) } };
    expect(explainStartFailure({ service: 'kafka', security: withCertificate, where: 'k:9093' }, unreachable)).toBeUndefined();
    expect(explainStartFailure({ service: 'kafka', security: { protocol: 'PLAINTEXT' }, where: 'k:9092' }, unreachable)).toBeUndefined();
    const refused = () => Object.assign(new Error('Connection refused'), { code: 'PLT_KFK_NETWORK' });
    expect(explainStartFailure({ service: 'kafka', security: ssl, where: 'k:9093' }, new Error('unreachable', { cause: attempts(refused) }))).toBeUndefined();
  });
});

describe('switchyard config validate', () => {
  it('lists the TLS and credential problems a start would refuse, each naming its variable', async () => {
    const io = {
      stdout: { write: () => undefined },
      stderr: { write: () => undefined },
      readStdin: async () => '',
      stdinIsTty: false,
      stderrIsTty: false,
      cwd: dir,
      env: { REDIS_URL: 'rediss://r:6380', REDIS_TLS_CA_FILE: join(dir, 'absent.pem'), KAFKA_BROKERS: 'k:9093', KAFKA_SECURITY_PROTOCOL: 'SASL_SSL' },
    };
    const report = await validateConfig(io);
    expect(report.valid).toBe(false);
    expect(report.errors).toEqual(
      expect.arrayContaining([
        `REDIS_TLS_CA_FILE cannot read ${join(dir, 'absent.pem')} (ENOENT)`,
        'KAFKA_SASL_MECHANISM is required with KAFKA_SECURITY_PROTOCOL=SASL_SSL',
        'KAFKA_SASL_USERNAME is required with KAFKA_SECURITY_PROTOCOL=SASL_SSL',
        'KAFKA_SASL_PASSWORD is required with KAFKA_SECURITY_PROTOCOL=SASL_SSL',
      ]),
    );
  });
});
