import { analyticsFlows } from '../../analytics/analytics-flows.js';
import { stalenessHorizonMs } from '../../analytics/routing-events/detect-leader-changes.js';
import { shapeRoutingEventsReport } from '../../analytics/routing-events/shape-routing-events-report.js';
import type { AnalyticsStore } from '../../ports/analytics-store.js';
import type { CalibrationRunFact, ScoreBucketFact } from '../../ports/analytics/routing-events.js';
import type { SqlValue } from './bind-sql.js';
import { calibrationRunsSql, scoreBucketsSql } from './sql/routing-events-sql.js';

type Read = <T>(sql: string, params: Readonly<Record<string, SqlValue>>) => Promise<T[]>;
type Row = Readonly<Record<string, string | number | null>>;

/** Numbers as numbers: the server may answer 64-bit integers as strings. */
const numberOf = (value: string | number | null | undefined): number | null => {
  if (value === null || value === undefined) return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
};

/**
 * The routing-events read over any ClickHouse executor (server or chDB), same SQL for both. The
 * scores are read from one staleness horizon before the window, so the first bucket in the window
 * knows its leader and does not report a change that happened earlier.
 */
export function routingEventsReads(read: Read, database: string): Pick<AnalyticsStore, 'routingEvents'> {
  return {
    async routingEvents(query) {
      const window = (startMs: number) => ({
        database,
        merchant_id: query.merchantId,
        start_ms: startMs,
        end_ms: query.endMs,
        start_s: Math.floor(startMs / 1000),
        end_s: Math.floor(query.endMs / 1000),
      });
      const lookbackStartMs = Math.max(0, query.startMs - stalenessHorizonMs(query.bucketMs));
      const [points, calibrations] = await Promise.all([
        read<Row>(scoreBucketsSql, {
          ...window(lookbackStartMs),
          bucket: query.bucketMs,
          snapshot_flows: analyticsFlows.snapshots,
          f_payment_method_type: query.paymentMethodType ?? '',
          f_payment_method: query.paymentMethod ?? '',
        }),
        read<Row>(calibrationRunsSql, { ...window(query.startMs), calibration_flow: analyticsFlows.calibration, applied_status: 'applied' }),
      ]);
      return shapeRoutingEventsReport(query, {
        points: points.map(
          (row): ScoreBucketFact => ({
            bucketMs: numberOf(row['bucket_ms']) ?? 0,
            paymentMethodType: String(row['payment_method_type'] ?? ''),
            paymentMethod: String(row['payment_method'] ?? ''),
            gateway: String(row['gateway'] ?? ''),
            score: numberOf(row['score_value']) ?? 0,
            transactionCount: numberOf(row['transaction_count']),
          }),
        ),
        calibrations: calibrations.map(
          (row): CalibrationRunFact => ({ createdAtMs: numberOf(row['created_at_ms']) ?? 0, details: String(row['details'] ?? '') }),
        ),
      });
    },
  };
}
