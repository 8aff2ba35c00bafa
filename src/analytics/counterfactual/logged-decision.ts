import type { PolicyCandidate } from '../../decision/policy/decision-policy.js';
import type { LoggedDecisionFact } from '../../ports/analytics/decision-log.js';
import { statusFamilyOf } from '../status-families.js';

/** A logged decision as the estimators use it. `success` is null when no final outcome is known. */
export interface LoggedDecision {
  readonly id: string;
  readonly decidedAtMs: number;
  readonly gateway: string;
  /** The decision's routing approach; a post-step that moved the payment names itself here. */
  readonly routingApproach: string;
  readonly windowDimension: string;
  readonly amount: number;
  /** Probability with which the logging policy picked `gateway`. */
  readonly propensity: number;
  readonly hedged: boolean;
  readonly hedgingPercent: number;
  readonly bucketSize: number | null;
  readonly eliminationThreshold: number | null;
  readonly eliminationDivisor: number;
  readonly multiObjective: boolean;
  readonly candidates: readonly PolicyCandidate[];
  readonly success: boolean | null;
  /** When the outcome arrived (epoch ms); null without one. */
  readonly outcomeAtMs: number | null;
}

/**
 * Parses a store row. A feedback status of the success family is a success, of the failure family a
 * failure; anything else (pending, none) leaves the outcome unknown. Rows whose candidates do not
 * parse, or whose propensity is not in (0, 1], are dropped (returned undefined): they cannot be
 * weighted.
 */
export function loggedDecisionOf(fact: LoggedDecisionFact): LoggedDecision | undefined {
  const candidates = parseCandidates(fact.candidates);
  const propensity = Number(fact.propensity);
  if (candidates === undefined || !(propensity > 0 && propensity <= 1)) return undefined;
  const family = fact.feedback_status === '' ? 'other' : statusFamilyOf(fact.feedback_status);
  const success = family === 'success' ? true : family === 'failure' ? false : null;
  const nullable = (value: number | null) => (value === null ? null : Number(value));
  return {
    id: fact.event_id,
    decidedAtMs: Number(fact.created_at_ms),
    gateway: fact.gateway,
    routingApproach: fact.routing_approach,
    windowDimension: fact.window_dimension,
    amount: Number(fact.amount),
    propensity,
    hedged: Number(fact.hedged) === 1,
    hedgingPercent: Number(fact.hedging_percent),
    bucketSize: nullable(fact.bucket_size),
    eliminationThreshold: nullable(fact.elimination_threshold),
    eliminationDivisor: Number(fact.elimination_divisor),
    multiObjective: Number(fact.multi_objective) === 1,
    candidates,
    success,
    outcomeAtMs: success === null ? null : Number(fact.feedback_at_ms),
  };
}

function parseCandidates(json: string): PolicyCandidate[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const candidates: PolicyCandidate[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { gateway, score, eliminationScore } = item as Record<string, unknown>;
    if (typeof gateway !== 'string' || typeof score !== 'number') return undefined;
    candidates.push({ gateway, score, eliminationScore: typeof eliminationScore === 'number' ? eliminationScore : null });
  }
  return candidates;
}
