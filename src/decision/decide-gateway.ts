import type { DecideGatewayRequest, PaymentDimensions } from '../generated/schema-types.js';
import type { EliminationScore, ScoreStore, WindowRead } from '../ports/state-store.js';
import type { Clock } from '../time/clock.js';
import { bestScoreIndex, rankByScore } from './best-score-index.js';
import type { Decision, DecisionFailure, DecisionInputs, DecisionOutcome } from './decision.js';
import { applyEliminationScores, eliminationThresholdOf } from './elimination.js';
import { eliminationDimensionOf } from './elimination-key.js';
import { applyVolumeHedging } from './hedging.js';
import { debitRoutingOutputOf } from './network/debit-routing-output.js';
import { paymentDimensionsOf } from './payment-dimensions-of.js';
import { policyLogOf, singleCandidatePolicy } from './policy/policy-log-of.js';
import { priorityLogicOutputOf } from './priority-logic-output.js';
import type { RandomSource } from './random-source.js';
import { resolveSrParameters } from './resolve-sr-parameters.js';
import type { RoutingApproach } from './routing-approach.js';
import type { RoutingDefaults } from './routing-defaults.js';
import { routingDimensionOf } from './routing-dimension.js';
import { eliminationKeysOf, windowKeysOf } from './score-keys.js';
import { scoreMapOf } from './score-map.js';
import { scoreFromWindow } from './score-from-window.js';
import { windowDimensionOf } from './window-key.js';

// The decision's types live in decision.ts; callers of decideGateway get them from here too.
export type { Decision, DecisionFailure, DecisionInputs, DecisionOutcome } from './decision.js';

export interface DecideGatewayDeps {
  readonly scores: Pick<ScoreStore, 'readWindows' | 'readEliminations' | 'readWindowsNow' | 'readEliminationsNow'>;
  readonly random: RandomSource;
  readonly clock: Clock;
  readonly defaults: RoutingDefaults;
}

/** decision-engine's `error_message` texts, verbatim (§2.5). */
const failureMessages = {
  merchantNotFound: 'Merchant not found',
  gatewayNotFound: "Can't find a suitable gateway to process the transaction",
  coBadgedNotFound: "Can't find the co-badged card network",
} as const;

/**
 * Picks a gateway for one payment: the `/decide-gateway` pipeline of decision-engine 1.4.x
 * (§3.1 steps 2–10): merchant check, ranking-algorithm dispatch, candidates, preferred gateway,
 * SR v3 or priority-logic scores, volume hedging, elimination, decide.
 *
 * Expected failures come back as `{ ok: false }`; only a broken store throws. This is the hot
 * path: score reads are batched (at most one `readWindows` and one `readEliminations` call, never
 * one await per gateway), and scores live in one array indexed like the candidates. With a store
 * that answers from process memory (`readWindowsNow`), the outcome comes back as is, not in a
 * promise: the embedded service's decisions wait for no turn of the event loop.
 *
 * @remarks Left out on purpose: scheduled outages (the 1.4.0 API has no outage source, so
 * `isScheduledOutage` is always false), SR reset / extra-score / sampling flags and explore-exploit
 * (off unless seeded upstream), multi-objective routing, A/B arms, and priority-logic scripts (no
 * script runner: priority logic scores every candidate 1.0).
 */
export function decideGateway(request: DecideGatewayRequest, inputs: DecisionInputs, deps: DecideGatewayDeps): DecisionOutcome | Promise<DecisionOutcome> {
  const invalid = invalidInputOf(request);
  if (invalid !== undefined) return failed({ kind: 'invalid_input', message: invalid });
  if (inputs.merchant === undefined) return failed({ kind: 'merchant_not_found', message: failureMessages.merchantNotFound });

  const algorithm = request.rankingAlgorithm ?? null;
  if ((algorithm === 'NTW_BASED_ROUTING' || algorithm === 'NTW_SR_HYBRID_ROUTING') && !inputs.debitRoutingEnabled) {
    return failed({
      kind: 'debit_routing_not_enabled',
      message: `Debit routing is not enabled for merchant: ${request.merchantId}`,
    });
  }

  const decidedAt = deps.clock.now();
  const payment = paymentDimensionsOf(request.paymentInfo);
  const eliminationDimension = eliminationDimensionOf({ merchantId: request.merchantId, ...payment });
  const fees = deps.defaults.networkFees;

  if (algorithm === 'NTW_BASED_ROUTING') {
    const debit = debitRoutingOutputOf(request.paymentInfo.metadata, payment.amount, fees);
    if (!debit.ok) {
      return failed({
        kind: 'co_badged_network_not_found',
        message: failureMessages.coBadgedNotFound,
        problem: debit.problem,
        detail: debit.detail,
      });
    }
    return {
      ok: true,
      decision: {
        // Upstream answers the first eligible gateway and documents it as "should not be consumed".
        decidedGateway: request.eligibleGatewayList?.[0] ?? '',
        fallbackGateways: [],
        gatewayPriorityMap: null,
        routingApproach: 'NTW_BASED_ROUTING',
        gatewayBeforeEvaluation: null,
        priorityLogicOutput: null,
        debitRoutingOutput: debit.output,
        resetApproach: 'NO_RESET',
        routingDimension: null,
        routingDimensionLevel: null,
        isScheduledOutage: false,
        rankingAlgorithm: algorithm,
        windowDimension: null,
        eliminationDimension,
        payment,
        eliminationEnabled: false,
        decidedAt,
      },
    };
  }

  const scored = decideByScore(request, inputs, deps, { payment, eliminationDimension, decidedAt });
  if (algorithm !== 'NTW_SR_HYBRID_ROUTING') return scored;
  // Hybrid: a debit-routing failure is part of the answer (output null), not an error (§3.1 step 4).
  const withDebit = (outcome: DecisionOutcome): DecisionOutcome => {
    if (!outcome.ok) return outcome;
    const debit = debitRoutingOutputOf(request.paymentInfo.metadata, payment.amount, fees);
    return { ok: true, decision: { ...outcome.decision, debitRoutingOutput: debit.ok ? debit.output : null } };
  };
  return scored instanceof Promise ? scored.then(withDebit) : withDebit(scored);
}

