import type { MultiObjectiveInfo, PspSummary } from './multi-objective-info.js';

/** A candidate in SR order (best first) with its auth rate and its cost in bps (undefined: no fee data). */
export interface EvCandidate {
  readonly psp: string;
  readonly authRate: number;
  readonly costBps: number | undefined;
}

/**
 * The post-step's verdict: the gateways in their new order (chosen first), who won, and the info
 * block on demand. A decision whose pick a later step supersedes (a sticky pin) drops the block,
 * so it is built only when asked for: its reason text is most of what it costs.
 */
export interface EvRanking {
  readonly order: readonly string[];
  readonly outcome: MultiObjectiveInfo['outcome'];
  info(): MultiObjectiveInfo;
}

/**
 * Expected value per unit of ticket: auth × (margin − cost / 10 000). The ticket cancels across
 * PSPs, so this ranks like EV = auth × settlement value, settlement value = amount × margin − cost
 * (with the default margin 1: amount − processing cost).
 */
export function expectedValue(authRate: number, costBps: number, margin: number): number {
  return authRate * (margin - costBps / 10_000);
}

/** A candidate with fee data. */
type Costed = EvCandidate & { readonly costBps: number };

const hasCost = (candidate: EvCandidate): candidate is Costed => candidate.costBps !== undefined && Number.isFinite(candidate.costBps);

const evOf = (candidate: Costed, margin: number): number => expectedValue(candidate.authRate, candidate.costBps, margin);

const summary = (candidate: EvCandidate): PspSummary => ({
  psp: candidate.psp,
  authRate: candidate.authRate,
  costBps: hasCost(candidate) ? candidate.costBps : null,
});

/**
 * decision-engine's multi-objective post-step over the SR order it is handed (the head first):
 *
 * - every PSP with fee data is ranked on expected value; one is promoted over the head only on a
 *   strictly higher EV (`COST_WON`), ties keep the head (or the earlier PSP in SR order);
 * - without fee data for the head, or with fewer than two PSPs, the SR order is kept (`AUTH_WON`);
 * - the fallbacks follow the chosen PSP: those with fee data by descending EV, then those without by
 *   descending auth rate (each stable in SR order).
 */
export function rankByExpectedValue(candidates: readonly EvCandidate[], margin: number): EvRanking {
  const head = candidates[0];
  if (head === undefined || candidates.length < 2) return srOrderKept(candidates, margin, 'Only one PSP available; nothing to reorder.');
  if (!Number.isFinite(head.authRate)) return srOrderKept(candidates, margin, 'SR head has no finite score; cannot evaluate cost.');
  if (!hasCost(head)) return srOrderKept(candidates, margin, 'No cost data for the SR head; cannot rank it on expected value.');

  // Plain loops over the handful of candidates (this runs on every cost-aware decision): the same
  // ranking as filter/map/spread chains, without their intermediate arrays and with no record per
  // candidate (its EV is recomputed where needed: a multiply and a divide). Arrays are made at their
  // final length: an array grown by push gets room for 17 elements at its first push.
  let costed = 0;
  for (const candidate of candidates) if (hasCost(candidate)) costed += 1;
  const byEv: Costed[] = new Array(costed);
  // Usually every candidate is priced: then no array for the unpriced ones.
  const withoutCost: EvCandidate[] | undefined = costed === candidates.length ? undefined : new Array(candidates.length - costed);
  // In SR order (the head first): a later PSP is chosen only on a strictly higher EV.
  let chosen: Costed = head;
  let chosenEv = evOf(head, margin);
  let ranked = 0;
  let unranked = 0;
  for (const candidate of candidates) {
    if (!hasCost(candidate)) {
      if (withoutCost !== undefined) withoutCost[unranked++] = candidate;
      continue;
    }
    byEv[ranked++] = candidate;
    const ev = evOf(candidate, margin);
    if (ev > chosenEv + Number.EPSILON) {
      chosen = candidate;
      chosenEv = ev;
    }
  }

  // `byEv` is not read in SR order after this: sorted in place by descending EV, equals kept in SR
  // order (an insertion sort: for the handful of candidates, far cheaper than Array.prototype.sort's call).
  sortByEv(byEv, margin);
  const evGapTop2 = costed < 2 ? null : evOf(byEv[0] as Costed, margin) - evOf(byEv[1] as Costed, margin);
  const order: string[] = new Array(candidates.length);
  order[0] = chosen.psp;
  let at = 1;
  for (const candidate of byEv) if (candidate !== chosen) order[at++] = candidate.psp;
  if (withoutCost !== undefined) {
    if (unranked > 1) withoutCost.sort((a, b) => b.authRate - a.authRate);
    for (const candidate of withoutCost) order[at++] = candidate.psp;
  }

  return new RankedOnEv(order, head, chosen, costed, margin, evGapTop2);
}

