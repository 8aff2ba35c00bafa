import type { ConnectorFee, CostCoverage, CostIngestion } from '../api/server-types';
import { DataTable } from '../components/data-table';
import { KpiTiles } from '../components/kpi-tiles';
import { formatDateTime, useTimeZone } from '../time/time-zone';

const pct = (value: number) => `${value.toFixed(2)}%`;
const count = (value: number) => value.toLocaleString('en-US');

/** How much of the merchant's settled volume has a trustworthy fitted fee (GET …/cost-coverage); zeros before any ingestion. */
export function CoverageTiles(props: { readonly coverage: CostCoverage }) {
  const c = props.coverage;
  return (
    <KpiTiles
      label="Cost model coverage"
      tiles={[
        {
          label: 'Fee clusters',
          value: count(c.total_clusters),
          detail: `${c.good_clusters} good, ${c.thin_clusters} thin, ${c.non_linear_clusters} non-linear`,
        },
        { label: 'Transactions', value: count(c.total_txns), detail: `${count(c.good_txns)} in good clusters` },
        { label: 'Transactions with a good fit', value: pct(c.good_txn_pct) },
        { label: 'Volume with a good fit', value: pct(c.good_gross_pct), detail: `of ${count(c.total_gross)} settled` },
        { label: 'Fit error p50 (bps)', value: c.bps_rmse_p50.toFixed(1), detail: `p90 ${c.bps_rmse_p90.toFixed(1)}` },
        { label: 'Latest report', value: c.report_date === '' ? 'none' : c.report_date },
      ]}
    />
  );
}

const statusBadge = (status: CostIngestion['status']) => (
  <span class={status === 'completed' ? 'badge ok' : status === 'failed' ? 'badge warn' : 'badge muted'}>{status}</span>
);

/** Settlement-report ingestions, newest first (GET …/cost-ingestions), with why a failed one failed. */
export function IngestionHistory(props: { readonly ingestions: readonly CostIngestion[] }) {
  const zone = useTimeZone();
  return (
    <DataTable
      caption="Settlement-report ingestions, newest first"
      rows={props.ingestions}
      rowKey={(ingestion) => ingestion.id}
      empty="No settlement reports ingested yet: upload one with POST /merchant-account/{id}/connectors/{connector}/report (docs/costs.md)."
      columns={[
        { header: `Created (${zone})`, cell: (ingestion) => formatDateTime(Date.parse(ingestion.created_at)) },
        { header: 'Connector', cell: (ingestion) => ingestion.connector },
        { header: 'Account', cell: (ingestion) => ingestion.account },
        { header: 'Status', cell: (ingestion) => statusBadge(ingestion.status) },
        { header: 'Rows', numeric: true, cell: (ingestion) => count(ingestion.staged_rows) },
        { header: 'Period', cell: (ingestion) => (ingestion.period_start === null ? '—' : `${ingestion.period_start} – ${ingestion.period_end ?? '…'}`) },
        { header: 'Gross', numeric: true, cell: (ingestion) => count(ingestion.total_gross) },
        { header: 'Good clusters', numeric: true, cell: (ingestion) => `${ingestion.good_clusters} of ${ingestion.total_clusters}` },
        { header: 'Error', cell: (ingestion) => ingestion.last_error ?? '—' },
      ]}
    />
  );
}

const fee = (pctBps: number | null, fixed: number | null) => (pctBps === null ? '—' : `${pctBps.toFixed(1)} bps + ${(fixed ?? 0).toFixed(2)}`);

/** The fee served per connector account: fitted, overridden, or none (GET …/connector-fees). */
export function ConnectorFees(props: { readonly fees: readonly ConnectorFee[] }) {
  return (
    <DataTable
      caption="Fee served per connector account"
      rows={props.fees}
      rowKey={(row) => `${row.connector}/${row.account}`}
      empty="No connector fees yet: they come from ingested settlement reports or a fee override."
      columns={[
        { header: 'Connector', cell: (row) => row.connector },
        { header: 'Account', cell: (row) => row.account },
        { header: 'Fitted', cell: (row) => fee(row.model_pct_bps, row.model_fixed) },
        { header: 'Override', cell: (row) => fee(row.override_pct_bps, row.override_fixed) },
        { header: 'Served', cell: (row) => fee(row.effective_pct_bps, row.effective_fixed) },
        { header: 'Source', cell: (row) => row.source },
      ]}
    />
  );
}
