import type { DecideGatewayRequest } from '../../generated/schema-types.js';
import type { StickyCustomer, StickyStore } from '../../ports/state/sticky-store.js';
import type { Decision, DecisionInputs, DecisionOutcome } from '../decision.js';
import type { MultiObjectiveInfo } from '../multi-objective/multi-objective-info.js';
import { rankedApproachOf, rankedFallbacksOf, rankedHeadOf } from '../multi-objective/apply-multi-objective.js';
import type { EvRanking } from '../multi-objective/rank-by-expected-value.js';
import type { PolicyCandidate } from '../policy/decision-policy.js';
import { isFeatureEnabled } from '../features/merchant-features.js';
import type { RoutingApproach } from '../routing-approach.js';
import type { StickyRoutingCounters } from './sticky-counters.js';
import type { StickyInfo, StickyOutcome } from './sticky-info.js';
import { LookupDeadlines } from './lookup-deadlines.js';
import { customerKeyOf, stickyComboOf } from './sticky-key.js';
import { defaultStickySettings, type StickySettings } from './sticky-settings.js';

export interface StickyRoutingDeps {
  readonly store: StickyStore;
  readonly counters?: StickyRoutingCounters;
  readonly settings?: StickySettings;
  /** The fail-open deadlines shared by the lookups of one decision use case (one timer for all); absent: one per lookup. */
  readonly deadlines?: LookupDeadlines;
}

export type { StickyInfo };

/**
 * The approaches a pin may replace: SR decisions (downtime-relabelled ones too: the veto keeps an
 * eliminated connector out) and the cost post-step's (`sr`); and priority logic's default order
 * (`default order`), which only counts when no rule ordered the candidates (see
 * {@link stickyApplies}). Hedging is exploration whose propensity the policy log records, so a pin
 * never replaces it. A switch over the literals: no Set lookup on every sticky decision.
 */
function pinnableAs(approach: RoutingApproach): 'sr' | 'default order' | undefined {
  switch (approach) {
    case 'SR_SELECTION_V3_ROUTING':
    case 'SR_V3_DOWNTIME_ROUTING':
    case 'SR_V3_ALL_DOWNTIME_ROUTING':
    case 'SR_SELECTION_MULTI_OBJECTIVE':
      return 'sr';
    case 'PRIORITY_LOGIC':
    case 'PL_DOWNTIME_ROUTING':
    case 'PL_ALL_DOWNTIME_ROUTING':
      return 'default order';
    default:
      return undefined;
  }
}

/**
 * Whether sticky routing is on for this payment: the request's `stickyRouting` when given, else the
 * merchant's `sticky-routing` feature (off by default), and only for a payment that names a
 * customer. Synchronous and store-free: with the feature off nothing else of this module runs.
 */
export function stickyRoutingOn(request: DecideGatewayRequest, inputs: DecisionInputs): boolean {
  const customerId = request.paymentInfo.customerId;
  if (customerId == null || customerId.trim() === '') return false;
  return request.stickyRouting ?? isFeatureEnabled(inputs.features, 'sticky-routing');
}

/**
 * Whether a pin may replace this decision's gateway: an SR decision, or the default (list) order of
 * priority logic without a routing rule, with two or more candidates, and not in a static
 * experiment arm (its answer is the arm algorithm's order, set after this step). An SR arm is
 * pinned like any SR decision: both arms get the same post-step, as they would in production, and
 * the event's `sticky` tells pinned payments apart for the analysis.
 */
export function stickyApplies(decision: Decision, inputs: DecisionInputs, staticArm: boolean): boolean {
  if (staticArm || decision.gatewayPriorityMap === null || decision.fallbackGateways.length === 0) return false;
  const pinnable = pinnableAs(decision.routingApproach);
  return pinnable === 'sr' || (pinnable === 'default order' && inputs.rule === undefined);
}

/**
 * The sticky-routing post-step (issue 36; the peer's open #412): runs last, after SR scoring,
 * elimination and the cost post-step. Reads the customer's net success counts for the payment's
 * method and type, and decides the counted connector with the highest count that passes the health
 * veto, with routing approach STICKY_ROUTING; the other gateways follow in the order they had.
 *
 * Health veto: a counted connector is never pinned when it is not a candidate, when elimination
 * found it below the threshold, or when its final score (after elimination) is under
 * `minScoreRatio` of the top score. Ties go to the higher final score, then the list order.
 *
 * Fail-open: the lookup waits at most `lookupTimeoutMs`; a slow or failing store leaves the decision
 * as it was (outcome `store_timeout` / `store_error`, counted for /metrics). Every decision with
 * sticky routing on carries `sticky` (customer key and combination) so its feedback moves the counts,
 * pinned or not. The caller checks {@link stickyRoutingOn} first, so a payment without it never
 * reaches the store.
 *
 * `ranking` is the cost post-step's ranking when the caller left it to this step (costStepRankingOf):
 * `outcome` is then the decision before the post-step, and the one copy this step makes applies
 * both, where applying the ranking first copied the decision twice. Its info block is built only
 * for a decision that keeps the post-step's pick.
 */
