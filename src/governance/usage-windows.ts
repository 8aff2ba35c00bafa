import type { BudgetPeriod } from './key-policy.js';

/**
 * The windows limits are counted in, all UTC: the minute (`rpm`, `tpm`) and the budget's day or
 * month. Ids are stable strings so every replica counts into the same bucket.
 */

export function minuteId(atMs: number): string {
  return String(Math.floor(atMs / 60_000));
}

/** Seconds until the current minute ends (at least 1: `Retry-After: 0` invites a busy loop). */
export function secondsLeftInMinute(atMs: number): number {
  return Math.max(1, Math.ceil((60_000 - (atMs % 60_000)) / 1000));
}

export function periodId(period: BudgetPeriod, atMs: number): string {
  const at = new Date(atMs);
  const month = `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
  return period === 'month' ? `m${month}` : `d${month}${String(at.getUTCDate()).padStart(2, '0')}`;
}

/** Seconds until the period ends and its budget starts again. */
export function secondsLeftInPeriod(period: BudgetPeriod, atMs: number): number {
  const at = new Date(atMs);
  const end =
    period === 'month' ? Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1) : Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
  return Math.max(1, Math.ceil((end - atMs) / 1000));
}
