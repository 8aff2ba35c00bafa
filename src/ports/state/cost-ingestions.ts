/**
 * Cost ingestion's bookkeeping, kept as per-merchant ConfigStore documents (`costIngestions`,
 * `costColumnMappings`): the history of settlement-report uploads with the per-cluster sufficient
 * statistics each one contributed, and the saved column mappings per (connector, account).
 *
 * Why ConfigStore documents rather than a StateStore sub-store of their own: both are small,
 * per-merchant, read whole (the history listing, the refit after a delete) and written rarely (an
 * upload's start and end, a mapping save), which is exactly what the ConfigStore serves, on both
 * adapters and through the cache decorator's invalidation, without a new store, Redis keys and a
 * port suite. The price is that a write is read-modify-write of the whole document: the ingestion
 * service serialises its writes per merchant within a process (src/costs/ingestion/), and an
 * upload is processed by the process that accepted it. Two replicas writing the same merchant's
 * history in the same instant could lose one update; a sub-store with per-record atomic writes is
 * the way out when distributed ingestion moves onto the JobQueue.
 *
 * The fit is computed from `clusterStats` (sums, not rows), so deleting an ingestion refits the
 * served cost model from the remaining records alone, without reading the raw rows back.
 */

/** Additive least-squares sums of one cluster's rows (x = gross amount, y = total fee, r = y/x, u = 1/x). */
export interface ClusterSums {
  readonly n: number;
  readonly sx: number;
  readonly sy: number;
  readonly sxx: number;
  readonly sxy: number;
  readonly syy: number;
  readonly sr: number;
  readonly srr: number;
  readonly su: number;
  readonly suu: number;
  readonly sru: number;
}

/** The cluster a row belongs to, lower-cased; '' where the report says nothing. */
export interface ClusterDimensions {
  readonly connector: string;
  readonly cardNetwork: string;
  readonly variant: string;
  readonly funding: string;
  readonly issuerCountry: string;
  readonly currency: string;
  readonly icCategory: string;
}

export interface ClusterStatsEntry {
  readonly dimensions: ClusterDimensions;
  readonly sums: ClusterSums;
}

export type CostIngestionStatus = 'processing' | 'completed' | 'failed';

/** One settlement-report upload (the peer's `cost_ingestion` row), plus what it contributed to the fit. */
export interface CostIngestionRecord {
  readonly id: string;
  readonly connector: string;
  readonly account: string;
  readonly source: 'manual' | 'webhook' | 'poll';
  readonly status: CostIngestionStatus;
  /** SHA-256 (hex) of the uploaded bytes: a re-upload of the same file to the same (connector, account) is this record. */
  readonly contentSha256: string;
  readonly bytes: number;
  readonly stagedRows: number;
  readonly reportDate: string | null;
  readonly periodStart: string | null;
  readonly periodEnd: string | null;
  readonly currencies: readonly string[];
  readonly countries: readonly string[];
  readonly totalGross: number;
  readonly totalClusters: number;
  readonly goodClusters: number;
  readonly lastError: string | null;
  /** Epoch ms. */
  readonly createdAt: number;
  readonly clusterStats: readonly ClusterStatsEntry[];
}

/** Canonical column label → the header this merchant's file uses, per `connector|account`. */
export type CostColumnMappings = Readonly<Record<string, Readonly<Record<string, string>>>>;
