import { SwitchyardError } from '../errors/switchyard-error.js';
import type { EventEnvelope } from '../events/event-envelope.js';
import type { ScoreUpdatedV1 } from '../generated/schema-types.js';
import type { ConfigStore, EliminationScore, ScoreStore, WindowRead } from '../ports/state-store.js';
import { eliminationKeyFromDimension } from '../decision/elimination-key.js';
import { resolveSrParameters } from '../decision/resolve-sr-parameters.js';
import type { RoutingDefaults } from '../decision/routing-defaults.js';
import { scoreFromWindow } from '../decision/score-from-window.js';
import { windowKeyFor } from '../decision/window-key.js';
import type { Clock } from '../time/clock.js';
import { eliminationPenaltyStatuses, scoringTypeOf, type ScoringType } from './classify-status.js';
import { updateGateOf } from './update-gate.js';
import { isExcusedFailure } from './gsm/classify-feedback-error.js';
import { learnStickyHabit } from './learn-sticky-habit.js';
import type { StickyStore } from '../ports/state/sticky-store.js';
import type { StickySettings } from '../decision/sticky/sticky-settings.js';

// The sr-windows worker handles both event types of the routing topic from this module.
export { recordDecision, type RecordDecisionDeps } from './record-decision.js';

export interface ApplyFeedbackDeps {
  readonly scores: ScoreStore;
  /** Sticky routing's counts (issue 36); absent: feedback moves no habit. */
  readonly sticky?: StickyStore;
  readonly stickySettings?: StickySettings;
  readonly configs: Pick<ConfigStore, 'get'>;
  readonly clock: Clock;
  readonly defaults: RoutingDefaults;
}

/** Why accepted feedback changed nothing (duplicates have their own result kind). */
export type FeedbackSkipReason =
  /** Reward / SR failure arrived too long after the decision. */
  | 'outside_update_window'
  /** The feedback's gateway latency exceeds the merchant's elimination config limit. */
  | 'latency_above_limit'
  /** Nothing applies: a pending status that costs nothing, or no window / elimination to update. */
  | 'no_effect'
  /**
   * The failure's PSP error is not the gateway's fault (issuer/customer side by default) and the
   * merchant's `gsm-scoring-filter` was on when it arrived: the gateway is not penalised (docs/gsm.md).
   */
  | 'not_gateway_fault';

export type ApplyFeedbackResult =
  /** No decision for this payment in the last 30 minutes (or ever): feedback cannot be placed. */
  | { readonly kind: 'no_decision' }
  | { readonly kind: 'unchanged'; readonly scoringType: ScoringType; readonly reason: FeedbackSkipReason }
  | {
      readonly kind: 'applied';
      readonly scoringType: ScoringType;
      readonly windowApplied: boolean;
      readonly eliminationApplied: boolean;
      /** The `score.updated` payload to publish. */
      readonly snapshot: ScoreUpdatedV1;
    }
  | {
      /**
       * The same feedback (merchant, payment, gateway, scoring type) was already applied; scores did
       * not move. Carries the current snapshot so that a worker which crashed between the store
       * write and the publish still publishes it on redelivery (with a derived event id).
       */
      readonly kind: 'duplicate';
      readonly scoringType: ScoringType;
      readonly snapshot: ScoreUpdatedV1;
    };

/**
 * The sr-windows worker's effect for one `feedback.received` event (§4): finds the decision this
 * feedback is about, classifies the status, applies the update gate, then pushes the outcome onto
 * the gateway's SR window and/or moves its elimination score.
 *
 * Idempotent: store writes carry the dedupe key `<merchantId>:<paymentId>:<gateway>:<scoringType>`
 * (`:elimination` appended for the elimination write, since stores may share one dedupe space), so
 * a redelivered or resent feedback counts once. Upstream counts duplicates unless a lock flag is on.
 * Classification and the gate use the event's `occurredAt`, not the worker's clock, so a redelivery
 * classifies exactly like the first delivery; the clock only stamps elimination updates.
 *
 * The window key comes from the stored decision (same dimensions as when the payment was scored)
 * plus the feedback's gateway, which need not be the decided one. The bucket size is re-resolved
 * from the merchant's current successRate config.
 *
 * @throws SwitchyardError SY_EVENT_INVALID when the stored decision's elimination dimension does not
 * belong to its merchant and order type (nothing is written).
 */
