/**
 * How one insert column is written in ClickHouse's `TabSeparated` format:
 * - `string`: the text, with backslash, tab, line feed, carriage return and NUL escaped (`\\`, `\t`, `\n`,
 *   `\r`, `\0`: chDB receives the data inside its query text, which a raw NUL would cut short);
 * - `number`: a finite number as JavaScript prints it (ClickHouse parses integers, decimals and exponents);
 * - `nullableNumber`: as `number`, or `\N` for null;
 * - `stringArray`: an `Array(String)` literal (`['a','b\'c']`); inside its quotes the same escapes
 *   apply, plus `\'` (escaping the literal again as a whole would double every backslash);
 * - `secondsOfMs`: a `DateTime` as Unix seconds, taken from the row's millisecond field `source`.
 */
export type InsertColumn =
  | { readonly name: string; readonly kind: 'string' | 'number' | 'nullableNumber' | 'stringArray' }
  | { readonly name: string; readonly kind: 'secondsOfMs'; readonly source: string };

const needsEscape = /[\\\t\n\r\0]/;
const escapable = /[\\\t\n\r\0]/g;
const escapes: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };
const elementEscapable = /[\\\t\n\r\0']/g;
const elementEscapes: Readonly<Record<string, string>> = { ...escapes, "'": "\\'" };

/** TabSeparated escaping of one string value; most values need none and are returned as they are. */
export function escapeTabSeparated(value: string): string {
  return needsEscape.test(value) ? value.replace(escapable, (char) => escapes[char]!) : value;
}

function arrayLiteral(values: readonly string[]): string {
  return `[${values.map((value) => `'${value.replace(elementEscapable, (char) => elementEscapes[char]!)}'`).join(',')}]`;
}

function field(row: Readonly<Record<string, unknown>>, column: InsertColumn): string {
  switch (column.kind) {
    case 'string':
      return escapeTabSeparated(String(row[column.name] ?? ''));
    case 'number':
      return String(row[column.name]);
    case 'nullableNumber': {
      const value = row[column.name];
      return value === null || value === undefined ? '\\N' : String(value);
    }
    case 'stringArray':
      return arrayLiteral((row[column.name] as readonly string[] | undefined) ?? []);
    case 'secondsOfMs':
      return String(Math.floor(Number(row[column.source]) / 1000));
  }
}

/**
 * Rows as `TabSeparated` text (one line per row, columns in `columns` order, each line ending in a
 * line feed), the insert format both engines parse fastest among the text formats they share:
 * ClickHouse 18.16 has no `JSONCompactEachRow`, and chDB's Node binding takes inline data only as
 * text (see clickhouse-compat.md). The chDB thread's own batches of handed-off events go as
 * `RowBinary` through a file instead (src/adapters/chdb/row-binary.ts), at a third of the parse cost.
 *
 * @remarks Values are not checked against the column types: rows come from our own mappers, and a
 * value the engine cannot parse fails the whole insert (which the sink retries), as JSON did.
 *
 * Built by joining arrays, not by `+=`: appending makes a rope of millions of small pieces per batch,
 * which lives until the insert and is then flattened piece by piece (the joins of 20,000 rows took
 * ~4× as long as joining flat lines, and the pieces kept the collector busy).
 */
export function encodeTabSeparated(columns: readonly InsertColumn[], rows: readonly object[]): string {
  const lines = new Array<string>(rows.length + 1);
  const fields = new Array<string>(columns.length);
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as Readonly<Record<string, unknown>>;
    for (let column = 0; column < columns.length; column++) fields[column] = field(row, columns[column]!);
    lines[index] = fields.join('\t');
  }
  lines[rows.length] = ''; // every line, the last one too, ends in a line feed
  return lines.join('\n');
}
