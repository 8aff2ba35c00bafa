import { randomInt } from 'node:crypto';

const uppercase = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const lowercase = 'abcdefghijklmnopqrstuvwxyz';
const digits = '0123456789';
const special = '!@#$%^&*';
const all = uppercase + lowercase + digits + special;

function pick(alphabet: string): string {
  return alphabet[randomInt(alphabet.length)] as string;
}

/**
 * An invited user's first password, as decision-engine makes it: 16 characters from a CSPRNG, at
 * least one of each class (upper, lower, digit, one of `!@#$%^&*`), shuffled (Fisher-Yates).
 * About 100 bits of entropy: never on the common-password list, never built from an email.
 */
export function generateMemberPassword(): string {
  const chars = [pick(uppercase), pick(lowercase), pick(digits), pick(special)];
  for (let index = 0; index < 12; index += 1) chars.push(pick(all));
  for (let index = chars.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [chars[index], chars[other]] = [chars[other] as string, chars[index] as string];
  }
  return chars.join('');
}
