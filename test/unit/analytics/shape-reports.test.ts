import { describe, expect, it } from 'vitest';
import { parseAnalyticsQuery } from '../../../src/analytics/parse-analytics-query.js';
import { shapeDecisionsReport } from '../../../src/analytics/shape-decisions-report.js';
import { shapeOverviewReport } from '../../../src/analytics/shape-overview-report.js';
import { shapePaymentAuditReport } from '../../../src/analytics/shape-payment-audit-report.js';
import { shapeRoutingStatsReport } from '../../../src/analytics/shape-routing-stats-report.js';
import { roundScore, shapeScorePoint } from '../../../src/analytics/shape-score-reports.js';
import { statusFamilyOf } from '../../../src/analytics/status-families.js';

const parsed = parseAnalyticsQuery({ range: '1d' }, { merchantId: 'm1', nowMs: Date.UTC(2026, 0, 1), endpoint: 'overview' });
if (!parsed.ok) throw new Error('fixture query rejected');
const query = parsed.query;

const noApproval = { approvalGateways: [], approvalSeries: [], declineReasons: [] };

describe('shapeOverviewReport', () => {
  it('reports every route hit and zero counts when the window is empty', () => {
    const report = shapeOverviewReport(query, { ...noApproval, flowCounts: [], topScores: [], topErrors: [], topRules: [] });
    expect(report.kpis.map((kpi) => [kpi.label, kpi.value])).toEqual([
      ['Decision events / 1d', '0'],
      ['Score snapshots', '0'],
      ['Rule hits', '0'],
      ['Errors', '0'],
    ]);
    expect(report.route_hits).toEqual([
      { route: '/decide_gateway', count: 0 },
      { route: '/update_gateway', count: 0 },
      { route: '/rule_evaluate', count: 0 },
    ]);
  });

  it('adds legacy snapshots and every error flow into their KPIs', () => {
    const report = shapeOverviewReport(query, {
      ...noApproval,
      flowCounts: [
        { key: 'update_gateway_score_score_snapshot', count: 3 },
        { key: 'update_score_legacy_score_snapshot', count: 2 },
        { key: 'decide_gateway_error', count: 1 },
        { key: 'routing_evaluate_error', count: 4 },
      ],
      topScores: [],
      topErrors: [],
      topRules: [],
    });
    expect(report.kpis.map((kpi) => kpi.value)).toEqual(['0', '5', '0', '5']);
  });
});

describe('shapeDecisionsReport', () => {
  it('formats the error rate with two decimals and 0.00% when there were no decisions', () => {
    expect(shapeDecisionsReport(query, { decisions: 2, failures: 1, series: [], approaches: [] }).tiles[1]?.value).toBe('33.33%');
    expect(shapeDecisionsReport(query, { decisions: 0, failures: 0, series: [], approaches: [] }).tiles[1]?.value).toBe('0.00%');
  });
});

describe('shapeRoutingStatsReport', () => {
  it('lists dimensions without values as missing and drops empty values', () => {
    const report = shapeRoutingStatsReport(query, {
      gatewayShare: [],
      topRules: [],
      trend: [],
      filterValues: { payment_method_type: ['', 'UPI', 'CARD'], gateway: ['', 'stripe'] },
    });
    expect(report.available_filters.dimensions).toEqual([{ key: 'payment_method_type', label: 'Payment method type', values: ['CARD', 'UPI'] }]);
    expect(report.available_filters.missing_dimensions.map((d) => d.key)).toEqual([
      'payment_method',
      'card_network',
      'card_is_in',
      'currency',
      'country',
      'auth_type',
    ]);
    expect(report.available_filters.gateways).toEqual(['stripe']);
  });
});

describe('shapePaymentAuditReport', () => {
  it('turns empty strings into null and parses details unless they were cut', () => {
    const fact = {
      event_id: 'e1',
      flow_type: 'decide_gateway_decision',
      event_stage: '',
      route: '',
      payment_id: 'p',
      request_id: '',
      global_request_id: '',
      trace_id: '',
      payment_method_type: '',
      payment_method: '',
      gateway: '',
      routing_approach: '',
      rule_name: '',
      status: '',
      error_code: '',
      error_message: '',
      score_value: null,
      sigma_factor: null,
      average_latency: null,
      tp99_latency: null,
      transaction_count: null,
      details: '{"a":1}',
      created_at_ms: 5,
    };
    const report = shapePaymentAuditReport(query, {
      totals: { total_results: 1, total_success: 0, total_failure: 0 },
      results: [],
      timeline: [fact, { ...fact, event_id: 'e2', details: '{"a":' }],
    });
    expect(report.timeline[0]).toMatchObject({ id: 'e1', request_id: null, route: null, details: '{"a":1}', details_json: { a: 1 } });
    expect(report.timeline[1]).toMatchObject({ id: 'e2', details: '{"a":', details_json: null });
  });
});

describe('score rounding', () => {
  it('rounds averaged scores to six decimals so float sums agree across engines', () => {
    expect(roundScore(0.1 + 0.2)).toBe(0.3);
    expect(shapeScorePoint('m1', { bucket_ms: 0, payment_method_type: '', payment_method: 'X', gateway: 'g', score_value: 0.8750000000000001 })).toEqual({
      bucket_ms: 0,
      merchant_id: 'm1',
      payment_method_type: null,
      payment_method: 'X',
      gateway: 'g',
      score_value: 0.875,
    });
  });
});

describe('statusFamilyOf', () => {
  it.each([
    ['CHARGED', 'success'],
    ['success', 'success'],
    ['AUTHORIZED', 'success'],
    ['FAILURE', 'failure'],
    ['AUTHENTICATION_FAILED', 'failure'],
    ['CARD_DECLINED', 'failure'],
    ['PENDING_VBV', 'other'],
    ['snapshot', 'other'],
  ])('classifies %s as %s', (status, family) => {
    expect(statusFamilyOf(status)).toBe(family);
  });
});
