import { describe, expect, it } from 'vitest';
import { detectCardNumbers, inKnownIinRange, isCardNumber } from '../../../src/guardrails/card-number.js';
import { ibanValid, luhnValid, spanishIdValid, verhoeffValid } from '../../../src/guardrails/checksums.js';
import { detectCredentials } from '../../../src/guardrails/credential-detector.js';
import { detectIpAddresses, detectNationalIds } from '../../../src/guardrails/pii-detectors.js';

const spans = (text: string, found: { start: number; end: number }[]) => found.map((detection) => text.slice(detection.start, detection.end));

describe('checksums', () => {
  it('accepts Luhn-valid numbers and refuses a changed digit', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('378282246310005')).toBe(true);
  });

  it('checks IBANs by mod-97', () => {
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
  });

  it('checks Aadhaar numbers by Verhoeff and Spanish ids by their mod-23 letter', () => {
    expect(verhoeffValid('234123412346')).toBe(true);
    expect(verhoeffValid('234123412345')).toBe(false);
    expect(spanishIdValid('12345678Z')).toBe(true);
    expect(spanishIdValid('12345678A')).toBe(false);
    expect(spanishIdValid('X1234567L')).toBe(true);
  });
});

describe('card numbers', () => {
  it('knows scheme ranges and their lengths', () => {
    expect(inKnownIinRange('4111111111111111')).toBe(true);
    expect(inKnownIinRange('378282246310005')).toBe(true);
    expect(inKnownIinRange('3782822463100055')).toBe(false);
    expect(inKnownIinRange('9111111111111111')).toBe(false);
    expect(isCardNumber('0000000000000000')).toBe(false);
  });

  it('finds grouped numbers whole and ignores ones glued to identifiers or phone prefixes', () => {
    const text = 'a 4111 1111 1111 1111, b 5555-5555-5555-4444, c ORD-4111111111111111, d +4111111111111111, e A4111111111111111';
    expect(spans(text, detectCardNumbers(text))).toEqual(['4111 1111 1111 1111', '5555-5555-5555-4444']);
  });

  it('finds a PAN followed by its expiry or CVV in one run of groups', () => {
    const text = 'card 4111 1111 1111 1111 1227 123';
    expect(spans(text, detectCardNumbers(text))).toEqual(['4111 1111 1111 1111']);
  });

  it('ignores a text with fewer than 13 digits without running the run regex', () => {
    expect(detectCardNumbers('call 4111 1111 111')).toEqual([]);
  });
});

describe('national ids, IP addresses and credentials', () => {
  it('applies the SSN format rules', () => {
    const text = 'ok 123-45-6789; bad 000-12-3456, 666-12-3456, 912-12-3456, 123-00-4567, 123-45-0000';
    expect(spans(text, detectNationalIds(text))).toEqual(['123-45-6789']);
  });

  it('tells IPv6 addresses from clock times', () => {
    const text = 'from 2001:db8::1 at 10:30:00 and ::1';
    expect(spans(text, detectIpAddresses(text))).toEqual(['2001:db8::1']);
  });

  it('finds our own DE_ keys and replaces only the token of a bearer header', () => {
    const key = `DE_${'ab'.repeat(32)}`;
    const text = `x-api-key: ${key}\nAuthorization: Bearer abcdefghijklmnopqrstuvwx`;
    expect(spans(text, detectCredentials(text))).toEqual([key, 'abcdefghijklmnopqrstuvwx']);
  });

  it('takes an Anthropic key for one credential, not an OpenAI key', () => {
    const key = `sk-ant-api03-${'A'.repeat(90)}`;
    expect(spans(key, detectCredentials(key))).toEqual([key]);
  });
});
