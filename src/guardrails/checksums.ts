/**
 * Check-digit algorithms the detectors use to tell a real identifier from a number that only looks like one.
 * Pure arithmetic over digit strings; every function takes the digits only (separators already removed).
 */

/** Luhn (ISO/IEC 7812-1 annex B): the check digit of every payment card number. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * ISO 13616 IBAN check: move the first four characters to the end, letters become 10..35, and the number
 * mod 97 must be 1. Computed piecewise so no big-integer arithmetic is needed.
 */
export function ibanValid(compact: string): boolean {
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (let index = 0; index < rearranged.length; index += 1) {
    const code = rearranged.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      remainder = (remainder * 10 + (code - 48)) % 97;
    } else if (code >= 65 && code <= 90) {
      remainder = (remainder * 100 + (code - 55)) % 97;
    } else {
      return false;
    }
  }
  return remainder === 1;
}

const verhoeffMultiply = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const verhoeffPermute = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Verhoeff: the check digit of India's Aadhaar number (12 digits). */
export function verhoeffValid(digits: string): boolean {
  let check = 0;
  for (let index = 0; index < digits.length; index += 1) {
    const digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    check = verhoeffMultiply[check]?.[verhoeffPermute[index % 8]?.[digit] ?? 0] ?? 0;
  }
  return check === 0;
}

const dniLetters = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spanish DNI/NIE: the trailing letter is the number mod 23 (NIE: X/Y/Z stand for 0/1/2). */
export function spanishIdValid(id: string): boolean {
  const upper = id.toUpperCase();
  const leading = upper.charAt(0);
  const numeric =
    leading === 'X' ? `0${upper.slice(1, -1)}` : leading === 'Y' ? `1${upper.slice(1, -1)}` : leading === 'Z' ? `2${upper.slice(1, -1)}` : upper.slice(0, -1);
  const number = Number.parseInt(numeric, 10);
  return Number.isFinite(number) && dniLetters.charAt(number % 23) === upper.charAt(upper.length - 1);
}
