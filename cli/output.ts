import { stringify as toYaml } from 'yaml';
import { UsageError } from './exit-codes.js';

export const listFormats = ['table', 'json', 'yaml'] as const;
export type ListFormat = (typeof listFormats)[number];

export function parseListFormat(value: string | undefined): ListFormat {
  const format = value ?? 'table';
  if (!(listFormats as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${listFormats.join(', ')} (got "${format}")`);
  return format as ListFormat;
}

/** A cell as text: nested values as compact JSON, absent as '-'. */
function cell(value: unknown): string {
  if (value === undefined || value === null || value === '') return '-';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(', ');
  return JSON.stringify(value);
}

/** Rows as an aligned text table with the given columns (header, then a rule). */
export function renderTable(rows: readonly object[], columns: readonly string[]): string {
  if (rows.length === 0) return '(none)\n';
  const cells = rows.map((row) => columns.map((column) => cell((row as Record<string, unknown>)[column])));
  const widths = columns.map((column, index) => Math.max(column.length, ...cells.map((line) => (line[index] ?? '').length)));
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(columns), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n')}\n`;
}

/** A listing in the chosen format: the table shows `columns`, json and yaml the whole `data`. */
export function renderList(format: ListFormat, data: unknown, rows: readonly object[], columns: readonly string[]): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(data, null, 2)}\n`;
    case 'yaml':
      return toYaml(data);
    case 'table':
      return renderTable(rows, columns);
  }
}

/** One record (key: value lines in a table, else json/yaml). */
export function renderRecord(format: ListFormat, data: Readonly<Record<string, unknown>>): string {
  if (format !== 'table') return renderList(format, data, [], []);
  const width = Math.max(...Object.keys(data).map((key) => key.length));
  return `${Object.entries(data)
    .map(([key, value]) => `${key.padEnd(width)}  ${cell(value)}`)
    .join('\n')}\n`;
}

/**
 * A spinner on standard error while `work` runs, only on a terminal and never with --quiet (pipes
 * and CI logs get no escape codes).
 */
export async function withSpinner<T>(
  io: { stderr: { write(text: string): void }; stderrIsTty: boolean },
  quiet: boolean,
  label: string,
  work: () => Promise<T>,
): Promise<T> {
  if (quiet || !io.stderrIsTty) return work();
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  let frame = 0;
  const timer = setInterval(() => io.stderr.write(`\r${frames[frame++ % frames.length]} ${label}`), 80);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    io.stderr.write('\r\u001b[2K');
  }
}
