import { InvalidRequestError } from './errors/provider-errors.js';

const unitMs = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
const timeoutPattern = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

/** 24 h: a bound that catches unit slips (`'500m'` meant as ms) without limiting real batch jobs. */
export const MAX_TIMEOUT_MS = 86_400_000;

/**
 * Turns a timeout option into milliseconds. A number is milliseconds; text is a decimal with an
 * optional unit `ms|s|m|h` (`'30s'`, `'1.5s'`, `'2m'`, `'0.5m'`, `'1h'`); no unit means ms.
 * Anything else (`'abc'`, `'5 min'`, `-1`, `0`) is rejected naming the option, so a typo never
 * silently becomes "no timeout" or "500 minutes".
 */
export function parseTimeout(value: number | string, option = 'timeout'): number {
  let ms: number;
  if (typeof value === 'number') {
    ms = value;
  } else if (typeof value === 'string') {
    const match = timeoutPattern.exec(value.trim());
    if (!match) throw invalid(value, option);
    const unit = (match[2] ?? 'ms') as keyof typeof unitMs;
    ms = Number(match[1]) * unitMs[unit];
  } else {
    throw invalid(value, option);
  }
  if (!Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMEOUT_MS) throw invalid(value, option);
  return Math.round(ms);
}

function invalid(value: unknown, option: string): InvalidRequestError {
  return new InvalidRequestError(
    `${option} must be a positive number of milliseconds or text like "30s", "1.5s", "2m", "1h" (at most 24h); got ${JSON.stringify(value)}`,
    'toolkit',
    option,
  );
}
