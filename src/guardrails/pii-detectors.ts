import { ibanValid, spanishIdValid, verhoeffValid } from './checksums.js';
import type { Detection } from './detection.js';

/**
 * Detectors for personal data other than card numbers. Each regex is compiled once at module load, is
 * linear (no nested quantifiers), and each detector first checks for a character its values cannot lack
 * (`@` for email, `:`/`.` for IP addresses) so a prompt without one costs a single `indexOf`.
 */

const emailPattern =
  /(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![\w-])/g;

export function detectEmails(text: string): Detection[] {
  if (text.indexOf('@') < 0) return [];
  return collect(text, emailPattern, 'email');
}

/**
 * Phone numbers: an international number (`+` and 8–15 digits, E.164) or a North American number with
 * its usual punctuation (`(415) 555-0134`, `415-555-0134`, `415.555.0134`). A bare run of digits is not
 * taken for a phone number: too many identifiers look like one.
 */
const phonePattern = /(?<![\w+])(?:\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?)(?:[ .-]?\d{2,5}){1,5}|(?:\(\d{3}\) ?|\d{3}[.-])\d{3}[.-]\d{4})(?![\w-])/g;

export function detectPhones(text: string): Detection[] {
  const found: Detection[] = [];
  phonePattern.lastIndex = 0;
  for (let match = phonePattern.exec(text); match !== null; match = phonePattern.exec(text)) {
    const digits = countDigits(match[0]);
    if (digits >= 8 && digits <= 15) found.push({ kind: 'phone', start: match.index, end: match.index + match[0].length });
  }
  return found;
}

/** IBAN: country code, two check digits and 11–30 alphanumerics (groups of four allowed), mod-97 valid. */
const ibanPattern = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![A-Za-z0-9])/g;

// ISO 13616 registry lengths of the most used countries; a country not listed is checked by mod-97 only.
const ibanLengths: Readonly<Record<string, number>> = {
  AT: 20,
  BE: 16,
  CH: 21,
  CZ: 24,
  DE: 22,
  DK: 18,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  IE: 22,
  IT: 27,
  LU: 20,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  SE: 24,
  AE: 23,
  SA: 24,
  TR: 26,
  BR: 29,
  IN: 0,
};

export function detectIbans(text: string): Detection[] {
  const found: Detection[] = [];
  ibanPattern.lastIndex = 0;
  for (let match = ibanPattern.exec(text); match !== null; match = ibanPattern.exec(text)) {
    const raw = match[0].replace(/ +$/, '');
    const compact = raw.replace(/ /g, '');
    const expected = ibanLengths[compact.slice(0, 2)];
    if (expected !== undefined && expected !== 0 && expected !== compact.length) continue;
    if (ibanValid(compact)) found.push({ kind: 'iban', start: match.index, end: match.index + raw.length });
  }
  return found;
}

/**
 * National identifiers, checked as far as each has rules: US SSN (dashed form; area not 000, 666 or 9xx,
 * group not 00, serial not 0000), India's Aadhaar (12 digits, first 2–9, Verhoeff check), Spain's DNI/NIE
 * (mod-23 letter) and the UK National Insurance number (prefix letter rules; it has no check digit).
 */
// Not part of a longer run of digit groups (a grouped card number holds twelve digits that could pass).
const ssnPattern = /(?<![\w-]|\d[ -])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-]|[ -]\d)/g;
const aadhaarPattern = /(?<![\w-]|\d[ -])[2-9]\d{3}[ -]?\d{4}[ -]?\d{4}(?![\w-]|[ -]\d)/g;
const spanishIdPattern = /(?<![\w-])[XYZ]?\d{7,8}-?[A-Z](?![\w-])/g;
const ninoPattern = /(?<![\w-])(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![\w-])/g;

export function detectNationalIds(text: string): Detection[] {
  const found = collect(text, ssnPattern, 'national-id');
  aadhaarPattern.lastIndex = 0;
  for (let match = aadhaarPattern.exec(text); match !== null; match = aadhaarPattern.exec(text)) {
    if (verhoeffValid(match[0].replace(/[ -]/g, ''))) found.push({ kind: 'national-id', start: match.index, end: match.index + match[0].length });
  }
  spanishIdPattern.lastIndex = 0;
  for (let match = spanishIdPattern.exec(text); match !== null; match = spanishIdPattern.exec(text)) {
    if (spanishIdValid(match[0].replace('-', ''))) found.push({ kind: 'national-id', start: match.index, end: match.index + match[0].length });
  }
  found.push(...collect(text, ninoPattern, 'national-id'));
  return found;
}

// Not after "version"/"v" (`version 4.1.1.1` is a release, not an address).
const ipv4Pattern = /(?<![\w.]|\b[Vv](?:ersion)?\s?)(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(?![\w]|\.\d)/g;
const ipv6Candidate = /(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])/g;

/** IPv4 (dotted quad, each octet 0–255, no leading zeros) and IPv6 (full or `::`-compressed) addresses. */
export function detectIpAddresses(text: string): Detection[] {
  const found: Detection[] = [];
  if (text.indexOf('.') >= 0) found.push(...collect(text, ipv4Pattern, 'ip'));
  if (text.indexOf(':') >= 0) {
    ipv6Candidate.lastIndex = 0;
    for (let match = ipv6Candidate.exec(text); match !== null; match = ipv6Candidate.exec(text)) {
      if (isIpv6(match[0])) found.push({ kind: 'ip', start: match.index, end: match.index + match[0].length });
    }
  }
  return found;
}

function isIpv6(candidate: string): boolean {
  const halves = candidate.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  if (groups.some((group) => group.length === 0 || group.length > 4)) return false;
  // Without `::` all eight groups are needed; with it, fewer, and at least two so `a::` in prose is not taken.
  return halves.length === 1 ? groups.length === 8 : groups.length >= 2 && groups.length <= 7;
}

function collect(text: string, pattern: RegExp, kind: string): Detection[] {
  const found: Detection[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    found.push({ kind, start: match.index, end: match.index + match[0].length });
  }
  return found;
}

function countDigits(text: string): number {
  let digits = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) digits += 1;
  }
  return digits;
}
