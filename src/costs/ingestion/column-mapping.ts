import { CsvSyntaxError, readCsvRecords } from './csv-records.js';
import type { SettlementFormat } from './settlement-formats.js';

export type MappingCheck =
  | { readonly ok: true; readonly columns: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly problems: readonly string[] };

/** The header row of a sample of the merchant's file ([] when it has none), or why the sample is not CSV. */
export async function sampleHeader(
  sample: string,
): Promise<{ readonly ok: true; readonly header: readonly string[] } | { readonly ok: false; readonly problem: string }> {
  const bytes = async function* (): AsyncGenerator<Uint8Array> {
    yield new TextEncoder().encode(sample);
  };
  try {
    for await (const record of readCsvRecords(bytes())) return { ok: true, header: record.fields.map((field) => field.trim()) };
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { ok: false, problem: `the sample is not CSV (line ${error.line}: ${error.message})` };
    throw error;
  }
  return { ok: true, header: [] };
}

/**
 * Checks a column mapping before it is saved, as the peer does: every key must be a column the
 * connector reads (our canonical field name, or the connector's own header label, which is stored
 * as the field it names), every target a non-empty header, no header mapped twice (it would feed
 * one fee column into two components and double-count it), and, when a sample of the file is
 * given, every target must be in its header row. Plausibility is not judged: that is the
 * merchant's call on a preview.
 */
export function checkMapping(format: SettlementFormat, columns: Readonly<Record<string, string>>, header?: readonly string[]): MappingCheck {
  const problems: string[] = [];
  const normalised: Record<string, string> = {};
  const targets = new Map<string, string>();
  for (const [key, target] of Object.entries(columns).sort(([a], [b]) => a.localeCompare(b))) {
    const column = format.columns.find((c) => c.field === key || c.header === key);
    const name = target.trim();
    if (column === undefined) {
      problems.push(`'${key}' is not a column the ${format.connector} report parser reads`);
      continue;
    }
    if (name === '') problems.push(`'${key}' is mapped to an empty header`);
    else if (header !== undefined && !header.includes(name)) problems.push(`'${key}' is mapped to '${name}', which is not a column in the sample`);
    const other = targets.get(name);
    if (other !== undefined && other !== column.field) problems.push(`'${other}' and '${column.field}' are both mapped to '${name}'`);
    targets.set(name, column.field);
    normalised[column.field] = name;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, columns: normalised };
}
