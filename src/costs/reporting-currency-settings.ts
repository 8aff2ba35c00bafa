import { requireMerchant } from '../decision/inputs/merchant-settings.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { ExchangeRate, ReportingCurrencySetting } from '../ports/state/reporting-currency.js';
import type { StateStore } from '../ports/state-store.js';
import { isoCurrencyCodes } from '../routing-rules/iso-codes.js';

type SettingState = Pick<StateStore, 'merchants' | 'configs'>;

/** What a client sends (the wire's shape, checked by its schema; meaning is checked here). */
export interface ReportingCurrencyInput {
  readonly currency: string | null;
  readonly rates: readonly { readonly currency: string; readonly rate?: number; readonly asOf: string }[];
}

const knownCodes = new Set(isoCurrencyCodes);
/** A rate past this is a typo (no ISO currency pair is 10^9 apart), and keeps converted amounts far below 2^53 minor units. */
const maxRate = 1e9;

/**
 * The setting a client asked for, or why it cannot be stored, in words naming the field: an unknown
 * ISO 4217 code, a listed currency without a rate, a rate not above 0, a date that is not
 * YYYY-MM-DD, a currency listed twice, or a rate for the reporting currency itself. Codes are read
 * case-insensitively and stored upper case. Pure.
 */
export function reportingCurrencyOf(input: ReportingCurrencyInput): { ok: true; setting: ReportingCurrencySetting } | { ok: false; problem: string } {
  if (input.currency === null) return fail('currency: give the reporting currency as an ISO 4217 code (e.g. USD), or DELETE the setting to clear it');
  const currency = input.currency.trim().toUpperCase();
  if (!knownCodes.has(currency)) return fail(`currency: '${input.currency}' is not an ISO 4217 currency code`);
  const rates: ExchangeRate[] = [];
  for (const [index, entry] of input.rates.entries()) {
    const where = `rates[${index}]`;
    const from = entry.currency.trim().toUpperCase();
    if (!knownCodes.has(from)) return fail(`${where}.currency: '${entry.currency}' is not an ISO 4217 currency code`);
    if (from === currency) return fail(`${where}: ${from} is the reporting currency itself (1 ${from} is 1 ${from}): leave it out`);
    if (rates.some((rate) => rate.currency === from)) return fail(`${where}: ${from} is listed twice; give one rate per currency`);
    if (entry.rate === undefined) return fail(`${where}.rate: no rate for ${from}: give what 1 ${from} is worth in ${currency}, above 0`);
    if (!Number.isFinite(entry.rate) || entry.rate <= 0) return fail(`${where}.rate: the rate for ${from} must be above 0 (got ${entry.rate})`);
    if (entry.rate > maxRate) return fail(`${where}.rate: the rate for ${from} (${entry.rate}) is implausibly large; at most ${maxRate}`);
    if (!isDate(entry.asOf)) return fail(`${where}.as_of: '${entry.asOf}' is not a date (YYYY-MM-DD)`);
    rates.push({ currency: from, rate: entry.rate, asOf: entry.asOf });
  }
  return { ok: true, setting: { currency, rates } };
}

const fail = (problem: string) => ({ ok: false as const, problem });

/** A real calendar date in YYYY-MM-DD (2026-02-30 is not). */
function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/*
 * A merchant's reporting currency, the ConfigStore document `reportingCurrency`: read (undefined
 * until set), replace, clear. Every operation first requires the merchant (`SY_MERCHANT_NOT_FOUND`);
 * the caller's mistakes are `SY_REQUEST_INVALID`, in words.
 */

export async function readReportingCurrency(state: SettingState, merchantId: string): Promise<ReportingCurrencySetting | undefined> {
  await requireMerchant(state, merchantId);
  return state.configs.get(merchantId, 'reportingCurrency');
}

/** Replaces the setting (currency and every rate) and answers it as stored; refuses bad input, saving nothing. */
export async function saveReportingCurrency(state: SettingState, merchantId: string, input: ReportingCurrencyInput): Promise<ReportingCurrencySetting> {
  const read = reportingCurrencyOf(input);
  if (!read.ok) throw new SwitchyardError('SY_REQUEST_INVALID', { message: read.problem });
  await requireMerchant(state, merchantId);
  await state.configs.put(merchantId, 'reportingCurrency', read.setting, 'upsert');
  return read.setting;
}

/** Drops the setting: reports go back to per-currency figures only. */
export async function clearReportingCurrency(state: SettingState, merchantId: string): Promise<void> {
  await requireMerchant(state, merchantId);
  await state.configs.delete(merchantId, 'reportingCurrency');
}
