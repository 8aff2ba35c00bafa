import { luhnValid } from './checksums.js';
import type { Detection } from './detection.js';

/**
 * Card numbers (PANs): 13–19 digits, optionally grouped by single spaces or dashes, Luhn-valid, and inside
 * an issuer range (IIN) a card scheme actually uses, with a length that scheme issues.
 *
 * Why each rule: Luhn alone passes one random number in ten, so order ids and phone numbers would be masked
 * often; the IIN table cuts that to numbers that start like a real card. A run glued to letters or to a `+`
 * (`ORD4111…`, `+4420…`) is an identifier or an international phone number, not a card. A run longer than 19
 * digits is tried group by group, so `4111 1111 1111 1111 123` (a PAN followed by its CVV) is still found.
 */

/** A run of digits with single separators, at least 13 digits; not glued to a word, a `+` or a `word-` prefix. */
const cardRun = /(?<![\w+]|\w-)\d(?:[ -]?\d){12,}/g;

interface IinRange {
  readonly low: number;
  readonly high: number;
  /** How many leading digits `low`/`high` cover. */
  readonly width: number;
  readonly lengths: readonly number[];
}

const anyLength = [16, 17, 18, 19];
// Scheme ranges from the schemes' published IIN tables (Visa, Mastercard incl. the 2-series, Amex, Discover
// incl. the UnionPay co-acceptance range, JCB, Diners, UnionPay, Maestro, Mir, RuPay, Verve, Troy, UATP).
const iinRanges: readonly IinRange[] = [
  { low: 4, high: 4, width: 1, lengths: [13, 16, 19] },
  { low: 51, high: 55, width: 2, lengths: [16] },
  { low: 2221, high: 2720, width: 4, lengths: [16] },
  { low: 34, high: 34, width: 2, lengths: [15] },
  { low: 37, high: 37, width: 2, lengths: [15] },
  { low: 6011, high: 6011, width: 4, lengths: anyLength },
  { low: 644, high: 649, width: 3, lengths: anyLength },
  { low: 65, high: 65, width: 2, lengths: anyLength },
  { low: 3528, high: 3589, width: 4, lengths: anyLength },
  { low: 300, high: 305, width: 3, lengths: [14, 15, 16, 17, 18, 19] },
  { low: 3095, high: 3095, width: 4, lengths: [14, 15, 16, 17, 18, 19] },
  { low: 36, high: 36, width: 2, lengths: [14, 15, 16, 17, 18, 19] },
  { low: 38, high: 39, width: 2, lengths: [14, 15, 16, 17, 18, 19] },
  { low: 62, high: 62, width: 2, lengths: anyLength },
  { low: 50, high: 50, width: 2, lengths: [13, 14, 15, 16, 17, 18, 19] },
  { low: 56, high: 58, width: 2, lengths: [13, 14, 15, 16, 17, 18, 19] },
  { low: 639, high: 639, width: 3, lengths: [13, 14, 15, 16, 17, 18, 19] },
  { low: 67, high: 67, width: 2, lengths: [13, 14, 15, 16, 17, 18, 19] },
  { low: 2200, high: 2204, width: 4, lengths: anyLength },
  { low: 60, high: 60, width: 2, lengths: [16] },
  { low: 81, high: 82, width: 2, lengths: [16] },
  { low: 508, high: 508, width: 3, lengths: [16] },
  { low: 9792, high: 9792, width: 4, lengths: [16] },
  { low: 1, high: 1, width: 1, lengths: [15] },
];

/** True when the digits start in a known issuer range at a length that scheme issues. */
export function inKnownIinRange(digits: string): boolean {
  for (const range of iinRanges) {
    if (!range.lengths.includes(digits.length)) continue;
    const prefix = Number(digits.slice(0, range.width));
    if (prefix >= range.low && prefix <= range.high) return true;
  }
  return false;
}

/** A card number: the digits (separators removed) pass the length, IIN and Luhn rules. */
export function isCardNumber(digits: string): boolean {
  return digits.length >= 13 && digits.length <= 19 && inKnownIinRange(digits) && luhnValid(digits);
}

/**
 * Fast pre-scan: true when the text holds 13 digits at all. Most prompts hold few digits, and counting
 * character codes is cheaper than running the run regex over them.
 */
export function mayHoldCardNumber(text: string): boolean {
  let digits = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      digits += 1;
      if (digits >= 13) return true;
    }
  }
  return false;
}

/** Every card number in the text, as spans over the original text (separators included). */
export function detectCardNumbers(text: string): Detection[] {
  if (!mayHoldCardNumber(text)) return [];
  const found: Detection[] = [];
  cardRun.lastIndex = 0;
  for (let match = cardRun.exec(text); match !== null; match = cardRun.exec(text)) {
    const run = match[0];
    const start = match.index;
    const digits = run.replace(/[ -]/g, '');
    if (digits.length <= 19 && plausibleGrouping(run) && isCardNumber(digits)) {
      found.push({ kind: 'card', start, end: start + run.length });
      continue;
    }
    findInGroups(run, start, found);
  }
  return found;
}

/**
 * Whether a run is grouped the way card numbers are printed: not at all, in fours (the last group shorter),
 * 4-6-5 / 4-6-4 (Amex, Diners) or 6-13 (UnionPay 19), with one kind of separator. A Luhn-invalid PAN
 * followed by its CVV (`6759575314967462 123`) would otherwise pass as a 19-digit number one time in ten.
 */
function plausibleGrouping(run: string): boolean {
  const separators = run.replace(/\d/g, '');
  if (separators.length === 0) return true;
  if (separators.includes(' ') && separators.includes('-')) return false;
  const sizes = run.split(/[ -]/).map((group) => group.length);
  const shape = sizes.join('-');
  if (shape === '4-6-5' || shape === '4-6-4' || shape === '6-13') return true;
  const last = sizes[sizes.length - 1] ?? 0;
  return sizes.slice(0, -1).every((size) => size === 4) && last >= 1 && last <= 5;
}

/**
 * A run that is not one card number as a whole: when it is grouped, try every window of whole groups
 * holding 13–19 digits (a PAN followed by an expiry or a CVV); an ungrouped run is some other identifier.
 */
function findInGroups(run: string, runStart: number, found: Detection[]): void {
  const groups: { start: number; end: number }[] = [];
  const groupPattern = /\d+/g;
  for (let match = groupPattern.exec(run); match !== null; match = groupPattern.exec(run)) {
    groups.push({ start: match.index, end: match.index + match[0].length });
  }
  if (groups.length < 2) return;
  let first = 0;
  while (first < groups.length) {
    let matchedUpTo = -1;
    let count = 0;
    for (let last = first; last < groups.length; last += 1) {
      const group = groups[last];
      if (group === undefined) break;
      count += group.end - group.start;
      if (count > 19) break;
      const firstGroup = groups[first];
      if (count >= 13 && firstGroup !== undefined) {
        const window = run.slice(firstGroup.start, group.end);
        if (plausibleGrouping(window) && isCardNumber(window.replace(/[ -]/g, ''))) matchedUpTo = last;
      }
    }
    const firstGroup = groups[first];
    const lastGroup = groups[matchedUpTo];
    if (matchedUpTo >= 0 && firstGroup !== undefined && lastGroup !== undefined) {
      found.push({ kind: 'card', start: runStart + firstGroup.start, end: runStart + lastGroup.end });
      first = matchedUpTo + 1;
    } else {
      first += 1;
    }
  }
}