interface ScoringContext {
  readonly payment: PaymentDimensions;
  readonly eliminationDimension: string;
  readonly decidedAt: number;
}

/** SR / priority-logic decision (§3.1 steps 5–10, §3.2–§3.5): synchronous when the score store answers from process memory. */
function decideByScore(
  request: DecideGatewayRequest,
  inputs: DecisionInputs,
  deps: DecideGatewayDeps,
  context: ScoringContext,
): DecisionOutcome | Promise<DecisionOutcome> {
  const { payment, decidedAt } = context;
  const merchantId = request.merchantId;
  const eligible = request.eligibleGatewayList ?? [];
  const candidates = distinctGateways(eligible);
  const useSuccessRate = request.rankingAlgorithm === 'SR_BASED_ROUTING' || request.rankingAlgorithm === 'NTW_SR_HYBRID_ROUTING';
  // An active routing rule (already applied to the candidates) is the priority logic: its order
  // scores priority-logic decisions, and its name is the priority-logic tag either way.
  const rule = inputs.rule;
  const priorityLogicOutput = priorityLogicOutputOf(useSuccessRate ? eligible : rule === undefined ? [] : rule.gateways, rule?.name ?? null);
  if (candidates.length === 0) {
    return failed({ kind: 'gateway_not_found', message: failureMessages.gatewayNotFound, priorityLogicOutput });
  }

  const eliminationEnabled = request.eliminationEnabled === true;
  const dimension = routingDimensionOf(payment);
  const windowDimension = windowDimensionOf(merchantId, payment, request.paymentInfo.udfs, inputs.srDimension);
  const decide = (scores: readonly number[], approach: RoutingApproach, before: string, policy?: Decision['policy']): DecisionOutcome => {
    const order = rankByScore(scores);
    const gatewayPriorityMap = scoreMapOf(candidates, scores);
    const decision: { -readonly [K in keyof Decision]: Decision[K] } = {
      decidedGateway: candidates[order[0] as number] as string,
      fallbackGateways: fallbacksOf(candidates, order),
      gatewayPriorityMap,
      routingApproach: approach,
      gatewayBeforeEvaluation: before,
      priorityLogicOutput,
      debitRoutingOutput: null,
      resetApproach: 'NO_RESET',
      routingDimension: dimension.routingDimension,
      routingDimensionLevel: dimension.routingDimensionLevel,
      // No outage source exists in the 1.4.0 API (outages were DB rows upstream), so never true.
      isScheduledOutage: false,
      rankingAlgorithm: request.rankingAlgorithm ?? null,
      windowDimension,
      eliminationDimension: context.eliminationDimension,
      payment,
      eliminationEnabled,
      decidedAt,
      // Every optional key present from the start, undefined until a step sets it: one shape for
      // every scored decision, held in the object itself. Added later, a key needed a separate
      // property store, allocated with the decision and again with each post-step's copy of it.
      multiObjectiveInfo: undefined,
      volumeSteerInfo: undefined,
      policy,
      sticky: undefined,
    };
    return { ok: true, decision };
  };

  // The preferred gateway wins outright only without dynamic switching (one candidate); otherwise
  // it is ignored (§3.1 step 6).
  const preferred = request.paymentInfo.preferredGateway;
  if (candidates.length === 1 && preferred != null && candidates[0] === preferred) {
    return decide([1], 'MERCHANT_PREFERENCE', preferred, singleCandidatePolicy(preferred, deps.defaults));
  }

  const scoreWindows = candidates.length > 1 && useSuccessRate;
  const parameters = scoreWindows ? resolveSrParameters(inputs.successRate, payment, deps.defaults) : undefined;
  const windowKeys = parameters === undefined ? undefined : windowKeysOf(windowDimension, candidates);
  const eliminationKeys = eliminationEnabled ? eliminationKeysOf(merchantId, payment, context.eliminationDimension, candidates) : undefined;
  const store = deps.scores;
  // A store in process memory answers both reads at once: no promise and no await per decision.
  if (store.readWindowsNow !== undefined && store.readEliminationsNow !== undefined) {
    return scoredWith(
      windowKeys === undefined || parameters === undefined ? undefined : store.readWindowsNow(windowKeys, parameters.bucketSize),
      eliminationKeys === undefined ? undefined : store.readEliminationsNow(eliminationKeys),
    );
  }
  // Both reads go out together: on Redis that is one round trip of wall time instead of two.
  return Promise.all([
    windowKeys === undefined || parameters === undefined ? undefined : store.readWindows(windowKeys, parameters.bucketSize),
    eliminationKeys === undefined ? undefined : store.readEliminations(eliminationKeys),
  ]).then(([windows, stored]) => scoredWith(windows, stored));

  /** The decision once the scores are read. */
  function scoredWith(
    windows: readonly (WindowRead | undefined)[] | undefined,
    stored: readonly (EliminationScore | undefined)[] | undefined,
  ): DecisionOutcome {
    const scores: number[] = new Array<number>(candidates.length).fill(1);
    let approach: RoutingApproach;
    let unhedgedScores: readonly number[] | undefined;
    if (candidates.length === 1) {
      approach = 'DEFAULT';
    } else if (parameters !== undefined && windows !== undefined) {
      for (let index = 0; index < candidates.length; index += 1) scores[index] = scoreFromWindow(windows[index]);
      approach = 'SR_SELECTION_V3_ROUTING';
      unhedgedScores = [...scores];
      if (deps.defaults.volumeHedgingEnabled && applyVolumeHedging(scores, parameters.hedgingPercent, deps.random)) {
        approach = 'SR_V3_HEDGING';
      }
    } else {
      // Priority logic without a script: every candidate 1.0 (§3.2, §12.10); list order breaks the tie.
      // With a routing rule its list is the priority list: 1.0, 0.9, 0.8 … (get_score_with_priority).
      if (rule !== undefined) {
        for (let index = 0; index < candidates.length; index += 1) {
          const rank = rule.gateways.indexOf(candidates[index] as string);
          scores[index] = 1 - 0.1 * (rank === -1 ? rule.gateways.length : rank);
        }
      }
      approach = 'PRIORITY_LOGIC';
    }
    // Scheduled outages would divide scores by defaults.outageDivisor here; see the remarks above.
    const before = candidates[bestScoreIndex(scores)] as string;
    const policy = policyLogOf({
      candidates,
      scores: unhedgedScores ?? [...scores],
      hedgingPercent: unhedgedScores !== undefined && deps.defaults.volumeHedgingEnabled ? (parameters?.hedgingPercent ?? 0) : 0,
      hedged: approach === 'SR_V3_HEDGING',
      bucketSize: unhedgedScores === undefined ? null : (parameters?.bucketSize ?? null),
      eliminations: stored,
      eliminationThreshold: stored === undefined ? null : eliminationThresholdOf(inputs.elimination, deps.defaults),
      defaults: deps.defaults,
      nowMs: decidedAt,
    });

    if (stored !== undefined) {
      approach = applyEliminationScores({
        scores,
        eliminationScores: stored,
        threshold: eliminationThresholdOf(inputs.elimination, deps.defaults),
        approach,
        nowMs: decidedAt,
        defaults: deps.defaults,
      });
    }
    // One candidate is always DEFAULT, even when elimination demoted it (§3.5).
    return decide(scores, candidates.length === 1 ? 'DEFAULT' : approach, before, policy);
  }
}