/** The SR order as it was (`AUTH_WON` without a ranking), and why. */
function srOrderKept(candidates: readonly EvCandidate[], margin: number, reason: string): EvRanking {
  return new SrOrderKept(
    candidates.map((candidate) => candidate.psp),
    candidates[0],
    margin,
    reason,
  );
}

// The rankings are classes, not literals with an `info` closure: the closure and its context were
// two more objects on every cost-aware decision, and most of those (every pinned one) never ask for
// the block. Each keeps what its block is built from.

/** Candidates ranked on expected value: the SR head and the chosen PSP both priced. */
class RankedOnEv implements EvRanking {
  readonly outcome: MultiObjectiveInfo['outcome'];

  constructor(
    readonly order: readonly string[],
    private readonly head: Costed,
    private readonly chosen: Costed,
    private readonly qualifiedCount: number,
    private readonly margin: number,
    private readonly evGapTop2: number | null,
  ) {
    this.outcome = chosen === head ? 'AUTH_WON' : 'COST_WON';
  }

  info(): MultiObjectiveInfo {
    const { head, chosen, qualifiedCount } = this;
    const costSavedBps = chosen === head ? null : head.costBps - chosen.costBps;
    // The shared part first, then the verdict: the keys in the order they always had.
    return {
      srHead: summary(head),
      chosen: summary(chosen),
      qualifiedCount,
      margin: this.margin,
      evGapTop2: this.evGapTop2,
      outcome: this.outcome,
      reason:
        costSavedBps === null
          ? `SR head retained — it is the highest expected-value PSP (${qualifiedCount} ranked on EV).`
          : `Promoted '${chosen.psp}' over '${head.psp}' on expected value — saves ${costSavedBps.toFixed(2)} bps for ${((head.authRate - chosen.authRate) * 100).toFixed(2)}pp auth.`,
      costSavedBps,
    };
  }
}

/** The SR order kept without a ranking (one PSP, or an SR head without a finite score or a price). */
class SrOrderKept implements EvRanking {
  readonly outcome = 'AUTH_WON';

  constructor(
    readonly order: readonly string[],
    private readonly head: EvCandidate | undefined,
    private readonly margin: number,
    private readonly reason: string,
  ) {}

  info(): MultiObjectiveInfo {
    const headSummary = this.head === undefined ? null : summary(this.head);
    // The keys in the order this block always had.
    return {
      outcome: 'AUTH_WON',
      reason: this.reason,
      srHead: headSummary,
      chosen: headSummary,
      costSavedBps: null,
      qualifiedCount: 0,
      margin: this.margin,
      evGapTop2: null,
    };
  }
}

/** Sorts `costed` in place by descending EV, stable (equal EVs keep their order). */
function sortByEv(costed: Costed[], margin: number): void {
  for (let i = 1; i < costed.length; i++) {
    const candidate = costed[i] as Costed;
    const ev = evOf(candidate, margin);
    let j = i - 1;
    for (; j >= 0 && evOf(costed[j] as Costed, margin) < ev; j--) costed[j + 1] = costed[j] as Costed;
    costed[j + 1] = candidate;
  }
}
