import type { CostSavingsReport } from '../generated/schema-types.js';
import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import type { CostSavingsFact } from '../ports/analytics/cost-savings.js';
import type { ReportingCurrencySetting } from '../ports/state/reporting-currency.js';
import { convertToReportingCurrency, type CurrencySavings, type ReportingCurrencyTotals } from '../costs/convert-to-reporting-currency.js';

/** decision-engine lists at most this many currencies. */
export const costSavingsCurrencyLimit = 20;

/**
 * GET /analytics/cost-savings from the rows of one read (src/ports/analytics/cost-savings.ts), as
 * decision-engine's implementation answers it:
 *
 * - `available_currencies`: currencies with cost-won decisions that saved money in the window,
 *   counted so, most first (ties by currency), at most 20; no filter narrows the list (it feeds a
 *   currency picker).
 * - `currency`: the requested one, else the first available. The peer's prose says an omitted
 *   currency aggregates every currency; its code (and this) picks one, because amounts in different
 *   currencies do not add up. Null when there is none: empty trend, zero totals.
 * - `totals` and `trend` over that currency's rows passing the other filters: `total_decisions`
 *   counts the decisions the post-step ran on, `cost_won_count` those it promoted a cheaper gateway
 *   on, `saved_value` their savings; the trend lists only buckets with a saving, in time order.
 * - `net_value` and `approvals_lost` (ours, not the peer's): the same savings net of the approvals
 *   the cheaper gateways were expected to lose, and those approvals, from the scores and margin each
 *   decision was made with; `net_known_count` says how many cost-won decisions carried them.
 * - `reporting_currency` (ours), only when the merchant set one: every currency's rows passing the
 *   other filters, converted at the merchant's rates (src/costs/convert-to-reporting-currency.ts).
 * - `start_ms`, `end_ms`, `bucket_ms`: the window, so a chart can show its empty buckets too.
 */
export function shapeCostSavingsReport(
  query: ParsedAnalyticsQuery,
  facts: readonly CostSavingsFact[],
  reporting?: ReportingCurrencySetting,
): CostSavingsReport {
  const counts = new Map<string, number>();
  for (const fact of facts) {
    if (fact.currency === '' || fact.savedDecisions === 0) continue;
    counts.set(fact.currency, (counts.get(fact.currency) ?? 0) + fact.savedDecisions);
  }
  const available = [...counts]
    .map(([currency, decision_count]) => ({ currency, decision_count }))
    .sort((a, b) => b.decision_count - a.decision_count || (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
    .slice(0, costSavingsCurrencyLimit);
  const currency = query.dimensions.currency ?? available[0]?.currency ?? null;

  const totals = { saved_value: 0, net_value: 0, approvals_lost: 0, net_known_count: 0, cost_won_count: 0, total_decisions: 0 };
  const trend = new Map<number, { saved_value: number; net_value: number }>();
  if (currency !== null) {
    for (const fact of facts) {
      if (fact.currency !== currency || !fact.inFilters) continue;
      totals.saved_value += fact.savedValue;
      totals.net_value += fact.netValue;
      totals.approvals_lost += fact.approvalsLost;
      totals.net_known_count += fact.netKnownDecisions;
      totals.cost_won_count += fact.costWon;
      totals.total_decisions += fact.decisions;
      if (fact.savedDecisions > 0) {
        const point = trend.get(fact.bucketMs) ?? { saved_value: 0, net_value: 0 };
        trend.set(fact.bucketMs, { saved_value: point.saved_value + fact.savedValue, net_value: point.net_value + fact.netValue });
      }
    }
  }
  return {
    merchant_id: query.merchantId,
    range: query.range,
    start_ms: query.startMs,
    end_ms: query.endMs,
    bucket_ms: query.bucketMs,
    currency,
    available_currencies: available,
    trend: [...trend].sort(([a], [b]) => a - b).map(([bucket_ms, point]) => ({ bucket_ms, ...point })),
    totals,
    ...(reporting !== undefined ? { reporting_currency: wireOf(convertToReportingCurrency(perCurrency(facts), reporting)) } : {}),
  };
}

/** Each currency's totals over the rows passing the filters (currency excepted), for conversion. */
function perCurrency(facts: readonly CostSavingsFact[]): CurrencySavings[] {
  const sums = new Map<string, { savedValue: number; netValue: number; approvalsLost: number; costWon: number; decisions: number }>();
  for (const fact of facts) {
    if (!fact.inFilters || fact.decisions === 0) continue;
    const sum = sums.get(fact.currency) ?? { savedValue: 0, netValue: 0, approvalsLost: 0, costWon: 0, decisions: 0 };
    sum.savedValue += fact.savedValue;
    sum.netValue += fact.netValue;
    sum.approvalsLost += fact.approvalsLost;
    sum.costWon += fact.costWon;
    sum.decisions += fact.decisions;
    sums.set(fact.currency, sum);
  }
  return [...sums].map(([currency, sum]) => ({ currency, ...sum }));
}

function wireOf(conversion: ReportingCurrencyTotals): NonNullable<CostSavingsReport['reporting_currency']> {
  return {
    currency: conversion.currency,
    rates_as_of: conversion.ratesAsOf,
    totals: {
      saved_value: conversion.totals.savedValue,
      net_value: conversion.totals.netValue,
      approvals_lost: conversion.totals.approvalsLost,
      cost_won_count: conversion.totals.costWon,
      total_decisions: conversion.totals.decisions,
    },
    converted: conversion.converted.map((line) => ({
      currency: line.currency,
      rate: line.rate,
      as_of: line.asOf,
      saved_value: line.savedValue,
      net_value: line.netValue,
      saved_value_converted: line.savedValueConverted,
      net_value_converted: line.netValueConverted,
      cost_won_count: line.costWon,
    })),
    unconverted: conversion.unconverted.map((line) => ({
      currency: line.currency,
      saved_value: line.savedValue,
      net_value: line.netValue,
      approvals_lost: line.approvalsLost,
      cost_won_count: line.costWon,
    })),
  };
}
