/**
 * Raw settlement rows of cost ingestion, one per fee-bearing report line, kept in ClickHouse
 * (schemas/clickhouse/0008_cost_settlement_rows.sql) for audit and later re-fits.
 */
export interface CostSettlementRow {
  readonly merchantId: string;
  readonly ingestionId: string;
  /** 1-based physical line of the row in the uploaded file: with the ingestion id, the row key. */
  readonly line: number;
  readonly connector: string;
  readonly account: string;
  readonly txnRef: string;
  readonly cardNetwork: string;
  readonly variant: string;
  readonly funding: string;
  readonly issuerCountry: string;
  readonly currency: string;
  readonly icCategory: string;
  /** 'YYYY-MM-DD', or '' when the report has no date for the row. */
  readonly txnDate: string;
  readonly gross: number;
  readonly totalFee: number;
  readonly interchange: number;
  readonly schemeFee: number;
  readonly markup: number;
  readonly commission: number;
  /** Epoch ms of the ingestion. */
  readonly ingestedAtMs: number;
}

/**
 * Where cost ingestion writes the rows of a report it accepted. ClickHouse server and chDB share one
 * SQL; an in-memory adapter serves tests of the HTTP contract.
 *
 * @remarks Exactly-once by row key (merchant, ingestion id, line): the table is a
 * ReplacingMergeTree over that key, so a batch written twice (a retry after a timeout) collapses,
 * and every read uses FINAL. Deleting an ingestion writes tombstones (same key, a higher version,
 * `deleted = 1`) rather than a mutation, whose timing differs between the two engines.
 * Failures reject with SwitchyardError `SY_ANALYTICS_UNAVAILABLE`.
 */
export interface CostRowStore {
  /** Writes a batch of rows; safe to retry. */
  insertRows(rows: readonly CostSettlementRow[]): Promise<void>;
  /** Marks every row of one ingestion deleted. */
  deleteIngestion(merchantId: string, ingestionId: string): Promise<void>;
  /** How many live rows one ingestion has (history checks and tests). */
  countRows(merchantId: string, ingestionId: string): Promise<number>;
  /** Releases what this store owns (nothing when it shares the analytics store's engine). */
  close(): Promise<void>;
}
