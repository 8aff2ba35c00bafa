import { describe, expect, it } from 'vitest';
import { adminSecretMinLength, assertAdminSecretStrength, isDistributedMode } from '../../../src/config/admin-secret-strength.js';
import { loadConfig } from '../../../src/config/load-config.js';

const strong = 'k'.repeat(adminSecretMinLength);

describe('assertAdminSecretStrength', () => {
  it('lets embedded development run on the default and on short secrets', () => {
    expect(() => assertAdminSecretStrength(loadConfig({}))).not.toThrow();
    expect(() => assertAdminSecretStrength(loadConfig({ ADMIN_SECRET: 'short', NODE_ENV: 'development' }))).not.toThrow();
  });

  it('refuses the default test_admin with NODE_ENV=production, naming ADMIN_SECRET and the way out', () => {
    expect(() => assertAdminSecretStrength(loadConfig({ NODE_ENV: 'production' }))).toThrow(
      expect.objectContaining({
        code: 'SY_CONFIG_INVALID',
        message:
          "ADMIN_SECRET (adminSecret) is the built-in default 'test_admin', refused with NODE_ENV=production: set ADMIN_SECRET to a random value of at least 32 characters (e.g. openssl rand -hex 32)",
        details: { variable: 'ADMIN_SECRET', reason: 'default' },
      }),
    );
  });

  it('refuses a secret one character short in distributed mode, whichever URL makes it distributed', () => {
    for (const env of [{ REDIS_URL: 'redis://r:6379' }, { KAFKA_BROKERS: 'k:9092' }, { CLICKHOUSE_URL: 'http://c:8123' }]) {
      const config = loadConfig({ ...env, ADMIN_SECRET: strong.slice(1) });
      expect(() => assertAdminSecretStrength(config)).toThrow(/^ADMIN_SECRET \(adminSecret\) is 31 characters, refused with distributed mode/);
    }
  });

  it('accepts 32 characters in production and distributed mode', () => {
    expect(() => assertAdminSecretStrength(loadConfig({ NODE_ENV: 'production', REDIS_URL: 'redis://r:6379', ADMIN_SECRET: strong }))).not.toThrow();
  });

  it('calls a process distributed when any port has a URL', () => {
    expect(isDistributedMode(loadConfig({}))).toBe(false);
    expect(isDistributedMode(loadConfig({ CLICKHOUSE_URL: 'http://c:8123' }))).toBe(true);
  });
});

describe('loadConfig: TRUST_PROXY and CORS_ORIGINS', () => {
  it('reads TRUST_PROXY as a boolean, false by default, or keeps an address list as written', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toBe('10.0.0.0/8, loopback');
  });

  it('refuses a TRUST_PROXY that is not an address list, naming the variable', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'proxy one' })).toThrow(/TRUST_PROXY \(trustProxy\)/);
  });

  it('takes exact origins in CORS_ORIGINS and refuses a wildcard or a path', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins).toBe('https://a.example, http://localhost:5173');
    expect(loadConfig({}).corsOrigins).toBeUndefined();
    for (const bad of ['*', 'https://a.example/app', 'a.example']) expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS \(corsOrigins\)/);
  });
});
