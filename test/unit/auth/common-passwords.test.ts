import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCommonPassword, parseCommonPasswords } from '../../../src/auth/common-passwords.js';

const listUrl = new URL('../../../src/auth/data/common-passwords.txt', import.meta.url);

describe('common password list', () => {
  it('ships at least the top 10,000 passwords, lower-cased, with its source noted', () => {
    const text = readFileSync(listUrl, 'utf8');
    const entries = parseCommonPasswords(text);
    expect(entries.size).toBeGreaterThanOrEqual(10_000);
    expect([...entries].every((entry) => entry === entry.toLowerCase())).toBe(true);
    expect(text).toMatch(/^# .*\n# Source: npm package @zxcvbn-ts\/language-common/);
  });
});

describe('parseCommonPasswords', () => {
  it('skips comment and blank lines and lower-cases entries', () => {
    const entries = parseCommonPasswords('# header\n\nHunter2\r\nletmein\n#notacomment\n');
    expect([...entries]).toEqual(['hunter2', 'letmein', '#notacomment']);
  });
});

describe('isCommonPassword', () => {
  it('finds the most common passwords whatever their case', () => {
    expect(isCommonPassword('123456')).toBe(true);
    expect(isCommonPassword('PassWord')).toBe(true);
    expect(isCommonPassword('qwertyuiop')).toBe(true);
  });

  it('does not find an uncommon passphrase', () => {
    expect(isCommonPassword('violet stapler orbit 88')).toBe(false);
  });
});
