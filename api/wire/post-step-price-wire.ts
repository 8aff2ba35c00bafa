import type { RateInterval } from '../../src/analytics/counterfactual/post-step-price.js';
import type { PostStepPriceReport } from '../../src/analytics/counterfactual/run-post-step-price.js';

const round = (value: number) => Math.round(value * 1e6) / 1e6;

function intervalWire(interval: RateInterval | null) {
  return interval === null ? null : { value: round(interval.value), ci95_low: round(interval.ci95[0]), ci95_high: round(interval.ci95[1]) };
}

/** The PostStepPriceReport body (snake_case, numbers to a millionth). */
export function postStepPriceWire(report: PostStepPriceReport) {
  return {
    merchant_id: report.merchantId,
    start_ms: report.startMs,
    end_ms: report.endMs,
    candidate: report.candidate,
    decisions: report.decisions,
    labelled: report.labelled,
    moved: report.moved,
    moved_labelled: report.movedLabelled,
    truncated: report.truncated,
    supported: report.supported,
    reason: report.reason,
    message: report.message,
    logged_success_rate: report.loggedSuccessRate === null ? null : round(report.loggedSuccessRate),
    rate_given_up: intervalWire(report.rateGivenUp),
    candidate_success_rate: intervalWire(report.candidateSuccessRate),
    score_gap_at_decision: report.scoreGapAtDecision === null ? null : round(report.scoreGapAtDecision),
  };
}
