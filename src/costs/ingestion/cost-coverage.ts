import type { CostModel } from '../../ports/state/cost-model.js';

/** The peer's cost-coverage summary (GET /merchant-account/{id}/cost-coverage), in our words. */
export interface CostCoverage {
  readonly totalClusters: number;
  readonly goodClusters: number;
  readonly thinClusters: number;
  readonly nonLinearClusters: number;
  readonly totalTxns: number;
  readonly goodTxns: number;
  readonly thinTxns: number;
  readonly nonLinearTxns: number;
  readonly goodTxnPct: number;
  readonly totalGross: number;
  readonly goodGross: number;
  readonly thinGross: number;
  readonly nonLinearGross: number;
  readonly goodGrossPct: number;
  readonly bpsRmseP50: number;
  readonly bpsRmseP90: number;
  readonly reportDate: string | null;
}

/** Linear-interpolated quantile of sorted values (ClickHouse's `quantileExactInclusive` reading); 0 for none. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

const pct = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0);

/** What share of the merchant's settled volume has a trustworthy fee model; all zeros when nothing was fitted. */
export function costCoverage(model: CostModel | undefined): CostCoverage {
  const clusters = model?.clusters ?? [];
  const of = (quality: string) => clusters.filter((cluster) => cluster.quality === quality);
  const sum = (list: typeof clusters, pick: (c: (typeof clusters)[number]) => number) => list.reduce((total, c) => total + pick(c), 0);
  const good = of('GOOD');
  const thin = of('THIN');
  const nonLinear = of('NON_LINEAR');
  const totalTxns = sum(clusters, (c) => c.n);
  const totalGross = sum(clusters, (c) => c.grossSum);
  const goodTxns = sum(good, (c) => c.n);
  const goodGross = sum(good, (c) => c.grossSum);
  const rmse = good.map((c) => c.bpsRmse).sort((a, b) => a - b);
  return {
    totalClusters: clusters.length,
    goodClusters: good.length,
    thinClusters: thin.length,
    nonLinearClusters: nonLinear.length,
    totalTxns,
    goodTxns,
    thinTxns: sum(thin, (c) => c.n),
    nonLinearTxns: sum(nonLinear, (c) => c.n),
    goodTxnPct: pct(goodTxns, totalTxns),
    totalGross,
    goodGross,
    thinGross: sum(thin, (c) => c.grossSum),
    nonLinearGross: sum(nonLinear, (c) => c.grossSum),
    goodGrossPct: pct(goodGross, totalGross),
    bpsRmseP50: quantile(rmse, 0.5),
    bpsRmseP90: quantile(rmse, 0.9),
    reportDate: model?.reportDate ?? null,
  };
}