export function applyStickyRouting(
  outcome: DecisionOutcome,
  request: DecideGatewayRequest,
  inputs: DecisionInputs,
  staticArm: boolean,
  deps: StickyRoutingDeps,
  ranking?: EvRanking,
): DecisionOutcome | Promise<DecisionOutcome> {
  if (!outcome.ok) return outcome;
  const decision = outcome.decision;
  const lookup: Lookup = {
    merchantId: request.merchantId,
    customerKey: customerKeyOf(request.paymentInfo.customerId ?? ''),
    decision,
    combo: stickyComboOf(decision.payment),
    settings: deps.settings ?? defaultStickySettings,
    counters: deps.counters,
    ranking,
  };
  if (!stickyApplies(decision, inputs, staticArm)) return noted(lookup, 'not_applicable');
  // A store in process memory answers at once: no deadline, no await.
  const readNow = deps.store.readNow;
  if (readNow !== undefined) {
    let counts: ReadonlyMap<string, number>;
    try {
      counts = readNow(lookup, lookup.combo);
    } catch {
      return noted(lookup, 'store_error');
    }
    return pinned(lookup, counts);
  }
  const deadlines = deps.deadlines ?? new LookupDeadlines(lookup.settings.lookupTimeoutMs);
  return deadlines
    .race(deps.store.read(lookup, lookup.combo))
    .then((read) => (read.kind === 'read' ? pinned(lookup, read.counts) : noted(lookup, read.kind === 'timeout' ? 'store_timeout' : 'store_error')));
}

/** One decision's sticky lookup: what every outcome records. The customer it reads, itself (no second object per lookup). */
interface Lookup extends StickyCustomer {
  readonly decision: Decision;
  readonly combo: string;
  readonly settings: StickySettings;
  readonly counters: StickyRoutingCounters | undefined;
  /** The cost post-step's ranking when it was left to this step (costStepRankingOf): `decision` is the one before it. */
  readonly ranking: EvRanking | undefined;
}

/** The gateway the decision leads with once the cost post-step's ranking (when left to this step) is applied. */
function headOf(lookup: Lookup): string {
  return lookup.ranking === undefined ? lookup.decision.decidedGateway : rankedHeadOf(lookup.decision, lookup.ranking);
}

/** The fallbacks in the order the cost post-step left them (a copy of the ranking's tail when it was left to this step). */
function fallbacksOf(lookup: Lookup): readonly string[] {
  return lookup.ranking === undefined ? lookup.decision.fallbackGateways : rankedFallbacksOf(lookup.ranking);
}

/** The cost post-step's claim the decision carries on: its own, or the ranking's block built now. */
function costClaimOf(lookup: Lookup): MultiObjectiveInfo | undefined {
  return lookup.ranking === undefined ? lookup.decision.multiObjectiveInfo : lookup.ranking.info();
}

/** The decision as it was, carrying what the lookup did (every decision with sticky routing on does, so its feedback moves the counts). */
function noted(lookup: Lookup, stickyOutcome: StickyOutcome): DecisionOutcome {
  lookup.counters?.count(stickyOutcome);
  const { decision, ranking } = lookup;
  return {
    ok: true,
    decision: {
      ...decision,
      decidedGateway: headOf(lookup),
      fallbackGateways: fallbacksOf(lookup),
      routingApproach: ranking === undefined ? decision.routingApproach : rankedApproachOf(decision, ranking),
      sticky: { customerKey: lookup.customerKey, combo: lookup.combo, outcome: stickyOutcome, srHead: null },
      multiObjectiveInfo: costClaimOf(lookup),
    },
  };
}

