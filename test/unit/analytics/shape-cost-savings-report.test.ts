import { describe, expect, it } from 'vitest';
import { parseAnalyticsQuery } from '../../../src/analytics/parse-analytics-query.js';
import { costSavingsCurrencyLimit, shapeCostSavingsReport } from '../../../src/analytics/shape-cost-savings-report.js';
import type { CostSavingsFact } from '../../../src/ports/analytics/cost-savings.js';

const query = (raw: Record<string, string> = {}) => {
  const parsed = parseAnalyticsQuery({ range: '1d', ...raw }, { merchantId: 'm1', nowMs: 1_800_000_000_000, endpoint: 'cost-savings' });
  if (!parsed.ok) throw new Error('bad query');
  return parsed.query;
};

const fact = (currency: string, bucketMs: number, values: Partial<CostSavingsFact> = {}): CostSavingsFact => ({
  currency,
  bucketMs,
  inFilters: true,
  decisions: 1,
  costWon: 1,
  savedDecisions: 1,
  savedValue: 1,
  netValue: 0.5,
  approvalsLost: 0.01,
  netKnownDecisions: 1,
  ...values,
});

describe('shapeCostSavingsReport', () => {
  it('orders currencies by saving decisions then name, leaves out blank ones and those without a saving, caps the list', () => {
    const facts = [
      fact('EUR', 0, { savedDecisions: 2 }),
      fact('AUD', 0, { savedDecisions: 2 }),
      fact('USD', 0, { savedDecisions: 1 }),
      fact('USD', 1, { savedDecisions: 2, inFilters: false }),
      fact('', 0, { savedDecisions: 9 }),
      fact('GBP', 0, { savedDecisions: 0, costWon: 3 }),
      ...Array.from({ length: 30 }, (_, index) => fact(`C${String(index).padStart(2, '0')}`, 0)),
    ];
    const report = shapeCostSavingsReport(query(), facts);
    expect(report.available_currencies.slice(0, 4)).toEqual([
      { currency: 'USD', decision_count: 3 },
      { currency: 'AUD', decision_count: 2 },
      { currency: 'EUR', decision_count: 2 },
      { currency: 'C00', decision_count: 1 },
    ]);
    expect(report.available_currencies).toHaveLength(costSavingsCurrencyLimit);
    expect(report.currency).toBe('USD');
  });

  it('sums the chosen currency over rows passing the filters; the trend keeps buckets with a saving, in time order', () => {
    const facts = [
      fact('USD', 7_200_000, { savedValue: 2, netValue: -1, approvalsLost: 0.25, decisions: 3, costWon: 2, savedDecisions: 2, netKnownDecisions: 2 }),
      fact('USD', 3_600_000, { savedValue: 1.5 }),
      fact('USD', 10_800_000, { savedValue: 0, netValue: 0, approvalsLost: 0, decisions: 4, costWon: 0, savedDecisions: 0, netKnownDecisions: 0 }),
      fact('USD', 3_600_000, { savedValue: 50, inFilters: false }),
      fact('EUR', 3_600_000, { savedValue: 9 }),
    ];
    const report = shapeCostSavingsReport(query(), facts);
    expect(report.totals).toEqual({ saved_value: 3.5, net_value: -0.5, approvals_lost: 0.26, net_known_count: 3, cost_won_count: 3, total_decisions: 8 });
    expect(report.trend).toEqual([
      { bucket_ms: 3_600_000, saved_value: 1.5, net_value: 0.5 },
      { bucket_ms: 7_200_000, saved_value: 2, net_value: -1 },
    ]);
    expect(shapeCostSavingsReport(query({ currency: 'EUR' }), facts).totals).toEqual({
      saved_value: 9,
      net_value: 0.5,
      approvals_lost: 0.01,
      net_known_count: 1,
      cost_won_count: 1,
      total_decisions: 1,
    });
  });

  it('answers null currency and zeros without a saving anywhere', () => {
    expect(shapeCostSavingsReport(query(), [fact('USD', 0, { costWon: 0, savedDecisions: 0, savedValue: 0 })])).toEqual({
      merchant_id: 'm1',
      range: '1d',
      start_ms: 1_800_000_000_000 - 86_400_000,
      end_ms: 1_800_000_000_000,
      bucket_ms: 3_600_000,
      currency: null,
      available_currencies: [],
      trend: [],
      totals: { saved_value: 0, net_value: 0, approvals_lost: 0, net_known_count: 0, cost_won_count: 0, total_decisions: 0 },
    });
  });

  it('adds every currency passing the filters, converted, only when a reporting currency is set', () => {
    const facts = [
      fact('USD', 0, { savedValue: 2, netValue: 1, costWon: 2, decisions: 3 }),
      fact('EUR', 0, { savedValue: 1, netValue: 0.5 }),
      fact('EUR', 3_600_000, { savedValue: 1, netValue: 0.5 }),
      fact('EUR', 0, { savedValue: 100, inFilters: false }),
      fact('GBP', 0, { savedValue: 3, netValue: 2 }),
    ];
    expect(shapeCostSavingsReport(query(), facts)).not.toHaveProperty('reporting_currency');
    const report = shapeCostSavingsReport(query({ currency: 'USD' }), facts, {
      currency: 'USD',
      rates: [{ currency: 'EUR', rate: 1.1, asOf: '2026-11-27' }],
    });
    expect(report.totals.saved_value).toBe(2);
    expect(report.reporting_currency).toEqual({
      currency: 'USD',
      rates_as_of: '2026-11-27',
      totals: { saved_value: 4.2, net_value: 2.1, approvals_lost: 0.03, cost_won_count: 4, total_decisions: 5 },
      converted: [
        {
          currency: 'EUR',
          rate: 1.1,
          as_of: '2026-11-27',
          saved_value: 2,
          net_value: 1,
          saved_value_converted: 2.2,
          net_value_converted: 1.1,
          cost_won_count: 2,
        },
        { currency: 'USD', rate: 1, as_of: null, saved_value: 2, net_value: 1, saved_value_converted: 2, net_value_converted: 1, cost_won_count: 2 },
      ],
      unconverted: [{ currency: 'GBP', saved_value: 3, net_value: 2, approvals_lost: 0.01, cost_won_count: 1 }],
    });
  });
});
