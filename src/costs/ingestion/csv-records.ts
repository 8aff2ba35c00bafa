/** One CSV record: its fields and the 1-based physical line it starts on. */
export interface CsvRecord {
  readonly line: number;
  readonly fields: readonly string[];
}

/** A record that cannot be read (an unclosed quote, a runaway field); parsing stops there. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/** A record longer than this is refused: 1 MiB of text, far past any settlement-report line. */
export const maxRecordChars = 1 << 20;

/**
 * Reads RFC 4180 CSV from a byte stream, one record at a time: at most one record (and one input
 * chunk) is held, so a report of any size stays flat in memory. Quoted fields may hold commas,
 * doubled quotes and line breaks; CRLF and LF both end a record; a UTF-8 byte-order mark is
 * skipped; blank lines are skipped (their line numbers still count). Bytes are decoded as UTF-8
 * (invalid sequences become U+FFFD, which the row validation then sees as text, not numbers).
 *
 * Line numbers are physical: a record whose quoted field spans lines is reported at the line it starts.
 */
export async function* readCsvRecords(source: AsyncIterable<Uint8Array>): AsyncGenerator<CsvRecord> {
  const decoder = new TextDecoder('utf-8');
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let quoteSeen = false; // inside quotes, the previous char was a quote (either the end or half of "")
  let line = 1;
  let recordLine = 1;
  let recordChars = 0;
  let first = true;
  let pendingCr = false;

  const endField = (): void => {
    fields.push(field);
    field = '';
  };
  const endRecord = (): CsvRecord | undefined => {
    endField();
    const record = fields.length === 1 && fields[0] === '' ? undefined : { line: recordLine, fields };
    fields = [];
    recordChars = 0;
    return record;
  };

  const consume = function* (text: string): Generator<CsvRecord> {
    for (let index = 0; index < text.length; index++) {
      let char = text[index]!;
      if (first) {
        first = false;
        if (char === '\uFEFF') continue;
      }
      if (pendingCr) {
        pendingCr = false;
        if (char === '\n') continue; // CRLF: the CR already ended the record and counted the line
      }
      if (++recordChars > maxRecordChars) throw new CsvSyntaxError(recordLine, `a record longer than ${maxRecordChars} characters`);
      if (inQuotes) {
        if (quoteSeen) {
          quoteSeen = false;
          if (char === '"') {
            field += '"';
            continue;
          }
          inQuotes = false; // the previous quote closed the field; handle this char unquoted
        } else if (char === '"') {
          quoteSeen = true;
          continue;
        } else {
          if (char === '\n' || char === '\r') {
            line++;
            if (char === '\r') pendingCr = true;
            char = '\n';
          }
          field += char;
          continue;
        }
      }
      if (char === '"') {
        if (field !== '') throw new CsvSyntaxError(line, 'a quote inside an unquoted field');
        inQuotes = true;
      } else if (char === ',') {
        endField();
      } else if (char === '\n' || char === '\r') {
        if (char === '\r') pendingCr = true;
        const record = endRecord();
        line++;
        recordLine = line;
        if (record !== undefined) yield record;
      } else {
        field += char;
      }
    }
  };

  for await (const chunk of source) yield* consume(decoder.decode(chunk, { stream: true }));
  yield* consume(decoder.decode());
  if (inQuotes && !quoteSeen) throw new CsvSyntaxError(recordLine, 'a quoted field is never closed');
  const last = endRecord();
  if (last !== undefined) yield last;
}