/** The decision once the counts are in: pinned to the counted candidate the veto leaves, or noted. */
function pinned(lookup: Lookup, counts: ReadonlyMap<string, number>): DecisionOutcome {
  if (counts.size === 0) return noted(lookup, 'no_state');
  const decision = lookup.decision;
  // The ranking reorders the candidates but changes no score, so it moves no pin.
  const pin = pinOf(decision, counts, lookup.settings.minScoreRatio);
  if (pin === undefined) return noted(lookup, 'vetoed');

  const head = headOf(lookup);
  const overridden = pin !== head;
  lookup.counters?.count('pinned', overridden);
  return {
    ok: true,
    decision: {
      ...decision,
      decidedGateway: pin,
      fallbackGateways: overridden ? demotedHead(head, lookup, pin) : fallbacksOf(lookup),
      routingApproach: 'STICKY_ROUTING',
      sticky: { customerKey: lookup.customerKey, combo: lookup.combo, outcome: 'pinned', srHead: head },
      // A pin that moved the payment away from the cost post-step's pick supersedes its claim: cost
      // analytics must not credit savings to a gateway that was not decided (the peer clears it too).
      // Set to undefined in the one copy, not removed by a rest pattern: V8 copies an object minus a
      // key by a slow generic path, and every reader of the claim checks it against undefined.
      multiObjectiveInfo: overridden ? undefined : costClaimOf(lookup),
    },
  };
}

/**
 * The fallbacks once `pin` was taken out of them and the head it replaced leads them: a loop into
 * an array made at its final length over the decision's fallbacks, or over the ranking's order
 * after its head (no slice, spread or filter per pin, and no array grown by push, which gets room
 * for 17 at its first push). The length is counted first: an array shortened by setting its
 * `length` goes through V8's runtime to trim its store, which cost every overriding pin about
 * 0.4 µs on 2026-12-03's host (bench/README.md).
 */
function demotedHead(head: string, lookup: Lookup, pin: string): string[] {
  const ranked = lookup.ranking?.order;
  const from = ranked === undefined ? lookup.decision.fallbackGateways : ranked;
  const first = ranked === undefined ? 0 : 1;
  let kept = 1;
  for (let index = first; index < from.length; index += 1) if (from[index] !== pin) kept += 1;
  const order: string[] = new Array(kept);
  order[0] = head;
  let at = 1;
  for (let index = first; index < from.length; index += 1) {
    const gateway = from[index] as string;
    if (gateway !== pin) order[at++] = gateway;
  }
  return order;
}

/**
 * The counted candidate to pin, or undefined when the veto leaves none (see applyStickyRouting):
 * the highest count, then the higher score, then the earlier candidate in list order. Walks the
 * customer's counts (usually one or two connectors) and finds each among the handful of candidates,
 * where asking the counts for every candidate cost a hash lookup per candidate in a map the customer
 * last touched long ago; no Set or array is made per decision. The candidates come from the policy
 * log, which lists them with their elimination scores; a decision without one (made by another path)
 * lists them by its score map's keys, none known eliminated (every score is read from the map).
 */
function pinOf(decision: Decision, counts: ReadonlyMap<string, number>, minScoreRatio: number): string | undefined {
  const scores = decision.gatewayPriorityMap ?? {};
  const policy = decision.policy;
  // The policy log's candidates, not the score map's keys: they carry the elimination scores the
  // veto reads, and walking them allocates nothing.
  const candidates: readonly PolicyCandidate[] = policy?.candidates ?? Object.keys(scores).map((gateway) => ({ gateway, score: 0, eliminationScore: null }));
  const threshold = policy?.eliminationThreshold ?? null;
  let top = 0;
  for (let index = 0; index < candidates.length; index += 1) top = Math.max(top, scores[(candidates[index] as PolicyCandidate).gateway] ?? 0);
  let best = -1;
  let bestCount = 0;
  let bestScore = 0;
  for (const [connector, count] of counts) {
    if (count <= 0) continue;
    const index = indexOfCandidate(candidates, connector);
    if (index < 0) continue;
    const candidate = candidates[index] as PolicyCandidate;
    const score = scores[connector] ?? 0;
    if (score < minScoreRatio * top) continue;
    if (threshold !== null && candidate.eliminationScore !== null && candidate.eliminationScore < threshold) continue;
    if (best < 0 || count > bestCount || (count === bestCount && (score > bestScore || (score === bestScore && index < best)))) {
      best = index;
      bestCount = count;
      bestScore = score;
    }
  }
  return best < 0 ? undefined : (candidates[best] as PolicyCandidate).gateway;
}

/** Where `gateway` is among the candidates, or -1. */
function indexOfCandidate(candidates: readonly PolicyCandidate[], gateway: string): number {
  for (let index = 0; index < candidates.length; index += 1) if ((candidates[index] as PolicyCandidate).gateway === gateway) return index;
  return -1;
}
