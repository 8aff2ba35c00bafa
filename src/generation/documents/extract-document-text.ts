import { parse } from 'csv-parse/sync';
import { extractText, getDocumentProxy } from 'unpdf';
import { InvalidRequestError } from '../errors/provider-errors.js';
import type { DocumentInput } from './document-input.js';

/** The most text one document may contribute (characters); a longer one is refused, never cut silently. */
export const MAX_DOCUMENT_TEXT = 500_000;
/** CSV rows read per file (header included). */
export const MAX_CSV_ROWS = 10_000;

function fail(document: DocumentInput, message: string, cause?: unknown): never {
  throw new InvalidRequestError(
    `${document.option} (${document.name}) ${message}`,
    'toolkit',
    document.option,
    cause === undefined ? {} : { originalError: cause },
  );
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function pdfText(document: DocumentInput): Promise<{ text: string; summary: string }> {
  let result: { totalPages: number; text: string };
  try {
    // unpdf may transfer the buffer to its worker: give it a copy so the caller's bytes stay usable.
    const pdf = await getDocumentProxy(new Uint8Array(document.bytes));
    result = await extractText(pdf, { mergePages: true });
  } catch (error) {
    return fail(document, `is not a readable PDF: ${reason(error)}`, error);
  }
  const text = result.text.trim();
  if (text === '') fail(document, `has no extractable text (${result.totalPages} page(s); scanned pages are not read)`);
  return { text, summary: `PDF, ${result.totalPages} page(s)` };
}

function quote(cell: string): string {
  return /[",\n\r]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

function csvText(document: DocumentInput): { text: string; summary: string } {
  let rows: string[][];
  try {
    rows = parse(Buffer.from(document.bytes), { bom: true, skip_empty_lines: true, to_line: MAX_CSV_ROWS + 1 }) as string[][];
  } catch (error) {
    return fail(document, `is not valid CSV: ${reason(error)}`, error);
  }
  if (rows.length === 0) fail(document, 'has no rows');
  if (rows.length > MAX_CSV_ROWS) fail(document, `has more than ${MAX_CSV_ROWS} rows`);
  const columns = rows[0]?.length ?? 0;
  return { text: rows.map((row) => row.map(quote).join(',')).join('\n'), summary: `CSV, ${rows.length} row(s) × ${columns} column(s)` };
}

/**
 * The text of one PDF (pdf.js through `unpdf`) or CSV (`csv-parse`, re-quoted) document, headed
 * with its name and shape so the model can tell documents apart. A file that cannot be read is an
 * `InvalidRequestError` naming `files[i]` and why.
 */
export async function extractDocumentText(document: DocumentInput): Promise<string> {
  const { text, summary } = document.kind === 'pdf' ? await pdfText(document) : csvText(document);
  if (text.length > MAX_DOCUMENT_TEXT) fail(document, `holds ${text.length} characters of text; at most ${MAX_DOCUMENT_TEXT}`);
  return `<document name="${document.name.replaceAll('"', "'")}" type="${summary}">\n${text}\n</document>`;
}
