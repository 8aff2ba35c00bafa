import { describe, expect, it } from 'vitest';
import { bindSql, quoteString } from '../../../src/adapters/clickhouse/bind-sql.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';

function bindError(run: () => unknown): SwitchyardError {
  try {
    run();
  } catch (error) {
    if (SwitchyardError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected bindSql to throw');
}

/** Reads a literal made by quoteString back the way ClickHouse does, to prove the round trip. */
function unquote(literal: string): string {
  expect(literal.startsWith("'") && literal.endsWith("'")).toBe(true);
  const body = literal.slice(1, -1);
  const table: Record<string, string> = { '\\': '\\', "'": "'", '0': '\0', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char === "'") throw new Error(`unescaped quote at ${i}`);
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = body[++i] as string;
    const mapped = table[next];
    if (mapped === undefined) throw new Error(`unknown escape \\${next}`);
    out += mapped;
  }
  return out;
}

const hostileStrings = [
  "O'Brien",
  "'; DROP TABLE analytics_domain_events; --",
  "\\'",
  'back\\slash\\',
  "\\' OR 1=1 --",
  '-- comment',
  '/* block */ comment */',
  'line\nbreak\r\nand\ttab',
  'nul\0byte',
  'unicode é ü ß 漢字',
  'emoji 💳🚀 and ZWJ 👩‍💻',
  '{name:String}',
  '',
];

describe('bindSql', () => {
  it.each(hostileStrings)('round-trips the hostile string %j through a single literal', (value) => {
    const sql = bindSql('SELECT {value:String}', { value });
    const literal = sql.slice('SELECT '.length);
    expect(unquote(literal)).toBe(value);
    expect(literal).not.toMatch(/[\n\r\0]/);
  });

  it('escapes backslashes and quotes when binding a string', () => {
    expect(quoteString("a'b\\c")).toBe("'a\\'b\\\\c'");
  });

  it('leaves no placeholder behind when a value looks like a placeholder', () => {
    expect(bindSql('SELECT {a:String}, {b:String}', { a: '{b:String}', b: 'x' })).toBe("SELECT '{b:String}', 'x'");
  });

  it('binds every occurrence of a placeholder used twice', () => {
    expect(bindSql("({g:String} = '' OR gateway = {g:String})", { g: 'stripe' })).toBe("('stripe' = '' OR gateway = 'stripe')");
  });

  it('renders integers in range and parenthesises negatives so no -- comment can form', () => {
    expect(bindSql('{a:UInt64} {b:UInt8} {c:Int32}', { a: 1_795_172_400_000, b: 255, c: -5 })).toBe('1795172400000 255 (-5)');
    expect(bindSql('x -{c:Int64}', { c: -1 })).toBe('x -(-1)');
    expect(bindSql('{a:UInt64}', { a: 18_446_744_073_709_551_615n })).toBe('18446744073709551615');
  });

  it('renders finite floats and parenthesises negatives', () => {
    expect(bindSql('{a:Float64} {b:Float64} {c:Float64}', { a: 0.875, b: -0.5, c: -0 })).toBe('0.875 (-0.5) 0');
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('rejects the non-finite number %s', (value) => {
    expect(bindError(() => bindSql('{a:Float64}', { a: value })).code).toBe('SY_INTERNAL');
    expect(bindError(() => bindSql('{a:UInt64}', { a: value })).code).toBe('SY_INTERNAL');
  });

  it('rejects integers that do not fit the placeholder type', () => {
    expect(bindError(() => bindSql('{a:UInt64}', { a: -1 })).message).toContain('{a:UInt64}');
    expect(bindError(() => bindSql('{a:UInt8}', { a: 256 })).message).toContain('out of range');
    expect(bindError(() => bindSql('{a:UInt32}', { a: 1.5 })).message).toContain('safe integer');
    expect(bindError(() => bindSql('{a:UInt64}', { a: 2 ** 60 })).message).toContain('safe integer');
  });

  it('rejects a value of the wrong kind for its placeholder', () => {
    expect(bindError(() => bindSql('{a:String}', { a: 1 })).message).toContain('expected a string');
    expect(bindError(() => bindSql('{a:UInt64}', { a: '1' })).message).toContain('expected an integer');
    expect(bindError(() => bindSql('{a:String}', { a: ['x'] })).message).toContain('expected a scalar');
    expect(bindError(() => bindSql('{a:Array(String)}', { a: 'x' })).message).toContain('expected an array');
  });

  it('names the placeholder when its value is missing', () => {
    const error = bindError(() => bindSql('SELECT {merchant_id:String}', {}));
    expect(error.details).toEqual({ placeholder: 'merchant_id', type: 'String' });
  });

  it('rejects placeholder types it does not know', () => {
    expect(bindError(() => bindSql('{a:Date}', { a: '2026-01-01' })).message).toContain('unsupported type');
  });

  it('binds arrays element by element with each element escaped', () => {
    expect(bindSql('has({g:Array(String)}, gateway)', { g: ["razor'pay", 'a\\b'] })).toBe("has(['razor\\'pay', 'a\\\\b'], gateway)");
    expect(bindSql('{n:Array(UInt32)}', { n: [1, 2] })).toBe('[1, 2]');
  });

  it('types an empty array so has() and length() work on both engines', () => {
    expect(bindSql('{g:Array(String)}', { g: [] })).toBe('CAST([] AS Array(String))');
  });

  it('back-quotes identifiers and rejects anything that is not a plain identifier', () => {
    expect(bindSql('CREATE DATABASE {db:Identifier}', { db: 'switchyard_test_1' })).toBe('CREATE DATABASE `switchyard_test_1`');
    for (const bad of ['a-b', 'a.b', '1abc', 'x`; DROP', '', 'db name']) {
      expect(bindError(() => bindSql('{db:Identifier}', { db: bad })).code).toBe('SY_INTERNAL');
    }
  });

  it('ignores parameters the statement does not use', () => {
    expect(bindSql('SELECT 1', { unused: 'x' })).toBe('SELECT 1');
  });
});
