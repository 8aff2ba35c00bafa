import type { EliminationConfig } from '../generated/schema-types.js';
import type { EliminationScore } from '../ports/state-store.js';
import type { RoutingApproach } from './routing-approach.js';
import type { RoutingDefaults } from './routing-defaults.js';

/**
 * The elimination threshold for a merchant: its elimination config's threshold, else the default
 * (§3.5). Per-gateway and global thresholds are not part of the 1.4.0 config surface.
 */
export function eliminationThresholdOf(config: EliminationConfig | undefined, defaults: RoutingDefaults): number {
  const threshold = config?.threshold;
  return typeof threshold === 'number' && Number.isFinite(threshold) ? threshold : defaults.eliminationThreshold;
}

export interface EliminationInput {
  /** Routing scores, one per candidate; rewritten in place. */
  readonly scores: number[];
  /** The stored elimination score of each candidate, same order; undefined = never penalised. */
  readonly eliminationScores: readonly (EliminationScore | undefined)[];
  readonly threshold: number;
  readonly approach: RoutingApproach;
  readonly nowMs: number;
  readonly defaults: RoutingDefaults;
}

/**
 * Demotes every candidate whose elimination score is below the threshold: its routing score is
 * divided by `eliminationDivisor`. It stays a candidate (§3.5). Returns the relabelled approach:
 * all candidates (and more than one) below → `*_ALL_DOWNTIME_*`, some → `*_DOWNTIME_*`, none →
 * unchanged. A single candidate keeps its approach: the decision reports DEFAULT for it whatever
 * elimination did.
 *
 * A score older than `eliminationKeyTtlMs` counts as absent (1.0), matching upstream's hard key
 * expiry even when a store keeps the value longer.
 */
export function applyEliminationScores(input: EliminationInput): RoutingApproach {
  const { scores, eliminationScores, threshold, nowMs, defaults } = input;
  let below = 0;
  for (let index = 0; index < scores.length; index += 1) {
    const stored = eliminationScores[index];
    if (stored === undefined || nowMs - stored.updatedAt >= defaults.eliminationKeyTtlMs) continue;
    if (stored.score < threshold) {
      scores[index] = (scores[index] as number) / defaults.eliminationDivisor;
      below += 1;
    }
  }
  if (below === 0 || scores.length === 1) return input.approach;
  return downtimeApproachOf(input.approach, below === scores.length ? 'all' : 'some');
}

/**
 * upstream modify_gateway_decider_approach without the global branch (no global scores here):
 * SR v3 routing and hedging keep their family; everything else becomes a priority-logic downtime.
 */
export function downtimeApproachOf(approach: RoutingApproach, extent: 'all' | 'some'): RoutingApproach {
  const all = extent === 'all';
  switch (approach) {
    case 'SR_SELECTION_V3_ROUTING':
      return all ? 'SR_V3_ALL_DOWNTIME_ROUTING' : 'SR_V3_DOWNTIME_ROUTING';
    case 'SR_V3_HEDGING':
      return all ? 'SR_V3_ALL_DOWNTIME_HEDGING' : 'SR_V3_DOWNTIME_HEDGING';
    default:
      return all ? 'PL_ALL_DOWNTIME_ROUTING' : 'PL_DOWNTIME_ROUTING';
  }
}
