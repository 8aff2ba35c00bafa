import type { Estimate, Estimates } from '../../src/analytics/counterfactual/estimators.js';
import type { CounterfactualReport } from '../../src/analytics/counterfactual/run-counterfactual.js';

const round = (value: number) => Math.round(value * 1e6) / 1e6;

function estimateWire(estimate: Estimate | null) {
  if (estimate === null) return null;
  return { value: round(estimate.value), standard_error: round(estimate.standardError), ci95_low: round(estimate.ci95[0]), ci95_high: round(estimate.ci95[1]) };
}

function estimatesWire(estimates: Estimates | null) {
  if (estimates === null) return null;
  return { ips: estimateWire(estimates.ips), snips: estimateWire(estimates.snips), doubly_robust: estimateWire(estimates.doublyRobust) };
}

/** The CounterfactualReport body (snake_case, numbers to a millionth). */
export function counterfactualWire(report: CounterfactualReport) {
  const { candidate } = report;
  return {
    merchant_id: report.merchantId,
    start_ms: report.startMs,
    end_ms: report.endMs,
    candidate: {
      bucket_size: candidate.bucketSize,
      hedging_percent: candidate.hedgingPercent,
      elimination_threshold: candidate.eliminationThreshold,
      multi_objective: candidate.multiObjective,
      margin: candidate.margin,
    },
    decisions: report.decisions,
    labelled: report.labelled,
    supported: report.supported,
    reason: report.reason,
    message: report.message,
    unsupported_share: round(report.unsupportedShare),
    unsupported_gateways: report.unsupportedGateways,
    effective_sample_size: round(report.effectiveSampleSize),
    logged: { success_rate: estimateWire(report.logged.successRate), ev: estimateWire(report.logged.ev) },
    success_rate: estimatesWire(report.successRate),
    ev: estimatesWire(report.ev),
    ev_message: report.evMessage,
    recommended: report.recommended === null ? null : { estimator: report.recommended.estimator, ...estimateWire(report.recommended) },
    explanation: report.explanation,
    same_as_logging: report.sameAsLogging,
    rescoring:
      report.rescoring === null
        ? null
        : {
            bucket_size: report.rescoring.bucketSize,
            window_reads: report.rescoring.windowReads,
            real_entry_share: round(report.rescoring.realEntryShare),
            full_window_share: round(report.rescoring.fullWindowShare),
          },
    truncated: report.truncated,
  };
}
