import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jwtSecretPath, resolveTokenConfig } from '../../../cli/resolve-token-config.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { silentLogger } from '../../../src/logging/logger.js';

describe('resolveTokenConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchyard-jwt-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('uses JWT_SECRET when it is set, without touching the data directory', async () => {
    const secret = 'x'.repeat(40);
    const tokens = await resolveTokenConfig(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret, JWT_TTL_SECONDS: '3600' }), silentLogger);
    expect(tokens).toMatchObject({ secret, algorithms: ['HS256'], issuer: 'switchyard', audience: 'switchyard-dashboard', ttlSeconds: 3600 });
    expect(() => statSync(join(dataDir, 'jwt-secret'))).toThrow();
  });

  it('generates a secret once in embedded mode, keeps it mode 0600 and reuses it on the next start', async () => {
    const config = loadConfig({ DATA_DIR: join(dataDir, 'nested') });
    const first = await resolveTokenConfig(config, silentLogger);
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(statSync(jwtSecretPath(config)).mode & 0o777).toBe(0o600);
    const second = await resolveTokenConfig(config, silentLogger);
    expect(second.secret).toBe(first.secret);
  });

  it('refuses to start in distributed mode without JWT_SECRET, naming the variable', async () => {
    await expect(resolveTokenConfig(loadConfig({ DATA_DIR: dataDir, REDIS_URL: 'redis://127.0.0.1:6379' }), silentLogger)).rejects.toMatchObject({
      code: 'SY_CONFIG_INVALID',
      message: expect.stringContaining('JWT_SECRET (jwtSecret) is required when REDIS_URL is set'),
    });
  });

  it('refuses a stored secret that is too short rather than sign with it', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    writeFileSync(jwtSecretPath(config), 'short\n', { mode: 0o600 });
    await expect(resolveTokenConfig(config, silentLogger)).rejects.toMatchObject({ code: 'SY_CONFIG_INVALID' });
    expect(readFileSync(jwtSecretPath(config), 'utf8')).toBe('short\n');
  });

  it('tightens a stored secret readable by others to 0600', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    writeFileSync(jwtSecretPath(config), `${'s'.repeat(64)}\n`, { mode: 0o644 });
    expect((await resolveTokenConfig(config, silentLogger)).secret).toBe('s'.repeat(64));
    expect(statSync(jwtSecretPath(config)).mode & 0o777).toBe(0o600);
  });
});
