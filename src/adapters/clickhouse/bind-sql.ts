import { SwitchyardError } from '../../errors/switchyard-error.js';

/** A value a placeholder can take; arrays for `Array(T)` placeholders. */
export type SqlValue = string | number | bigint | readonly (string | number | bigint)[];

const placeholderPattern = /\{([A-Za-z_][A-Za-z0-9_]*):([A-Za-z0-9_()]+)\}/g;
const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

const integerRanges: Readonly<Record<string, readonly [bigint, bigint]>> = {
  UInt8: [0n, 255n],
  UInt16: [0n, 65_535n],
  UInt32: [0n, 4_294_967_295n],
  UInt64: [0n, 18_446_744_073_709_551_615n],
  Int8: [-128n, 127n],
  Int16: [-32_768n, 32_767n],
  Int32: [-2_147_483_648n, 2_147_483_647n],
  Int64: [-9_223_372_036_854_775_808n, 9_223_372_036_854_775_807n],
};
const floatTypes: ReadonlySet<string> = new Set(['Float32', 'Float64']);

/**
 * Substitutes typed placeholders (`{name:String}`, `{n:UInt64}`, `{names:Array(String)}`,
 * `{db:Identifier}`) with escaped SQL literals, client-side.
 *
 * Why client-side: ClickHouse 18.16 has no server-side query parameters, and the same SQL must run
 * on it and on chDB. This function is therefore the only place a value enters SQL text; nothing
 * else concatenates values into a query.
 *
 * Strings are single-quoted with `\` and `'` escaped, and control characters (NUL, newlines, tabs)
 * written as escape sequences so a value never spans lines in logs. Numbers must be finite and fit
 * the placeholder's type; negative numbers are parenthesised so `a -{x:Int64}` can never become a
 * `--` comment. Identifiers must match `[A-Za-z_][A-Za-z0-9_]*` and are back-quoted. Placeholders
 * inside string literals of the SQL text are not special-cased: query text here never has braces
 * in literals.
 *
 * @throws SwitchyardError `SY_INTERNAL` naming the placeholder when a value is missing or does not
 * fit its type (a bug in the caller: request values are validated before they get here).
 */
export function bindSql(sql: string, params: Readonly<Record<string, SqlValue>>): string {
  return sql.replace(placeholderPattern, (_match, name: string, type: string) => {
    if (!Object.hasOwn(params, name)) throw bindError(name, type, 'no value given');
    return renderValue(name, type, params[name] as SqlValue);
  });
}

function renderValue(name: string, type: string, value: SqlValue): string {
  const arrayOf = /^Array\((.+)\)$/.exec(type)?.[1];
  if (arrayOf !== undefined) {
    if (!Array.isArray(value)) throw bindError(name, type, 'expected an array');
    if (arrayOf === 'Identifier' || arrayOf.startsWith('Array(')) throw bindError(name, type, 'unsupported element type');
    const items = (value as readonly (string | number | bigint)[]).map((item) => renderScalar(name, arrayOf, item));
    // A bare [] is Array(Nothing) and fails in has()/IN on 18.16; the CAST keeps the element type.
    return items.length === 0 ? `CAST([] AS Array(${arrayOf}))` : `[${items.join(', ')}]`;
  }
  if (Array.isArray(value)) throw bindError(name, type, 'expected a scalar');
  return renderScalar(name, type, value as string | number | bigint);
}

function renderScalar(name: string, type: string, value: string | number | bigint): string {
  if (type === 'String') {
    if (typeof value !== 'string') throw bindError(name, type, 'expected a string');
    return quoteString(value);
  }
  if (type === 'Identifier') {
    if (typeof value !== 'string' || !identifierPattern.test(value)) throw bindError(name, type, 'expected an identifier');
    return `\`${value}\``;
  }
  const range = integerRanges[type];
  if (range !== undefined) {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw bindError(name, type, 'expected a safe integer');
    if (typeof value !== 'number' && typeof value !== 'bigint') throw bindError(name, type, 'expected an integer');
    const big = BigInt(value);
    if (big < range[0] || big > range[1]) throw bindError(name, type, 'out of range');
    return big < 0n ? `(${big})` : `${big}`;
  }
  if (floatTypes.has(type)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw bindError(name, type, 'expected a finite number');
    // Object.is keeps -0 out of the text: "(-0)" would be fine, "-0" after a minus would not.
    return value < 0 ? `(${value})` : Object.is(value, -0) ? '0' : `${value}`;
  }
  throw bindError(name, type, 'unsupported type');
}

const escapes: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  "'": "\\'",
  '\0': '\\0',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/** A ClickHouse string literal: backslash escapes understood by 18.16 and 26.x alike. */
export function quoteString(value: string): string {
  return `'${value.replace(/[\\'\0\n\r\t\b\f]/g, (char) => escapes[char] ?? char)}'`;
}

function bindError(name: string, type: string, problem: string): SwitchyardError {
  return new SwitchyardError('SY_INTERNAL', {
    message: `Cannot bind SQL placeholder {${name}:${type}}: ${problem}`,
    details: { placeholder: name, type },
  });
}
