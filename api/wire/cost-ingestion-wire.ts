import type {
  CostIngestion as CostIngestionWire,
  ConnectorFee as ConnectorFeeWire,
  CostCoverage as CostCoverageWire,
  CostCluster as CostClusterWire,
} from '../../src/generated/schema-types.js';
import type { CostCoverage } from '../../src/costs/ingestion/cost-coverage.js';
import type { CostIngestionRecord } from '../../src/ports/state/cost-ingestions.js';
import type { ConnectorFee, CostCluster } from '../../src/ports/state/cost-model.js';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A history record as the peer lists it (snake_case, ISO times, no internal sums). */
export function toCostIngestionWire(record: CostIngestionRecord): CostIngestionWire {
  return {
    id: record.id,
    connector: record.connector,
    account: record.account,
    source: record.source,
    status: record.status,
    staged_rows: record.stagedRows,
    report_date: record.reportDate,
    period_start: record.periodStart,
    period_end: record.periodEnd,
    currency_count: record.currencies.length,
    currencies: [...record.currencies],
    country_count: record.countries.length,
    countries: [...record.countries],
    total_gross: record.totalGross,
    total_clusters: record.totalClusters,
    good_clusters: record.goodClusters,
    last_error: record.lastError,
    created_at: iso(record.createdAt),
  };
}

export function toCostCoverageWire(c: CostCoverage): CostCoverageWire {
  return {
    // The peer's summary also splits amount-tiered clusters out; there are none here (no tier
    // recovery), so tiered counts are 0 and what the router can price is exactly the GOOD share.
    total_clusters: c.totalClusters,
    good_clusters: c.goodClusters,
    tiered_clusters: 0,
    thin_clusters: c.thinClusters,
    non_linear_clusters: c.nonLinearClusters,
    total_txns: c.totalTxns,
    good_txns: c.goodTxns,
    tiered_txns: 0,
    thin_txns: c.thinTxns,
    non_linear_txns: c.nonLinearTxns,
    good_txn_pct: c.goodTxnPct,
    priced_txn_pct: c.goodTxnPct,
    total_gross: c.totalGross,
    good_gross: c.goodGross,
    tiered_gross: 0,
    thin_gross: c.thinGross,
    non_linear_gross: c.nonLinearGross,
    good_gross_pct: c.goodGrossPct,
    priced_gross_pct: c.goodGrossPct,
    bps_rmse_p50: c.bpsRmseP50,
    bps_rmse_p90: c.bpsRmseP90,
    // The peer's `report_date` is a plain string (its summary struct has no null).
    report_date: c.reportDate ?? '',
  };
}

/** Overrides win over the fitted model; `none` when neither exists (configured, nothing fitted yet). */
export function toConnectorFeeWire(fee: ConnectorFee): ConnectorFeeWire {
  const effective = fee.override ?? fee.model;
  return {
    connector: fee.connector,
    account: fee.account,
    has_credentials: false,
    model_pct_bps: fee.model?.pctBps ?? null,
    model_fixed: fee.model?.fixed ?? null,
    good_gross: fee.goodGross,
    override_pct_bps: fee.override?.pctBps ?? null,
    override_fixed: fee.override?.fixed ?? null,
    override_updated_at: fee.override === undefined ? null : iso(fee.override.updatedAt),
    effective_pct_bps: effective?.pctBps ?? null,
    effective_fixed: effective?.fixed ?? null,
    source: fee.override !== undefined ? 'override' : fee.model !== undefined ? 'model' : 'none',
  };
}

/** One cluster on the peer's wire (ClusterFee): a cluster override wins over the fitted fee. */
export function toCostClusterWire(cluster: CostCluster): CostClusterWire {
  const override = cluster.override;
  const finite = (value: number) => (Number.isFinite(value) ? value : null);
  return {
    key: cluster.key,
    connector: cluster.connector,
    card_network: cluster.cardNetwork,
    variant: cluster.variant,
    funding: cluster.funding,
    issuer_country: cluster.issuerCountry,
    currency: cluster.currency,
    ic_category: cluster.icCategory,
    n: cluster.n,
    gross_sum: cluster.grossSum,
    model_pct_bps: finite(cluster.model.pctBps),
    model_fixed: finite(cluster.model.fixed),
    override_pct_bps: override?.pctBps ?? null,
    override_fixed: override?.fixed ?? null,
    override_updated_at: override === undefined ? null : iso(override.updatedAt),
    effective_pct_bps: override === undefined ? finite(cluster.model.pctBps) : override.pctBps,
    effective_fixed: override === undefined ? finite(cluster.model.fixed) : override.fixed,
    source: override === undefined ? 'model' : 'override',
    verdict: cluster.quality,
    card_product: '',
    segments: [],
  };
}
