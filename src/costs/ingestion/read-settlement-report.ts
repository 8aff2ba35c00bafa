import { CsvSyntaxError, readCsvRecords } from './csv-records.js';
import type { FieldReader, RowVerdict, SettlementFormat } from './settlement-formats.js';

/** One data row of a report, read through its connector's format. */
export interface ReportRow {
  readonly line: number;
  readonly verdict: RowVerdict;
}

/** Why a report cannot be read at all (before or at a given line). */
export class ReportUnreadable extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'ReportUnreadable';
  }
}

/**
 * The header of a report resolved to column positions: each field the format reads is looked up
 * under the merchant's mapped header name when one is saved, else under the connector's own label.
 * Every missing required column is named at once.
 */
function resolveColumns(format: SettlementFormat, mapping: Readonly<Record<string, string>>, header: readonly string[]): Map<string, number> {
  const positions = new Map(header.map((name, index) => [name.trim(), index] as const));
  const resolved = new Map<string, number>();
  const missing: string[] = [];
  for (const column of format.columns) {
    const name = mapping[column.field] ?? column.header;
    const index = positions.get(name);
    if (index !== undefined) resolved.set(column.field, index);
    else if (column.required) missing.push(name === column.header ? `'${name}'` : `'${name}' (mapped for ${column.field})`);
  }
  if (missing.length > 0) throw new ReportUnreadable(1, `the header lacks required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  return resolved;
}

/**
 * Streams a settlement report row by row: the header first (resolved against the format and the
 * saved mapping), then every data row's verdict with its physical line number. A row with another
 * number of fields than the header is invalid (a shifted column would silently misprice it).
 * Framing records (`format.isFraming`) are dropped; a grouped format's payments come after the
 * last row, each with the line of the row that anchors it.
 *
 * @throws ReportUnreadable for an empty file, missing columns or broken CSV (with the line).
 */
export async function* readSettlementReport(
  format: SettlementFormat,
  mapping: Readonly<Record<string, string>>,
  source: AsyncIterable<Uint8Array>,
): AsyncGenerator<ReportRow> {
  let columns: Map<string, number> | undefined;
  let width = 0;
  const { rows } = format;
  const grouping = rows.kind === 'grouped' ? rows.start() : undefined;
  const mapRow = (read: FieldReader, line: number): RowVerdict =>
    rows.kind === 'per-row' ? rows.mapRow(read) : (grouping?.add(read, line) ?? { kind: 'skip' });
  try {
    for await (const record of readCsvRecords(source)) {
      if (format.isFraming?.(record.fields) === true) continue;
      if (columns === undefined) {
        columns = resolveColumns(format, mapping, record.fields);
        width = record.fields.length;
        continue;
      }
      if (record.fields.length !== width) {
        yield { line: record.line, verdict: { kind: 'invalid', reason: `has ${record.fields.length} fields, the header has ${width}` } };
        continue;
      }
      const fields = record.fields;
      const at = columns;
      yield { line: record.line, verdict: mapRow((field) => fields[at.get(field) ?? -1] ?? '', record.line) };
    }
    if (grouping !== undefined) yield* grouping.finish();
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new ReportUnreadable(error.line, error.message);
    throw error;
  }
  if (columns === undefined) throw new ReportUnreadable(1, 'the file has no header row');
}
