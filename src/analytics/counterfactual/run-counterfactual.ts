import { SwitchyardError } from '../../errors/switchyard-error.js';
import { eliminationThresholdOf } from '../../decision/elimination.js';
import { isFeatureEnabled } from '../../decision/features/merchant-features.js';
import { merchantMargin } from '../../decision/multi-objective/apply-multi-objective.js';
import type { RoutingDefaults } from '../../decision/routing-defaults.js';
import type { AnalyticsStore } from '../../ports/analytics-store.js';
import type { ConfigStore } from '../../ports/state/config-store.js';
import { lookupFeeEstimate } from '../../costs/lookup-fee-estimate.js';
import { effectiveSeedTable } from '../../costs/seed-cost-table.js';
import type { CostModel, FeeEstimate } from '../../ports/state/cost-model.js';
import type { SeedCostTable } from '../../ports/state/seed-costs.js';
import type { CandidateConfig } from './candidate-policy.js';
import { evaluateCounterfactual, type CounterfactualResult } from './evaluate-counterfactual.js';
import { loggedDecisionOf, type LoggedDecision } from './logged-decision.js';

/** A candidate configuration as asked: omitted knobs come from the merchant's current config. */
export interface CounterfactualQuery {
  readonly merchantId: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly bucketSize?: number;
  readonly hedgingPercent?: number;
  readonly eliminationThreshold?: number;
  readonly multiObjective?: boolean;
  readonly margin?: number;
}

export interface CounterfactualReport extends CounterfactualResult {
  readonly merchantId: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly candidate: CandidateConfig;
  readonly truncated: boolean;
}

export interface CounterfactualDeps {
  readonly analytics: Pick<AnalyticsStore, 'loggedDecisions'> | undefined;
  readonly configs: Pick<ConfigStore, 'get'>;
  readonly defaults: RoutingDefaults;
}

/** Decisions one evaluation reads at most (oldest first); beyond it the report says truncated. */
export const counterfactualDecisionLimit = 200_000;

/** How long after the range feedback still counts as the outcome of a decision in it. */
const feedbackGraceMs = 24 * 60 * 60 * 1000;

export type RunCounterfactual = (query: CounterfactualQuery) => Promise<CounterfactualReport>;

/**
 * POST /analytics/counterfactual: reads the merchant's logged decisions (with their feedback) in the
 * range and estimates the candidate configuration's success rate and EV (evaluate-counterfactual.ts).
 * Fees for EV are looked up as the decide path prices a gateway (lookup-fee-estimate.ts): the
 * merchant's served cost model (an override wins), else its seed table in effect (its own, else the
 * default one), so a merchant pricing gateways with seed costs alone gets EV too.
 *
 * @throws SwitchyardError `SY_ANALYTICS_UNAVAILABLE` without an analytics store.
 */
export function createRunCounterfactual(deps: CounterfactualDeps): RunCounterfactual {
  return async (query) => {
    const analytics = deps.analytics;
    if (analytics === undefined) throw new SwitchyardError('SY_ANALYTICS_UNAVAILABLE', { message: 'Failed while connecting to database' });
    const { merchantId } = query;
    const [successRate, elimination, features, costModel, seedCosts] = await Promise.all([
      deps.configs.get(merchantId, 'successRate'),
      deps.configs.get(merchantId, 'elimination'),
      deps.configs.get(merchantId, 'features'),
      deps.configs.get(merchantId, 'costModel'),
      deps.configs.get(merchantId, 'seedCosts'),
    ]);
    const candidate: CandidateConfig = {
      bucketSize: query.bucketSize ?? positiveInteger(successRate?.defaultBucketSize) ?? deps.defaults.bucketSize,
      hedgingPercent: query.hedgingPercent ?? nonNegative(successRate?.defaultHedgingPercent) ?? deps.defaults.hedgingPercent,
      eliminationThreshold: query.eliminationThreshold ?? eliminationThresholdOf(elimination, deps.defaults),
      multiObjective: query.multiObjective ?? isFeatureEnabled(features, 'multi-objective-routing'),
      margin: query.margin ?? merchantMargin(successRate),
    };
    const facts = await analytics.loggedDecisions({
      merchantId,
      fromMs: query.startMs,
      toMs: query.endMs,
      feedbackUntilMs: query.endMs + feedbackGraceMs,
      limit: counterfactualDecisionLimit + 1,
    });
    const truncated = facts.length > counterfactualDecisionLimit;
    const decisions: LoggedDecision[] = [];
    for (const fact of truncated ? facts.slice(0, counterfactualDecisionLimit) : facts) {
      const decision = loggedDecisionOf(fact);
      if (decision !== undefined) decisions.push(decision);
    }
    const result = evaluateCounterfactual(decisions, candidate, feesOf(decisions, costModel, effectiveSeedTable(seedCosts)));
    return { ...result, merchantId, startMs: query.startMs, endMs: query.endMs, candidate, truncated };
  };
}

/**
 * The fee of every gateway the decisions name (chosen or candidate), as the decide path would price
 * it for a card it knows nothing of: a logged decision keeps no card attributes, so the connector's
 * override or fitted fee, else the seed table's default row for the PSP. A gateway neither prices
 * is left out (EV then says it has no fee data).
 */
export function feesOf(decisions: readonly LoggedDecision[], costModel: CostModel | undefined, seedTable: SeedCostTable): ReadonlyMap<string, FeeEstimate> {
  const fees = new Map<string, FeeEstimate>();
  for (const decision of decisions) {
    for (const gateway of [decision.gateway, ...decision.candidates.map((candidate) => candidate.gateway)]) {
      if (fees.has(gateway)) continue;
      const priced = lookupFeeEstimate(gateway, { amount: decision.amount }, { costModel, seedTable });
      if (priced !== undefined) fees.set(gateway, priced.fee);
    }
  }
  return fees;
}

function positiveInteger(value: number | null | undefined): number | undefined {
  return value != null && Number.isInteger(value) && value > 0 ? value : undefined;
}

function nonNegative(value: number | null | undefined): number | undefined {
  return value != null && Number.isFinite(value) && value >= 0 ? value : undefined;
}
