import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { AnalyticsStore } from '../../ports/analytics-store.js';
import { loggedDecisionOf, type LoggedDecision } from './logged-decision.js';
import { estimatePostStepPrice, type PostStepCandidate, type PostStepPrice } from './post-step-price.js';
import { counterfactualDecisionLimit } from './run-counterfactual.js';

export interface PostStepPriceQuery {
  readonly merchantId: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly candidate: PostStepCandidate;
}

export interface PostStepPriceReport extends PostStepPrice {
  readonly merchantId: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly truncated: boolean;
}

export type RunPostStepPrice = (query: PostStepPriceQuery) => Promise<PostStepPriceReport>;

/** How long after the range feedback still counts as the outcome of a decision in it (as run-counterfactual.ts). */
const feedbackGraceMs = 24 * 60 * 60 * 1000;

/**
 * POST /analytics/counterfactual with a post-step candidate (`without_volume_commitment`,
 * `without_sticky_routing`): the authorisation rate volume-commitment steering or sticky routing
 * gave up over the range, from the merchant's logged decisions and their feedback (post-step-price.ts).
 *
 * @throws SwitchyardError `SY_ANALYTICS_UNAVAILABLE` without an analytics store.
 */
export function createRunPostStepPrice(deps: { readonly analytics: Pick<AnalyticsStore, 'loggedDecisions'> | undefined }): RunPostStepPrice {
  return async (query) => {
    const analytics = deps.analytics;
    if (analytics === undefined) throw new SwitchyardError('SY_ANALYTICS_UNAVAILABLE', { message: 'Failed while connecting to database' });
    const facts = await analytics.loggedDecisions({
      merchantId: query.merchantId,
      fromMs: query.startMs,
      toMs: query.endMs,
      feedbackUntilMs: query.endMs + feedbackGraceMs,
      limit: counterfactualDecisionLimit + 1,
    });
    const truncated = facts.length > counterfactualDecisionLimit;
    const decisions: LoggedDecision[] = [];
    for (const fact of truncated ? facts.slice(0, counterfactualDecisionLimit) : facts) {
      // The paired estimate weighs no decision by its propensity. A payment a post-step moved off
      // routing's pick has the replayed propensity 0 when hedging is off (the policy log never picks
      // it): read it anyway, where the configuration evaluator must drop it.
      const decision = loggedDecisionOf(Number(fact.propensity) > 0 ? fact : { ...fact, propensity: 1 });
      if (decision !== undefined) decisions.push(decision);
    }
    return { ...estimatePostStepPrice(decisions, query.candidate), merchantId: query.merchantId, startMs: query.startMs, endMs: query.endMs, truncated };
  };
}
