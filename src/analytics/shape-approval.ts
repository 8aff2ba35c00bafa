import { gsmClasses, isGsmUnifiedCode, type FailureSide } from '../feedback/gsm/gsm-classes.js';
import type { ApprovalCounts, ApprovalPoint, DeclineReason, GatewayApproval } from '../ports/analytics/analytics-reports.js';
import type { ApprovalGatewayFact, ApprovalPointFact, DeclineReasonFact } from './analytics-facts.js';

/** How many decline reasons the overview lists (gateway × code × class, most frequent first). */
export const declineReasonLimit = 10;

/** Whose failure a gateway status map class names, in the operator's words (docs/gsm.md). */
const sideWords: Readonly<Record<FailureSide, string>> = {
  issuer_customer: 'issuer or customer',
  merchant_configuration: "merchant's configuration at the PSP",
  psp: 'the PSP',
  merchant_integration: "merchant's integration with the PSP",
  unknown: 'unknown',
};

/** approved / (approved + declined) to four decimals; null when no attempt has a final outcome. */
export function approvalRate(approved: number, declined: number): number | null {
  const settled = approved + declined;
  return settled === 0 ? null : Math.round((approved / settled) * 10_000) / 10_000;
}

function countsOf(fact: Pick<ApprovalGatewayFact, 'attempts' | 'approved' | 'declined' | 'pending'>): ApprovalCounts {
  return {
    attempts: fact.attempts,
    approved: fact.approved,
    declined: fact.declined,
    pending: fact.pending,
    no_outcome: fact.attempts - fact.approved - fact.declined - fact.pending,
    approval_rate: approvalRate(fact.approved, fact.declined),
  };
}

/**
 * The overview's approval fields: totals (the sum of the gateway rows, so the table and the tile
 * agree), one row per gateway, the per-bucket series and the decline reasons with their class in words.
 */
export function shapeApproval(facts: {
  readonly gateways: readonly ApprovalGatewayFact[];
  readonly series: readonly ApprovalPointFact[];
  readonly declines: readonly DeclineReasonFact[];
}): {
  approval: ApprovalCounts;
  gateway_approval: GatewayApproval[];
  approval_series: ApprovalPoint[];
  decline_reasons: DeclineReason[];
} {
  const sum = (key: 'attempts' | 'approved' | 'declined' | 'pending') => facts.gateways.reduce((total, fact) => total + fact[key], 0);
  return {
    approval: countsOf({ attempts: sum('attempts'), approved: sum('approved'), declined: sum('declined'), pending: sum('pending') }),
    gateway_approval: facts.gateways.map((fact) => ({
      gateway: fact.gateway,
      decisions: fact.decisions,
      ...countsOf(fact),
      avg_latency_ms: fact.latency_samples === 0 ? null : Math.round((fact.latency_sum_ms / fact.latency_samples) * 100) / 100,
      latency_samples: fact.latency_samples,
    })),
    approval_series: facts.series.map((point) => ({
      bucket_ms: point.bucket_ms,
      gateway: point.gateway,
      approved: point.approved,
      declined: point.declined,
      approval_rate: approvalRate(point.approved, point.declined) ?? 0,
    })),
    decline_reasons: facts.declines.map((fact) => {
      const gsmClass = isGsmUnifiedCode(fact.unified_code) ? gsmClasses[fact.unified_code] : undefined;
      return {
        gateway: fact.gateway,
        error_code: fact.error_code === '' ? null : fact.error_code,
        error_message: fact.error_message === '' ? null : fact.error_message,
        unified_code: fact.unified_code === '' ? null : fact.unified_code,
        unified_message: gsmClass?.unifiedMessage ?? null,
        failure_side: gsmClass === undefined ? null : sideWords[gsmClass.side],
        count: fact.count,
        last_seen_ms: fact.last_seen_ms,
      };
    }),
  };
}
