import type { ClusterQuality, CostCluster, CostModel } from '../../ports/state/cost-model.js';

/** The peer's default page of clusters, and its ceiling on one answer. */
export const defaultClusterLimit = 10;
export const maxClusterLimit = 5000;

export interface CostClusterQuery {
  readonly limit?: number;
  readonly order?: 'gross' | 'txns';
  readonly connector?: string;
  readonly cardNetwork?: string;
  readonly variant?: string;
  readonly funding?: string;
  readonly issuerCountry?: string;
  readonly currency?: string;
  readonly icCategory?: string;
  readonly verdict?: ClusterQuality;
  /** A substring of the cluster key. */
  readonly q?: string;
}

const same = (value: string, wanted: string | undefined) => wanted === undefined || wanted.trim() === '' || value === wanted.trim().toLowerCase();

/**
 * GET /merchant-account/{id}/cost-clusters (the peer's list_cost_clusters): the fitted clusters
 * passing the filters, most settled volume (or transactions) first, ties by key, at most `limit`.
 * Cluster dimensions are stored lower-case, so filters compare lower-cased.
 */
export function listCostClusters(model: CostModel | undefined, query: CostClusterQuery): readonly CostCluster[] {
  const limit = Math.min(Math.max(query.limit ?? defaultClusterLimit, 1), maxClusterLimit);
  const needle = query.q?.trim().toLowerCase() ?? '';
  const kept = (model?.clusters ?? []).filter(
    (cluster) =>
      same(cluster.connector, query.connector) &&
      same(cluster.cardNetwork, query.cardNetwork) &&
      same(cluster.variant, query.variant) &&
      same(cluster.funding, query.funding) &&
      same(cluster.issuerCountry, query.issuerCountry) &&
      same(cluster.currency, query.currency) &&
      same(cluster.icCategory, query.icCategory) &&
      (query.verdict === undefined || cluster.quality === query.verdict) &&
      (needle === '' || cluster.key.includes(needle)),
  );
  const measure = query.order === 'txns' ? (cluster: CostCluster) => cluster.n : (cluster: CostCluster) => cluster.grossSum;
  return [...kept].sort((a, b) => measure(b) - measure(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).slice(0, limit);
}
