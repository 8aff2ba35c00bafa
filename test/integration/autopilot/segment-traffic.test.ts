import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChdbAnalyticsStore } from '../../../src/adapters/chdb/chdb-analytics-store.js';
import { createClickHouseServerAnalyticsStore } from '../../../src/adapters/clickhouse/clickhouse-server-analytics-store.js';
import { createClickHouseServerExecutor } from '../../../src/adapters/clickhouse/clickhouse-server-executor.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';
import { cardPayment, upiPayment } from '../../fixtures/payment-dimensions.js';
import { decisionTraffic } from '../../helpers/autopilot-traffic.js';

/**
 * The autopilot's reads (AnalyticsStore.segmentTraffic, merchantsWithDecisions) give the same
 * answers on ClickHouse 18.16 and chDB: volume and distinct gateways per segment, split only by the
 * dimensions asked for, within [since, until), a re-inserted batch counted once, per merchant.
 */

const clickhouseUrl = process.env['CLICKHOUSE_URL'] ?? 'http://127.0.0.1:8123';
const t0 = Date.UTC(2026, 10, 20, 12, 0, 0);

const engines: readonly (readonly [string, () => { store: AnalyticsStore; teardown: () => Promise<void> }])[] = [
  [
    `ClickHouse server at ${clickhouseUrl}`,
    () => {
      const database = `switchyard_test_${randomBytes(6).toString('hex')}`;
      const store = createClickHouseServerAnalyticsStore({ url: clickhouseUrl, database });
      return {
        store,
        teardown: async () => {
          const executor = createClickHouseServerExecutor({ url: clickhouseUrl });
          await executor.command(`DROP DATABASE IF EXISTS ${database}`);
          await executor.close();
          await store.close();
        },
      };
    },
  ],
  [
    'chDB',
    () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'sytest-segments-'));
      const store = createChdbAnalyticsStore({ path: dataDir, database: 'switchyard_analytics' });
      return {
        store,
        teardown: async () => {
          await store.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  ],
];

describe.each(engines)('autopilot segment traffic on %s', (_name, open) => {
  let engine: ReturnType<typeof open>;

  beforeAll(async () => {
    engine = open();
    await engine.store.migrate();
    const rows = mapEventsToAnalyticsRows([
      ...decisionTraffic('m-seg-a', 120, ['stripe', 'adyen', 'checkout'], t0),
      ...decisionTraffic('m-seg-a', 30, ['razorpay'], t0, upiPayment),
      ...decisionTraffic('m-seg-a', 40, ['stripe', 'adyen'], t0, { ...cardPayment, currency: 'EUR' }, 'eur'),
      // Outside the window: an hour before.
      ...decisionTraffic('m-seg-a', 50, ['stripe', 'adyen'], t0 - 3_600_000, cardPayment, 'old'),
      ...decisionTraffic('m-seg-b', 10, ['stripe', 'adyen'], t0),
    ]);
    await engine.store.insert(rows);
    await engine.store.insert(rows); // a retried batch: counted once
  }, 120_000);

  afterAll(async () => {
    await engine?.teardown();
  });

  it('counts decisions and distinct gateways per payment-method type and method', async () => {
    const segments = await engine.store.segmentTraffic({ merchantId: 'm-seg-a', sinceMs: t0 - 1000, untilMs: t0 + 60_000, dimensions: [] });
    expect(segments).toEqual([
      { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardNetwork: null, currency: null, country: null, authType: null, volume: 160, gateways: 3 },
      { paymentMethodType: 'UPI', paymentMethod: 'UPI_PAY', cardNetwork: null, currency: null, country: null, authType: null, volume: 30, gateways: 1 },
    ]);
  });

  it('splits by the dimensions asked for only', async () => {
    const segments = await engine.store.segmentTraffic({
      merchantId: 'm-seg-a',
      sinceMs: t0 - 1000,
      untilMs: t0 + 60_000,
      dimensions: ['currency', 'card_network'],
    });
    expect(segments.map((s) => [s.paymentMethodType, s.currency, s.cardNetwork, s.country, s.volume, s.gateways])).toEqual([
      ['CARD', 'USD', 'VISA', null, 120, 3],
      ['CARD', 'EUR', 'VISA', null, 40, 2],
      ['UPI', 'INR', null, null, 30, 1],
    ]);
  });

  it('keeps to the window and the merchant', async () => {
    const older = await engine.store.segmentTraffic({ merchantId: 'm-seg-a', sinceMs: t0 - 3_600_000, untilMs: t0, dimensions: [] });
    expect(older).toEqual([
      { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardNetwork: null, currency: null, country: null, authType: null, volume: 50, gateways: 2 },
    ]);
    const other = await engine.store.segmentTraffic({ merchantId: 'm-seg-b', sinceMs: t0 - 1000, untilMs: t0 + 60_000, dimensions: [] });
    expect(other.map((s) => s.volume)).toEqual([10]);
    expect(await engine.store.merchantsWithDecisions(t0 - 1000, t0 + 60_000)).toEqual(['m-seg-a', 'm-seg-b']);
    expect(await engine.store.merchantsWithDecisions(t0 - 3_600_000, t0)).toEqual(['m-seg-a']);
    expect(await engine.store.merchantsWithDecisions(t0 + 60_000, t0 + 120_000)).toEqual([]);
  });
});
