import { describe, expect, it } from 'vitest';
import { envNameOf, loadConfig } from '../../../src/config/load-config.js';

describe('loadConfig', () => {
  it('fills every default from schemas/config.json when the environment is empty', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, dataDir: './data', adminSecretHeader: 'x-admin-secret', jwtTtlSeconds: 86400, embeddedWorkers: true });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('coerces numbers and booleans from their variables', () => {
    expect(loadConfig({ PORT: '9090', EMBEDDED_WORKERS: 'false' })).toMatchObject({ port: 9090, embeddedWorkers: false });
  });

  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT \(port\)/);
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
  });

  it('checks experiment guardrails every 60 s unless EXPERIMENT_GUARDRAIL_INTERVAL_SECONDS says otherwise (at least 1)', () => {
    expect(loadConfig({}).experimentGuardrailIntervalSeconds).toBe(60);
    expect(loadConfig({ EXPERIMENT_GUARDRAIL_INTERVAL_SECONDS: '5' }).experimentGuardrailIntervalSeconds).toBe(5);
    expect(() => loadConfig({ EXPERIMENT_GUARDRAIL_INTERVAL_SECONDS: '0' })).toThrow(
      /EXPERIMENT_GUARDRAIL_INTERVAL_SECONDS \(experimentGuardrailIntervalSeconds\)/,
    );
  });

  it('bounds the embedded bus at 200,000 events unless EMBEDDED_BUS_MAX_EVENTS says otherwise (at least 1)', () => {
    expect(loadConfig({}).embeddedBusMaxEvents).toBe(200_000);
    expect(loadConfig({ EMBEDDED_BUS_MAX_EVENTS: '5000' }).embeddedBusMaxEvents).toBe(5000);
    expect(() => loadConfig({ EMBEDDED_BUS_MAX_EVENTS: '0' })).toThrow(/EMBEDDED_BUS_MAX_EVENTS \(embeddedBusMaxEvents\)/);
  });

  it('maps camelCase properties to UPPER_SNAKE variables', () => {
    expect(envNameOf('clickhouseUrl')).toBe('CLICKHOUSE_URL');
    expect(envNameOf('jwtTtlSeconds')).toBe('JWT_TTL_SECONDS');
  });
});
