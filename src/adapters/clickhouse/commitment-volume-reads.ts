import type { AnalyticsStore } from '../../ports/analytics-store.js';
import type { CommitmentDayVolume } from '../../ports/analytics/commitment-volume.js';
import type { SqlValue } from './bind-sql.js';
import { commitmentVolumeSql } from './sql/commitment-volume-sql.js';

type Read = <T>(sql: string, params: Readonly<Record<string, SqlValue>>) => Promise<T[]>;

interface VolumeRow {
  readonly psp: string;
  readonly day_index: number | string;
  readonly payments: number | string;
  readonly amount_total: number | string;
  readonly steered_payments: number | string;
  readonly steered_amount: number | string;
}

/** The volume-commitment read over either ClickHouse engine. */
export function commitmentVolumeReads(read: Read, database: string): Pick<AnalyticsStore, 'commitmentVolume'> {
  return {
    async commitmentVolume(query) {
      if (query.connectors.length === 0 || query.untilMs <= query.sinceMs) return [];
      const endMs = query.untilMs - 1;
      const rows = await read<VolumeRow>(commitmentVolumeSql, {
        database,
        merchant_id: query.merchantId,
        start_ms: query.sinceMs,
        end_ms: endMs,
        start_s: Math.floor(query.sinceMs / 1000),
        end_s: Math.floor(endMs / 1000),
        connectors: [...query.connectors],
        day_ms: Math.max(1, Math.round(query.dayMs)),
        steered: query.steeredApproach,
      });
      return rows.map(
        (row): CommitmentDayVolume => ({
          connector: row.psp,
          dayIndex: Number(row.day_index),
          payments: Number(row.payments),
          amount: Number(row.amount_total),
          steeredPayments: Number(row.steered_payments),
          steeredAmount: Number(row.steered_amount),
        }),
      );
    },
  };
}
