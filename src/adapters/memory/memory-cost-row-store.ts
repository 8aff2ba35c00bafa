import type { CostRowStore, CostSettlementRow } from '../../ports/analytics/cost-rows.js';

/**
 * Cost rows in memory, keyed as the ClickHouse table is (merchant, ingestion, line): for the
 * embedded app without analytics and for HTTP contract tests. Same exactly-once semantics.
 */
export function createMemoryCostRowStore(): CostRowStore & { rows(merchantId: string): CostSettlementRow[] } {
  const rows = new Map<string, CostSettlementRow>();
  const keyOf = (merchantId: string, ingestionId: string, line: number) => JSON.stringify([merchantId, ingestionId, line]);
  return {
    async insertRows(batch) {
      for (const row of batch) rows.set(keyOf(row.merchantId, row.ingestionId, row.line), row);
    },
    async deleteIngestion(merchantId, ingestionId) {
      for (const [key, row] of rows) if (row.merchantId === merchantId && row.ingestionId === ingestionId) rows.delete(key);
    },
    async countRows(merchantId, ingestionId) {
      return [...rows.values()].filter((row) => row.merchantId === merchantId && row.ingestionId === ingestionId).length;
    },
    async close() {
      // Nothing to release: the rows live in this object.
    },
    rows: (merchantId) => [...rows.values()].filter((row) => row.merchantId === merchantId),
  };
}