export async function applyFeedback(event: EventEnvelope<'feedback.received'>, deps: ApplyFeedbackDeps): Promise<ApplyFeedbackResult> {
  const { merchantId } = event;
  const feedback = event.payload;
  const [context, successRate] = await Promise.all([
    deps.scores.getDecisionContext(merchantId, feedback.paymentId),
    deps.configs.get(merchantId, 'successRate'),
  ]);
  if (context === undefined) return { kind: 'no_decision' };

  const { defaults } = deps;
  const parameters = resolveSrParameters(successRate, context.payment, defaults);
  const scoringType = scoringTypeOf({
    status: feedback.status,
    enforceDynamicRoutingFailure: feedback.enforceDynamicRoutingFailure,
    decidedAtMs: context.decidedAt,
    nowMs: event.occurredAt,
    latencyThresholdSeconds: parameters.latencyThresholdSeconds,
  });
  const unchanged = (reason: FeedbackSkipReason): ApplyFeedbackResult => ({ kind: 'unchanged', scoringType, reason });
  // Only penalties are excused: a success that carried an error still rewards the gateway.
  if (scoringType !== 'reward' && isExcusedFailure(feedback.gsm)) return unchanged('not_gateway_fault');
  // The customer's habit (sticky routing) learns from the same feedback, before the update gate: a
  // success that comes too late for the SR window still shows where the customer pays.
  if (deps.sticky !== undefined && context.sticky !== undefined) {
    await learnStickyHabit(merchantId, context, feedback, {
      sticky: deps.sticky,
      dedupeTtlSeconds: defaults.feedbackDedupeTtlSeconds,
      ...(deps.stickySettings === undefined ? {} : { settings: deps.stickySettings }),
    });
  }

  if (scoringType !== 'penalise') {
    const latencyLimitMs =
      feedback.gatewayLatencyMs === null ? null : ((await deps.configs.get(merchantId, 'elimination'))?.txnLatency?.gatewayLatency ?? null);
    const gate = updateGateOf({
      orderType: context.orderType,
      decidedAtMs: context.decidedAt,
      feedbackAtMs: event.occurredAt,
      windowMs: defaults.feedbackWindowMs,
      gatewayLatencyMs: feedback.gatewayLatencyMs,
      latencyLimitMs,
    });
    if (gate !== 'open') return unchanged(gate);
  }

  const windowKey = scoringType !== 'penalise' && context.windowDimension !== null ? windowKeyFor(context.windowDimension, feedback.gateway) : undefined;
  const factor = context.eliminationEnabled ? eliminationFactorOf(scoringType, feedback.status, defaults) : undefined;
  let eliminationKey: string | undefined;
  if (factor !== undefined) {
    eliminationKey = eliminationKeyFromDimension(context.eliminationDimension, context.merchantId, context.orderType, feedback.gateway);
    if (eliminationKey === undefined) {
      throw new SwitchyardError('SY_EVENT_INVALID', {
        message: 'the stored decision has an elimination dimension for another merchant or order type',
        details: { eventId: event.id, decisionEventId: context.decisionEventId },
      });
    }
  }
  if (windowKey === undefined && eliminationKey === undefined) return unchanged('no_effect');

  const dedupeKey = `${merchantId}:${feedback.paymentId}:${feedback.gateway}:${scoringType}`;
  const dedupeTtlSeconds = defaults.feedbackDedupeTtlSeconds;
  const [windowResult, eliminationResult] = await Promise.all([
    windowKey === undefined
      ? undefined
      : deps.scores.recordOutcome({
          windowKey,
          outcome: scoringType === 'reward' ? 1 : 0,
          bucketSize: parameters.bucketSize,
          dedupeKey,
          dedupeTtlSeconds,
          windowTtlSeconds: defaults.windowTtlSeconds,
        }),
    eliminationKey === undefined || factor === undefined
      ? undefined
      : deps.scores.applyElimination({
          key: eliminationKey,
          factor,
          countsTransaction: scoringType === 'penalise',
          nowMs: deps.clock.now(),
          ttlMs: defaults.eliminationKeyTtlMs,
          dedupeKey: `${dedupeKey}:elimination`,
          dedupeTtlSeconds,
        }),
  ]);

  const windowApplied = windowResult?.applied === true;
  const eliminationApplied = eliminationResult?.applied === true;
  const window: WindowRead | undefined = windowResult?.window;
  const elimination: EliminationScore | undefined = eliminationResult?.score;
  const snapshot: ScoreUpdatedV1 = {
    paymentId: feedback.paymentId,
    gateway: feedback.gateway,
    status: feedback.status,
    scoringType,
    scoreValue: window === undefined ? null : scoreFromWindow(window),
    bucketSize: parameters.bucketSize,
    eliminationScore: elimination === undefined ? null : elimination.score,
    payment: context.payment,
    feedbackEventId: event.id,
  };
  if (!windowApplied && !eliminationApplied) return { kind: 'duplicate', scoringType, snapshot };
  return { kind: 'applied', scoringType, windowApplied, eliminationApplied, snapshot };
}

/**
 * How feedback moves an elimination score (§4.2): a reward multiplies by 1 + 5.26 % (capped at 1
 * by the store), a pending penalty by 1 − 5 % but only for PENDING_VBV / STARTED; an SR failure
 * leaves it alone. Undefined = untouched.
 */
function eliminationFactorOf(scoringType: ScoringType, status: string, defaults: RoutingDefaults): number | undefined {
  if (scoringType === 'reward') return 1 + defaults.rewardFactorPercent / 100;
  if (scoringType === 'penalise' && eliminationPenaltyStatuses.has(status)) return 1 - defaults.penaltyFactorPercent / 100;
  return undefined;
}
