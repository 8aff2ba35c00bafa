import type { ReportingCurrencySetting } from '../ports/state/reporting-currency.js';
import { minorUnitExponent } from '../volume-commitment/read-volume-contract.js';
import { decimalOf, multiply, numberOf, roundTo } from './decimal-amount.js';

/** One currency's cost-savings totals, in that currency ('' when the decisions carried none). */
export interface CurrencySavings {
  readonly currency: string;
  readonly savedValue: number;
  readonly netValue: number;
  readonly approvalsLost: number;
  readonly costWon: number;
  readonly decisions: number;
}

export interface ConvertedCurrency {
  readonly currency: string;
  readonly rate: number;
  /** Null for the reporting currency itself (rate 1 by definition). */
  readonly asOf: string | null;
  readonly savedValue: number;
  readonly netValue: number;
  readonly savedValueConverted: number;
  readonly netValueConverted: number;
  readonly costWon: number;
}

export interface ReportingCurrencyTotals {
  readonly currency: string;
  /** The oldest `asOf` among the rates used; null when none was needed. */
  readonly ratesAsOf: string | null;
  /** Over the converted currencies only; `approvalsLost` is a count, summed unconverted. */
  readonly totals: {
    readonly savedValue: number;
    readonly netValue: number;
    readonly approvalsLost: number;
    readonly costWon: number;
    readonly decisions: number;
  };
  readonly converted: readonly ConvertedCurrency[];
  /** Currencies without a rate, in their own money: listed, never summed unconverted, never dropped. */
  readonly unconverted: readonly CurrencySavings[];
}

/**
 * Float sums of money (the analytics store adds Float64 amounts) carry noise in their last digits;
 * 15 significant digits is what a double holds exactly, so the noise goes and the amount stays.
 */
const sumDigits = 15;

/**
 * Converts each currency's savings to the reporting currency at the merchant's rates: every amount
 * is multiplied exactly (decimal, not float) and rounded once to the reporting currency's minor
 * unit (ISO 4217 exponent, half away from zero), and the totals are the integer sum of those
 * rounded lines, so the lines shown add up to the total shown. The reporting currency's own
 * amounts go through at rate 1 (rounded the same way). A currency with no rate is listed apart.
 * Lines are ordered by fees saved in the reporting currency, most first (ties by code).
 */
export function convertToReportingCurrency(perCurrency: readonly CurrencySavings[], setting: ReportingCurrencySetting): ReportingCurrencyTotals {
  const scale = minorUnitExponent(setting.currency);
  const rates = new Map(setting.rates.map((rate) => [rate.currency, rate]));
  const converted: (ConvertedCurrency & { readonly savedUnits: bigint; readonly netUnits: bigint })[] = [];
  const unconverted: CurrencySavings[] = [];
  let approvalsLost = 0;
  let costWon = 0;
  let decisions = 0;
  for (const savings of perCurrency) {
    const own = savings.currency === setting.currency;
    const rate = own ? undefined : rates.get(savings.currency);
    if (!own && rate === undefined) {
      unconverted.push(savings);
      continue;
    }
    const factor = decimalOf(rate?.rate ?? 1);
    const convert = (amount: number) => roundTo(multiply(decimalOf(amount, sumDigits), factor), scale);
    const savedUnits = convert(savings.savedValue);
    const netUnits = convert(savings.netValue);
    converted.push({
      currency: savings.currency,
      rate: rate?.rate ?? 1,
      asOf: rate?.asOf ?? null,
      savedValue: savings.savedValue,
      netValue: savings.netValue,
      savedValueConverted: numberOf(savedUnits, scale),
      netValueConverted: numberOf(netUnits, scale),
      costWon: savings.costWon,
      savedUnits,
      netUnits,
    });
    approvalsLost += savings.approvalsLost;
    costWon += savings.costWon;
    decisions += savings.decisions;
  }
  converted.sort((a, b) => (a.savedUnits === b.savedUnits ? compare(a.currency, b.currency) : a.savedUnits > b.savedUnits ? -1 : 1));
  const dates = converted.flatMap((line) => (line.asOf === null ? [] : [line.asOf])).sort();
  return {
    currency: setting.currency,
    ratesAsOf: dates[0] ?? null,
    totals: {
      savedValue: numberOf(
        converted.reduce((sum, line) => sum + line.savedUnits, 0n),
        scale,
      ),
      netValue: numberOf(
        converted.reduce((sum, line) => sum + line.netUnits, 0n),
        scale,
      ),
      approvalsLost,
      costWon,
      decisions,
    },
    converted: converted.map(({ savedUnits: _saved, netUnits: _net, ...line }) => line),
    unconverted: [...unconverted].sort((a, b) => compare(a.currency, b.currency)),
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
