import type { ClusterStatsEntry, ClusterSums } from '../../ports/state/cost-ingestions.js';
import type { CostSettlementRow } from '../../ports/analytics/cost-rows.js';
import { clusterKey } from './build-cost-model.js';
import { addRow, emptySums } from './fee-fit.js';
import { readSettlementReport, ReportUnreadable } from './read-settlement-report.js';
import type { SettlementFormat } from './settlement-formats.js';

/** Bad rows named in `last_error` at most; the count covers them all. */
export const listedBadRows = 20;

export interface ReportSummary {
  readonly feeRows: number;
  readonly currencies: readonly string[];
  readonly countries: readonly string[];
  readonly totalGross: number;
  readonly periodStart: string | null;
  readonly periodEnd: string | null;
  readonly clusterStats: readonly ClusterStatsEntry[];
}

export type ReportCheck = { readonly ok: true; readonly summary: ReportSummary } | { readonly ok: false; readonly error: string };

/**
 * The first pass over a spooled report: every row validated, nothing written. Either the whole
 * file is good (with what the fit needs) or the answer names the bad rows by line: an upload is
 * imported whole or not at all.
 */
export async function validateReport(
  format: SettlementFormat,
  mapping: Readonly<Record<string, string>>,
  source: AsyncIterable<Uint8Array>,
): Promise<ReportCheck> {
  const bad: string[] = [];
  let badCount = 0;
  let feeRows = 0;
  let totalGross = 0;
  const currencies = new Set<string>();
  const countries = new Set<string>();
  let periodStart: string | null = null;
  let periodEnd: string | null = null;
  const clusters = new Map<string, { dimensions: ClusterStatsEntry['dimensions']; sums: ClusterSums }>();
  try {
    for await (const { line, verdict } of readSettlementReport(format, mapping, source)) {
      if (verdict.kind === 'skip') continue;
      if (verdict.kind === 'invalid') {
        badCount++;
        if (bad.length < listedBadRows) bad.push(`line ${line}: ${verdict.reason}`);
        continue;
      }
      if (badCount > 0) continue; // the file is refused anyway; keep counting bad rows only
      const { fee } = verdict;
      feeRows++;
      totalGross += fee.gross;
      currencies.add(fee.dimensions.currency.toUpperCase());
      if (fee.dimensions.issuerCountry !== '') countries.add(fee.dimensions.issuerCountry.toUpperCase());
      if (fee.txnDate !== '') {
        if (periodStart === null || fee.txnDate < periodStart) periodStart = fee.txnDate;
        if (periodEnd === null || fee.txnDate > periodEnd) periodEnd = fee.txnDate;
      }
      const key = clusterKey(fee.dimensions);
      const cluster = clusters.get(key) ?? { dimensions: fee.dimensions, sums: emptySums };
      cluster.sums = addRow(cluster.sums, fee.gross, fee.totalFee);
      clusters.set(key, cluster);
    }
  } catch (error) {
    if (error instanceof ReportUnreadable) return { ok: false, error: `line ${error.line}: ${error.message}; nothing imported` };
    throw error;
  }
  if (badCount > 0) {
    const more = badCount > bad.length ? `; and ${badCount - bad.length} more` : '';
    return { ok: false, error: `${badCount} invalid row${badCount > 1 ? 's' : ''}, nothing imported: ${bad.join('; ')}${more}` };
  }
  return {
    ok: true,
    summary: {
      feeRows,
      currencies: [...currencies].sort(),
      countries: [...countries].sort(),
      totalGross,
      periodStart,
      periodEnd,
      clusterStats: [...clusters.values()].filter((cluster) => cluster.sums.n > 0),
    },
  };
}

/** The second pass: the fee rows of an already validated report, as ClickHouse rows, in batches. */
export async function* settlementRowBatches(
  format: SettlementFormat,
  mapping: Readonly<Record<string, string>>,
  source: AsyncIterable<Uint8Array>,
  context: { readonly merchantId: string; readonly ingestionId: string; readonly account: string; readonly ingestedAtMs: number },
  batchSize: number,
): AsyncGenerator<CostSettlementRow[]> {
  let batch: CostSettlementRow[] = [];
  for await (const { line, verdict } of readSettlementReport(format, mapping, source)) {
    if (verdict.kind !== 'fee') continue;
    const { fee } = verdict;
    batch.push({
      merchantId: context.merchantId,
      ingestionId: context.ingestionId,
      line,
      account: context.account,
      txnRef: fee.txnRef,
      ...fee.dimensions,
      txnDate: fee.txnDate,
      gross: fee.gross,
      totalFee: fee.totalFee,
      interchange: fee.interchange,
      schemeFee: fee.schemeFee,
      markup: fee.markup,
      commission: fee.commission,
      ingestedAtMs: context.ingestedAtMs,
    });
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