/** Past this many gateways a repeat is found with a Set; below it, by comparing pairs (no Set per decision). */
const pairwiseDistinctUpTo = 16;

/** The eligible gateways without repeats, first occurrence kept: the list itself when it has none (the usual case). */
function distinctGateways(eligible: readonly string[]): readonly string[] {
  if (eligible.length > pairwiseDistinctUpTo) return [...new Set(eligible)];
  for (let index = 1; index < eligible.length; index += 1) {
    for (let earlier = 0; earlier < index; earlier += 1) if (eligible[index] === eligible[earlier]) return [...new Set(eligible)];
  }
  return eligible;
}

/** The candidates after the first in `order` (indices into `candidates`), in an array made at its length. */
function fallbacksOf(candidates: readonly string[], order: readonly number[]): string[] {
  const fallbacks: string[] = new Array(Math.max(0, order.length - 1));
  for (let index = 1; index < order.length; index += 1) fallbacks[index - 1] = candidates[order[index] as number] as string;
  return fallbacks;
}

/** Checks the schema cannot express; the API has already validated the body's shape. */
function invalidInputOf(request: DecideGatewayRequest): string | undefined {
  if (!Number.isFinite(request.paymentInfo.amount)) return 'paymentInfo.amount must be a finite number';
  const eligible = request.eligibleGatewayList ?? [];
  for (let index = 0; index < eligible.length; index += 1) {
    if (eligible[index] === '') return `eligibleGatewayList[${index}] is an empty gateway name`;
  }
  return undefined;
}

function failed(failure: DecisionFailure): DecisionOutcome {
  return { ok: false, failure };
}
