import type { CostCluster, CostModel, FeeEstimate } from '../ports/state/cost-model.js';
import type { SeedCostTable } from '../ports/state/seed-costs.js';
import { type CostScenario, dimensionValue } from './cost-scenario.js';
import { resolveSeedEstimate } from './resolve-seed-fee.js';

/** Where a fee estimate came from, in the order they are tried. */
export type FeeSource = 'cluster_override' | 'connector_override' | 'model' | 'seed';

export interface PricedFee {
  readonly fee: FeeEstimate;
  readonly source: FeeSource;
}

/** What fees are looked up in: the merchant's served cost model (if any) and its seed table in effect. */
export interface FeeSources {
  readonly costModel: CostModel | undefined;
  readonly seedTable: SeedCostTable;
}

/**
 * How specifically a fitted cluster matches a payment (the count of its known dimensions the payment
 * shares), or undefined when one differs. A dimension the cluster leaves '' is a wildcard; one the
 * payment does not know never matches a known one. The interchange category is not known at decision
 * time and is not compared.
 */
function clusterScore(cluster: CostCluster, scenario: CostScenario): number | undefined {
  const checks: readonly [string, readonly (string | undefined)[]][] = [
    [cluster.cardNetwork, [scenario.cardNetwork]],
    [cluster.variant, [scenario.program]],
    [cluster.funding, [scenario.funding]],
    [cluster.issuerCountry, [scenario.issuerCountry, scenario.issuerRegion]],
    [cluster.currency, [scenario.currency]],
  ];
  let score = 0;
  for (const [value, candidates] of checks) {
    const wanted = dimensionValue(value);
    if (wanted === undefined) continue;
    if (!candidates.includes(wanted)) return undefined;
    score += 1;
  }
  return score;
}

/** The most specific matching cluster of the PSP that passes `keep` (equal scores: the larger volume). */
function bestCluster(model: CostModel, psp: string, scenario: CostScenario, keep: (cluster: CostCluster) => boolean): CostCluster | undefined {
  let best: { score: number; cluster: CostCluster } | undefined;
  for (const cluster of model.clusters) {
    if (cluster.connector.toLowerCase() !== psp || !keep(cluster)) continue;
    const score = clusterScore(cluster, scenario);
    if (score === undefined) continue;
    if (best === undefined || score > best.score || (score === best.score && cluster.grossSum > best.cluster.grossSum)) best = { score, cluster };
  }
  return best?.cluster;
}

const fee = (estimate: FeeEstimate): FeeEstimate => ({ pctBps: estimate.pctBps, fixed: estimate.fixed });

/**
 * A PSP's fee for one payment, tried in this order (the peer's override order, then the seed table
 * as the last resort):
 *
 * 1. a cluster override: the most specific matching cluster that carries a manual override;
 * 2. the connector's override;
 * 3. the learned model: the most specific matching GOOD cluster's fit, else the connector's blended fee;
 * 4. the seed table in effect (the merchant's, else the default one).
 *
 * Undefined when none prices the PSP: such a gateway has no fee data and never wins on cost. A seed
 * fee's estimate is shared by every caller: read it, never change it.
 */
export function lookupFeeEstimate(psp: string, scenario: CostScenario, sources: FeeSources): PricedFee | undefined {
  const model = sources.costModel;
  if (model !== undefined) {
    const name = psp.toLowerCase();
    const overridden = bestCluster(model, name, scenario, (cluster) => cluster.override !== undefined);
    if (overridden?.override !== undefined) return { fee: fee(overridden.override), source: 'cluster_override' };
    const connector = model.connectors.find((entry) => entry.connector.toLowerCase() === name);
    if (connector?.override !== undefined) return { fee: fee(connector.override), source: 'connector_override' };
    const fitted = bestCluster(model, name, scenario, (cluster) => cluster.quality === 'GOOD');
    if (fitted !== undefined) return { fee: fee(fitted.model), source: 'model' };
    if (connector?.model !== undefined) return { fee: fee(connector.model), source: 'model' };
  }
  // Built with the table's rows, once per row: no object and no lookup of its own per candidate.
  return resolveSeedEstimate(sources.seedTable, psp, scenario);
}
