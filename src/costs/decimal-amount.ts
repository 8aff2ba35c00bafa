/**
 * Exact decimal arithmetic for money conversion: amounts and rates as scaled integers (bigint), so
 * a converted total is the exact sum of its converted lines, never a float sum that drifts.
 */

/** `digits / 10^scale`. */
export interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

/**
 * The decimal a number is written as: `String(value)` for a rate typed by a person (1.0842 stays
 * 1.0842, not its binary neighbour), or rounded to `significant` digits for a float sum whose last
 * digits are summation noise (2.9999999999999996 → 3). Exponent forms (1e-7) are read too.
 * Throws on a non-finite number (callers validate first).
 */
export function decimalOf(value: number, significant?: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const text = significant === undefined ? String(value) : value.toPrecision(significant);
  const match = /^(-?)(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (match === null) throw new RangeError(`not a decimal: ${text}`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = BigInt(`${whole}${fraction}`);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits: sign === '-' ? -digits : digits, scale };
}

/** `a × b`, exactly. */
export function multiply(a: Decimal, b: Decimal): Decimal {
  return { digits: a.digits * b.digits, scale: a.scale + b.scale };
}

/** The value in units of 10^-scale, rounded half away from zero (money's usual rounding, symmetric for losses). */
export function roundTo(value: Decimal, scale: number): bigint {
  if (value.scale <= scale) return value.digits * 10n ** BigInt(scale - value.scale);
  const divisor = 10n ** BigInt(value.scale - scale);
  const magnitude = value.digits < 0n ? -value.digits : value.digits;
  const rounded = (magnitude + divisor / 2n) / divisor;
  return value.digits < 0n ? -rounded : rounded;
}

/**
 * `units / 10^scale` as the nearest number: the shortest decimal that reads back as it, which is
 * the exact decimal for every amount below 2^53 minor units.
 */
export function numberOf(units: bigint, scale: number): number {
  const negative = units < 0n;
  const text = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const decimal = scale === 0 ? text : `${text.slice(0, text.length - scale)}.${text.slice(text.length - scale)}`;
  return Number(`${negative ? '-' : ''}${decimal}`);
}
