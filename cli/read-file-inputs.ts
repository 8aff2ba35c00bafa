import { readFile, stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { type FileInput, MAX_FILE_BYTES, MAX_FILES } from '../src/generation/documents/document-input.js';
import { UsageError } from './exit-codes.js';

/** `--file` is repeatable: commander collects every occurrence. */
export function collectFile(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
}

/** A PDF starts with `%PDF-` (maybe after a few bytes of junk); anything else must say so by its name. */
function typeOf(path: string, bytes: Uint8Array): 'application/pdf' | 'text/csv' | undefined {
  const extension = extname(path).toLowerCase();
  if (extension === '.pdf') return 'application/pdf';
  if (extension === '.csv') return 'text/csv';
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'application/pdf';
  return undefined;
}

/**
 * The `files` of a command line: each `--file <path>` read (relative to the working directory),
 * its type taken from the extension (.pdf, .csv) or, without one, from a PDF's `%PDF-` header.
 * Other files, missing ones, more than 10 or over 10 MiB are refused here with a usage error;
 * whether a PDF or CSV is readable is the toolkit's to say (it names the file).
 */
export async function readFileInputs(paths: readonly string[] | undefined, cwd: string): Promise<FileInput[] | undefined> {
  if (paths === undefined || paths.length === 0) return undefined;
  if (paths.length > MAX_FILES) throw new UsageError(`--file: at most ${MAX_FILES} files (got ${paths.length})`);
  const files: FileInput[] = [];
  for (const path of paths) {
    const full = resolve(cwd, path);
    let bytes: Uint8Array;
    try {
      const info = await stat(full);
      if (!info.isFile()) throw new UsageError(`--file ${path}: not a file`);
      if (info.size > MAX_FILE_BYTES) throw new UsageError(`--file ${path}: ${info.size} bytes; at most ${MAX_FILE_BYTES} (10 MiB) per file`);
      bytes = new Uint8Array(await readFile(full));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`--file ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const mimeType = typeOf(path, bytes);
    if (mimeType === undefined) throw new UsageError(`--file ${path}: only PDF (.pdf) and CSV (.csv) files are taken`);
    files.push({ data: bytes, mimeType, name: basename(path) });
  }
  return files;
}
