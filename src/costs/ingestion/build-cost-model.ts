import type { ClusterDimensions, ClusterSums, CostIngestionRecord } from '../../ports/state/cost-ingestions.js';
import type { ConnectorFee, CostCluster, CostModel } from '../../ports/state/cost-model.js';
import { fitCluster, mergeSums } from './fee-fit.js';

/** `connector|network|variant|funding|issuer|currency|ic_category`, the peer's opaque cluster key. */
export function clusterKey(d: ClusterDimensions): string {
  return [d.connector, d.cardNetwork, d.variant, d.funding, d.issuerCountry, d.currency, d.icCategory].join('|');
}

interface Pooled {
  readonly dimensions: ClusterDimensions;
  sums: ClusterSums;
}

function pool(records: readonly CostIngestionRecord[]): Map<string, Pooled> {
  const byKey = new Map<string, Pooled>();
  for (const record of records) {
    for (const entry of record.clusterStats) {
      const key = clusterKey(entry.dimensions);
      const seen = byKey.get(key);
      if (seen === undefined) byKey.set(key, { dimensions: entry.dimensions, sums: entry.sums });
      else seen.sums = mergeSums(seen.sums, entry.sums);
    }
  }
  return byKey;
}

function fitted(records: readonly CostIngestionRecord[]): CostCluster[] {
  return [...pool(records)].map(([key, { dimensions, sums }]) => {
    const fit = fitCluster(sums);
    return { key, ...dimensions, n: sums.n, grossSum: sums.sx, model: fit.model, quality: fit.quality, bpsRmse: fit.bpsRmse };
  });
}

/** A connector account's blended fee: gross-weighted over its GOOD clusters; none when it has none. */
function blended(clusters: readonly CostCluster[]): { model?: ConnectorFee['model']; goodGross: number } {
  const good = clusters.filter((cluster) => cluster.quality === 'GOOD');
  const goodGross = good.reduce((sum, cluster) => sum + cluster.grossSum, 0);
  if (goodGross <= 0) return { goodGross: 0 };
  const weighted = (pick: (cluster: CostCluster) => number) => good.reduce((sum, cluster) => sum + pick(cluster) * cluster.grossSum, 0) / goodGross;
  return { model: { pctBps: weighted((c) => c.model.pctBps), fixed: weighted((c) => c.model.fixed) }, goodGross };
}

/**
 * The merchant's served cost model from its completed ingestions, keeping the manual overrides of
 * the previous model. Clusters pool every account of a connector (they price the same scheme and
 * acquirer fees); connector fees are per (connector, account), blended from that account's own fit.
 * Clusters are listed by gross volume, largest first.
 */
export function buildCostModel(history: readonly CostIngestionRecord[], previous: CostModel | undefined, nowMs: number): CostModel {
  const completed = history.filter((record) => record.status === 'completed');
  const clusterOverrides = new Map((previous?.clusters ?? []).filter((c) => c.override !== undefined).map((c) => [c.key, c.override!]));
  const clusters = fitted(completed)
    .map((cluster) => {
      const override = clusterOverrides.get(cluster.key);
      return override === undefined ? cluster : { ...cluster, override };
    })
    .sort((a, b) => b.grossSum - a.grossSum || a.key.localeCompare(b.key));
  const accounts = new Map<string, CostIngestionRecord[]>();
  for (const record of completed) {
    const id = `${record.connector}|${record.account}`;
    accounts.set(id, [...(accounts.get(id) ?? []), record]);
  }
  const connectorOverrides = new Map((previous?.connectors ?? []).filter((c) => c.override !== undefined).map((c) => [`${c.connector}|${c.account}`, c]));
  const connectors: ConnectorFee[] = [...accounts].map(([id, records]) => {
    const { connector, account } = records[0]!;
    const override = connectorOverrides.get(id)?.override;
    return { connector, account, ...blended(fitted(records)), ...(override !== undefined ? { override } : {}) };
  });
  // An override set on a connector account without data yet stays served.
  for (const [id, fee] of connectorOverrides)
    if (!accounts.has(id)) connectors.push({ connector: fee.connector, account: fee.account, goodGross: 0, override: fee.override! });
  connectors.sort((a, b) => a.connector.localeCompare(b.connector) || a.account.localeCompare(b.account));
  const dates = completed.map((record) => record.reportDate).filter((date): date is string => date !== null);
  return { connectors, clusters, reportDate: dates.length === 0 ? null : dates.sort().at(-1)!, updatedAt: nowMs };
}
