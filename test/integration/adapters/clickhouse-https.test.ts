import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../cli/create-runtime.js';
import { createClickHouseServerExecutor } from '../../../src/adapters/clickhouse/clickhouse-server-executor.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { resolveServiceSecurity } from '../../../src/config/service-security.js';
import type { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import type { CostSettlementRow } from '../../../src/ports/analytics/cost-rows.js';
import { envOf, type SecureServices, secureServices } from './secure-services.js';
import { runtimeStartFailure } from '../../helpers/runtime-start-failure.js';

/**
 * Issue 28: the composition root's analytics on ClickHouse 18.16 over HTTPS as a user with a password
 * (deploy/local/secure-services.sh): the migrations run, a row is inserted and read back; a refused
 * password or an untrusted certificate stops the start naming the variable.
 */
describe('ClickHouse over HTTPS with a password', () => {
  let services: SecureServices;
  const silent = pino({ level: 'silent' });
  const databases: string[] = [];

  beforeAll(async () => {
    services = await secureServices();
  });

  afterAll(async () => {
    if (services === undefined) return;
    const server = resolveServiceSecurity(loadConfig(envOf(services, 'CLICKHOUSE_'))).clickhouse!;
    const executor = createClickHouseServerExecutor(server);
    try {
      for (const database of databases) await executor.command(`DROP DATABASE IF EXISTS ${database}`);
    } finally {
      await executor.close();
    }
  });

  function config(overrides: Record<string, string | undefined>) {
    const database = `switchyard_tls_${randomBytes(6).toString('hex')}`;
    databases.push(database);
    return loadConfig({
      ...envOf(services, 'CLICKHOUSE_'),
      CLICKHOUSE_DATABASE: database,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'sytest-ch-https-')),
      ...overrides,
    });
  }

  async function startFailure(overrides: Record<string, string | undefined>): Promise<SwitchyardError> {
    return runtimeStartFailure(config(overrides));
  }

  function row(ingestionId: string): CostSettlementRow {
    return {
      merchantId: 'm-https',
      ingestionId,
      line: 2,
      connector: 'adyen',
      account: 'AcmeUS',
      txnRef: '881600000001',
      cardNetwork: 'visa',
      variant: 'visacredit',
      funding: 'credit',
      issuerCountry: 'us',
      currency: 'usd',
      icCategory: 'us consumer credit',
      txnDate: '2026-06-01',
      gross: 10,
      totalFee: 0.28,
      interchange: 0.14,
      schemeFee: 0.03,
      markup: 0.03,
      commission: 0.08,
      ingestedAtMs: Date.now(),
    };
  }

  async function insertAndCount(runtime: Runtime): Promise<void> {
    expect(runtime.mode.analytics).toBe('clickhouse');
    const ingestionId = randomUUID();
    await runtime.costRows!.insertRows([row(ingestionId)]);
    expect(await runtime.costRows!.countRows('m-https', ingestionId)).toBe(1);
    expect(await runtime.costRows!.countRows('m-https', randomUUID())).toBe(0);
  }

  it('migrates, inserts and queries over HTTPS as the user of CLICKHOUSE_USER / CLICKHOUSE_PASSWORD', async () => {
    const runtime = await createRuntime(config({}), silent);
    try {
      await insertAndCount(runtime);
    } finally {
      await runtime.close();
    }
  });

  it('takes the user and password from the https:// URL too', async () => {
    const url = new URL(services.env['CLICKHOUSE_URL']!);
    url.username = services.env['CLICKHOUSE_USER']!;
    url.password = services.env['CLICKHOUSE_PASSWORD']!;
    const runtime = await createRuntime(config({ CLICKHOUSE_URL: url.toString(), CLICKHOUSE_USER: undefined, CLICKHOUSE_PASSWORD: undefined }), silent);
    try {
      await insertAndCount(runtime);
    } finally {
      await runtime.close();
    }
  });

  it('stops the start naming CLICKHOUSE_PASSWORD when the password is refused, without the password', async () => {
    const error = await startFailure({ CLICKHOUSE_PASSWORD: 'not-the-password-c1' });
    expect(error.code).toBe('SY_CONFIG_INVALID');
    expect(error.message).toBe(`CLICKHOUSE_PASSWORD: authentication failed for user switchyard at ${services.env['CLICKHOUSE_URL']}`);
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain('not-the-password-c1');
  });

  it('stops the start naming CLICKHOUSE_TLS_CA_FILE when the certificate is not signed by that CA', async () => {
    const error = await startFailure({ CLICKHOUSE_TLS_CA_FILE: join(services.tlsDir, 'other-ca.pem') });
    expect(error.message).toMatch(/^CLICKHOUSE_TLS_CA_FILE: certificate verify failed \([A-Z_]+\) for https:\/\/127\.0\.0\.1:\d+/);
  });
});
