import type { ClusterQuality, FeeEstimate } from '../../ports/state/cost-model.js';
import type { ClusterSums } from '../../ports/state/cost-ingestions.js';

/**
 * The per-cluster fee fit: ordinary least squares of fee = pct × amount + fixed over the cluster's
 * rows, from additive sums (so uploads merge and a deleted upload is subtracted by refitting the
 * rest), graded as the peer grades its clusters.
 *
 * Thresholds (the peer's `fit.rs`, same numbers):
 * - `bpsRmse` is the root-mean-square of (fee − fitted fee) / amount, in basis points of the amount;
 * - GOOD: at least {@link minGoodRows} rows and `bpsRmse` ≤ {@link maxGoodRmseBps}; or at least
 *   {@link minPinnedRows} rows with the rate pinned down: the slope's 95 % confidence half-width
 *   ≤ {@link maxSlopeCiBps} (and the same RMSE bound);
 * - NON_LINEAR: `bpsRmse` above the bound with at least {@link minGoodRows} rows (enough data to say
 *   a line does not describe the fees: tiers, caps, minimums);
 * - THIN: everything else (too few rows, or no spread of amounts to separate pct from fixed).
 *
 * Rows below {@link microAmountFloor} (in the report's currency) are kept in ClickHouse but left out
 * of the fit, as the peer does: a fee rounded to the cent is up to 50 bps off on a 1.00 payment, which
 * would grade every cluster with small payments NON_LINEAR for rounding alone.
 */
export const minGoodRows = 200;
export const minPinnedRows = 30;
export const maxGoodRmseBps = 15;
export const maxSlopeCiBps = 15;
export const microAmountFloor = 5;

export const emptySums: ClusterSums = { n: 0, sx: 0, sy: 0, sxx: 0, sxy: 0, syy: 0, sr: 0, srr: 0, su: 0, suu: 0, sru: 0 };

/** Adds one row (x = gross amount > 0, y = total fee) to a cluster's sums; rows under the floor are not fitted. */
export function addRow(sums: ClusterSums, x: number, y: number): ClusterSums {
  if (!(x >= microAmountFloor)) return sums;
  const r = y / x;
  const u = 1 / x;
  return {
    n: sums.n + 1,
    sx: sums.sx + x,
    sy: sums.sy + y,
    sxx: sums.sxx + x * x,
    sxy: sums.sxy + x * y,
    syy: sums.syy + y * y,
    sr: sums.sr + r,
    srr: sums.srr + r * r,
    su: sums.su + u,
    suu: sums.suu + u * u,
    sru: sums.sru + r * u,
  };
}

export function mergeSums(a: ClusterSums, b: ClusterSums): ClusterSums {
  return {
    n: a.n + b.n,
    sx: a.sx + b.sx,
    sy: a.sy + b.sy,
    sxx: a.sxx + b.sxx,
    sxy: a.sxy + b.sxy,
    syy: a.syy + b.syy,
    sr: a.sr + b.sr,
    srr: a.srr + b.srr,
    su: a.su + b.su,
    suu: a.suu + b.suu,
    sru: a.sru + b.sru,
  };
}

export interface ClusterFit {
  readonly model: FeeEstimate;
  readonly quality: ClusterQuality;
  readonly bpsRmse: number;
  /** 95 % confidence half-width of the rate, bps; Infinity when it cannot be told. */
  readonly slopeCiBps: number;
}

/** Relative spread of amounts below which pct and fixed cannot be separated (all rows the same amount). */
const degenerateSpread = 1e-9;

export function fitCluster(sums: ClusterSums): ClusterFit {
  const { n, sx, sy, sxx, sxy, syy } = sums;
  if (n === 0) return { model: { pctBps: 0, fixed: 0 }, quality: 'THIN', bpsRmse: 0, slopeCiBps: Number.POSITIVE_INFINITY };
  const denom = n * sxx - sx * sx;
  if (n < 3 || !(denom > degenerateSpread * n * sxx)) {
    // No spread of amounts: the whole fee reads as a percentage; never trusted.
    return { model: { pctBps: (sy / sx) * 10_000, fixed: 0 }, quality: 'THIN', bpsRmse: rmseBps(sums, sy / sx, 0), slopeCiBps: Number.POSITIVE_INFINITY };
  }
  const slope = (n * sxy - sx * sy) / denom;
  const intercept = (sy - slope * sx) / n;
  const sse = Math.max(0, syy - intercept * sy - slope * sxy);
  const slopeCiBps = 1.96 * Math.sqrt(((sse / (n - 2)) * n) / denom) * 10_000;
  const bpsRmse = rmseBps(sums, slope, intercept);
  return { model: { pctBps: slope * 10_000, fixed: intercept }, quality: grade(n, bpsRmse, slopeCiBps), bpsRmse, slopeCiBps };
}

/** √(mean((y/x − a − b/x)²)) in bps, expanded over the sums. */
function rmseBps(sums: ClusterSums, a: number, b: number): number {
  const { n, sr, srr, su, suu, sru } = sums;
  const total = srr + n * a * a + b * b * suu - 2 * a * sr - 2 * b * sru + 2 * a * b * su;
  return Math.sqrt(Math.max(0, total) / n) * 10_000;
}

function grade(n: number, bpsRmse: number, slopeCiBps: number): ClusterQuality {
  if (!Number.isFinite(bpsRmse) || bpsRmse > maxGoodRmseBps) return n >= minGoodRows ? 'NON_LINEAR' : 'THIN';
  if (n >= minGoodRows) return 'GOOD';
  if (n >= minPinnedRows && slopeCiBps <= maxSlopeCiBps) return 'GOOD';
  return 'THIN';
}
