import { describe, expect, it } from 'vitest';
import { approvalRate, shapeApproval } from '../../../src/analytics/shape-approval.js';

describe('shapeApproval', () => {
  it('counts attempts without an outcome apart and never as approvals', () => {
    const shaped = shapeApproval({
      gateways: [
        { gateway: 'stripe', attempts: 10, decisions: 10, approved: 6, declined: 2, pending: 1, latency_samples: 4, latency_sum_ms: 1000 },
        { gateway: 'adyen', attempts: 3, decisions: 3, approved: 0, declined: 0, pending: 0, latency_samples: 0, latency_sum_ms: 0 },
      ],
      series: [{ bucket_ms: 60_000, gateway: 'stripe', approved: 3, declined: 1 }],
      declines: [
        { gateway: 'stripe', error_code: 'card_declined', error_message: 'Declined', unified_code: 'UE_1000', count: 2, last_seen_ms: 5 },
        { gateway: 'stripe', error_code: '', error_message: '', unified_code: '', count: 1, last_seen_ms: 4 },
      ],
    });
    expect(shaped.approval).toEqual({ attempts: 13, approved: 6, declined: 2, pending: 1, no_outcome: 4, approval_rate: 0.75 });
    expect(shaped.gateway_approval).toEqual([
      {
        gateway: 'stripe',
        decisions: 10,
        attempts: 10,
        approved: 6,
        declined: 2,
        pending: 1,
        no_outcome: 1,
        approval_rate: 0.75,
        avg_latency_ms: 250,
        latency_samples: 4,
      },
      {
        gateway: 'adyen',
        decisions: 3,
        attempts: 3,
        approved: 0,
        declined: 0,
        pending: 0,
        no_outcome: 3,
        approval_rate: null,
        avg_latency_ms: null,
        latency_samples: 0,
      },
    ]);
    expect(shaped.approval_series).toEqual([{ bucket_ms: 60_000, gateway: 'stripe', approved: 3, declined: 1, approval_rate: 0.75 }]);
    expect(shaped.decline_reasons).toEqual([
      {
        gateway: 'stripe',
        error_code: 'card_declined',
        error_message: 'Declined',
        unified_code: 'UE_1000',
        unified_message: 'Issue with Payment Method details',
        failure_side: 'issuer or customer',
        count: 2,
        last_seen_ms: 5,
      },
      { gateway: 'stripe', error_code: null, error_message: null, unified_code: null, unified_message: null, failure_side: null, count: 1, last_seen_ms: 4 },
    ]);
  });

  it('rounds the rate to four decimals and has none without a final outcome', () => {
    expect(approvalRate(2, 1)).toBe(0.6667);
    expect(approvalRate(0, 0)).toBeNull();
  });
});
