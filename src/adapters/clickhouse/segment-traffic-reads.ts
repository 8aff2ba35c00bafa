import { analyticsFlows } from '../../analytics/analytics-flows.js';
import type { AnalyticsStore } from '../../ports/analytics-store.js';
import type { SegmentTraffic } from '../../ports/analytics/segment-traffic.js';
import type { SqlValue } from './bind-sql.js';
import { merchantsWithDecisionsSql, segmentTrafficSql } from './sql/segment-traffic-sql.js';

type Read = <T>(sql: string, params: Readonly<Record<string, SqlValue>>) => Promise<T[]>;

interface SegmentRow {
  readonly payment_method_type: string;
  readonly payment_method: string;
  readonly seg_card_network: string;
  readonly seg_currency: string;
  readonly seg_country: string;
  readonly seg_auth_type: string;
  readonly volume: number | string;
  readonly gateways: number | string;
}

/** The autopilot asks about at most this many merchants per run (a bound, not a page). */
const merchantLimit = 100_000;

/** `[sinceMs, untilMs)` as the inclusive millisecond and second bounds windowWhere takes. */
function windowParams(sinceMs: number, untilMs: number) {
  const endMs = Math.max(sinceMs, untilMs - 1);
  return { start_ms: sinceMs, end_ms: endMs, start_s: Math.floor(sinceMs / 1000), end_s: Math.floor(endMs / 1000) };
}

const orNull = (value: string): string | null => (value === '' ? null : value);

/** The autopilot's two reads (segment traffic, merchants with decisions) over either ClickHouse engine. */
export function segmentTrafficReads(read: Read, database: string): Pick<AnalyticsStore, 'segmentTraffic' | 'merchantsWithDecisions'> {
  return {
    async segmentTraffic(query) {
      const rows = await read<SegmentRow>(segmentTrafficSql, {
        database,
        merchant_id: query.merchantId,
        ...windowParams(query.sinceMs, query.untilMs),
        decision_flow: analyticsFlows.decision,
        dims: query.dimensions,
      });
      return rows.map(
        (row): SegmentTraffic => ({
          paymentMethodType: row.payment_method_type,
          paymentMethod: row.payment_method,
          cardNetwork: orNull(row.seg_card_network),
          currency: orNull(row.seg_currency),
          country: orNull(row.seg_country),
          authType: orNull(row.seg_auth_type),
          volume: Number(row.volume),
          gateways: Number(row.gateways),
        }),
      );
    },

    async merchantsWithDecisions(sinceMs, untilMs) {
      const rows = await read<{ merchant_id: string }>(merchantsWithDecisionsSql, {
        database,
        ...windowParams(sinceMs, untilMs),
        decision_flow: analyticsFlows.decision,
        limit: merchantLimit,
      });
      return rows.map((row) => row.merchant_id);
    },
  };
}
