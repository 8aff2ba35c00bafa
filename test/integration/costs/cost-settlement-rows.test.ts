import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCostIngestion } from '../../../cli/create-cost-ingestion.js';
import { createChdbAnalytics } from '../../../src/adapters/chdb/chdb-analytics-store.js';
import {
  createClickHouseServerAnalyticsStore,
  createClickHouseServerCostRowStore,
} from '../../../src/adapters/clickhouse/clickhouse-server-analytics-store.js';
import { createClickHouseServerExecutor } from '../../../src/adapters/clickhouse/clickhouse-server-executor.js';
import { createMemoryStateStore } from '../../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';
import type { CostRowStore, CostSettlementRow } from '../../../src/ports/analytics/cost-rows.js';
import { createManualClock } from '../../../src/time/clock.js';

// The server from deploy/local (or CI). No skip when it is down: the suite must fail then.
const url = process.env['CLICKHOUSE_URL'] ?? 'http://127.0.0.1:8123';
const fixture = readFileSync(new URL('../../fixtures/cost-ingestion/adyen-settlement-report.csv', import.meta.url));

interface Engine {
  readonly analytics: AnalyticsStore;
  readonly rows: CostRowStore;
  teardown(): Promise<void>;
}

async function* bytes(data: Buffer): AsyncGenerator<Uint8Array> {
  // In 16 KiB pieces, as a request body arrives: records straddle chunk boundaries.
  for (let offset = 0; offset < data.length; offset += 16_384) yield data.subarray(offset, offset + 16_384);
}

function describeCostRows(name: string, open: () => Promise<Engine>): void {
  describe(`cost settlement rows on ${name}`, () => {
    let engine: Engine;
    beforeAll(async () => {
      engine = await open();
      await engine.analytics.migrate();
    });
    afterAll(async () => engine.teardown());

    it('stores an uploaded report once, survives a retried batch, and tombstones a deleted ingestion', async () => {
      const clock = createManualClock(Date.UTC(2026, 6, 1));
      const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
      const spool = await mkdtemp(join(tmpdir(), 'sytest-cost-spool-'));
      const { service, jobs } = createCostIngestion({ configs: state.configs, rows: engine.rows, spoolDirectory: spool, clock, logger: silentLogger });
      try {
        const accepted = await service.upload({ merchantId: 'm-int', connector: 'adyen', account: 'AcmeUS', body: bytes(fixture) });
        expect(accepted).toMatchObject({ kind: 'accepted', status: 'processing', existing: false });
        const id = accepted.kind === 'accepted' ? accepted.id : '';
        await jobs.drain();
        const [record] = await service.history('m-int');
        expect(record).toMatchObject({ id, status: 'completed', stagedRows: 300, lastError: null });
        expect(await engine.rows.countRows('m-int', id)).toBe(300);

        // A batch written again (a retry after a timeout) collapses on the row key.
        const retried: CostSettlementRow = {
          merchantId: 'm-int',
          ingestionId: id,
          line: 2,
          connector: 'adyen',
          account: 'AcmeUS',
          txnRef: '881600000000',
          cardNetwork: 'visa',
          variant: 'visacredit',
          funding: 'credit',
          issuerCountry: 'us',
          currency: 'usd',
          icCategory: "us consumer credit\t'quoted'",
          txnDate: '2026-06-01',
          gross: 10,
          totalFee: 0.28,
          interchange: 0.14,
          schemeFee: 0.03,
          markup: 0.03,
          commission: 0.08,
          ingestedAtMs: clock.now(),
        };
        await engine.rows.insertRows([retried]);
        await engine.rows.insertRows([retried]);
        expect(await engine.rows.countRows('m-int', id)).toBe(300);

        expect(await service.remove('m-int', id)).toBe('deleted');
        expect(await engine.rows.countRows('m-int', id)).toBe(0);
        expect(await service.history('m-int')).toEqual([]);
        expect((await state.configs.get('m-int', 'costModel'))?.clusters).toEqual([]);
      } finally {
        await state.close();
        await rm(spool, { recursive: true, force: true });
      }
    });
  });
}

describeCostRows(`ClickHouse server at ${url}`, async () => {
  const database = `switchyard_test_${randomBytes(6).toString('hex')}`;
  const analytics = createClickHouseServerAnalyticsStore({ url, database });
  const rows = createClickHouseServerCostRowStore({ url, database });
  return {
    analytics,
    rows,
    async teardown() {
      await rows.close();
      await analytics.close();
      const executor = createClickHouseServerExecutor({ url });
      await executor.command(`DROP DATABASE IF EXISTS ${database}`);
      await executor.close();
    },
  };
});

describeCostRows('chDB (worker thread, temp folder)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-chdb-cost-'));
  const chdb = createChdbAnalytics({ path: dir, database: 'switchyard_analytics', logger: silentLogger });
  return {
    analytics: chdb.store,
    rows: chdb.costRows,
    async teardown() {
      await chdb.store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
