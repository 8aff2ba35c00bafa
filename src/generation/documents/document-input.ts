import { InvalidRequestError } from '../errors/provider-errors.js';

/** The document kinds `files` takes beside `images`: text is extracted here and sent as text. */
export const documentMimeTypes = ['application/pdf', 'text/csv'] as const;
export type DocumentMimeType = (typeof documentMimeTypes)[number];

/** One document given to `generate`/`stream`: a base64 data URL, or the bytes with their type. */
export type FileInput = string | { readonly data: Uint8Array; readonly mimeType: DocumentMimeType | string; readonly name?: string };

/** A validated document, decoded, not yet read. */
export interface DocumentInput {
  readonly kind: 'pdf' | 'csv';
  readonly name: string;
  readonly bytes: Uint8Array;
  /** `files[i]`: the option to name in an error. */
  readonly option: string;
}

/** At most this many documents per call. */
export const MAX_FILES = 10;
/** 10 MiB per document, decoded. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

const dataUrlPattern = /^data:(application\/pdf|text\/csv)(;[a-z0-9-]+=[^;,]+)*;base64,([A-Za-z0-9+/]*={0,2})$/i;

function fail(option: string, message: string): never {
  throw new InvalidRequestError(`${option} ${message}`, 'toolkit', option);
}

function kindOf(mimeType: string, option: string): 'pdf' | 'csv' {
  const type = mimeType.toLowerCase();
  if (type === 'application/pdf') return 'pdf';
  if (type === 'text/csv') return 'csv';
  return fail(`${option}.mimeType`, `must be application/pdf or text/csv; got ${JSON.stringify(mimeType)}`);
}

function checked(bytes: Uint8Array, option: string): Uint8Array {
  if (bytes.byteLength === 0) fail(option, 'is empty');
  if (bytes.byteLength > MAX_FILE_BYTES) fail(option, `is ${bytes.byteLength} bytes; at most ${MAX_FILE_BYTES} (10 MiB) per file`);
  return bytes;
}

/**
 * Validates `files` before any network call: data URLs `data:application/pdf;base64,…` or
 * `data:text/csv;base64,…`, or `{ data: Uint8Array, mimeType, name? }`; at most 10, each at most 10 MiB.
 */
export function readFiles(value: unknown): DocumentInput[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail('files', 'must be an array of PDF or CSV data URLs');
  if (value.length > MAX_FILES) fail('files', `must hold at most ${MAX_FILES} files; got ${value.length}`);
  return value.map((file: unknown, index): DocumentInput => {
    const option = `files[${index}]`;
    if (typeof file === 'string') {
      const match = dataUrlPattern.exec(file);
      if (match === null) fail(option, 'must be a base64 data URL like data:application/pdf;base64,… or data:text/csv;base64,…');
      if ((match[3]?.length ?? 0) > Math.ceil(MAX_FILE_BYTES / 3) * 4) fail(option, `is over ${MAX_FILE_BYTES} bytes (10 MiB) per file`);
      const bytes = checked(new Uint8Array(Buffer.from(match[3] ?? '', 'base64')), option);
      return { kind: kindOf(match[1] ?? '', option), name: `file ${index + 1}`, bytes, option };
    }
    const record = file as { data?: unknown; mimeType?: unknown; name?: unknown } | null;
    if (typeof record !== 'object' || record === null || !(record.data instanceof Uint8Array) || typeof record.mimeType !== 'string') {
      fail(option, 'must be a data URL or { data: Uint8Array, mimeType, name? }');
    }
    if (record.name !== undefined && typeof record.name !== 'string') fail(`${option}.name`, 'must be a string');
    return {
      kind: kindOf(record.mimeType as string, option),
      name: (record.name as string | undefined) ?? `file ${index + 1}`,
      bytes: checked(record.data as Uint8Array, option),
      option,
    };
  });
}
