import type { FileInput } from '../../src/generation/documents/document-input.js';
import { InvalidRequestError } from '../../src/generation/errors/provider-errors.js';
import type { GenerateRequest } from '../../src/generated/schema-types.js';

/**
 * The body limit of POST /api/generate and /api/stream: one 10 MiB file base64-encoded (~13.3 MiB)
 * with room for the prompt and smaller files beside it. The app's own limit applies when larger.
 */
export const GENERATE_BODY_LIMIT_BYTES = 24 * 1024 * 1024;

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The toolkit's `files` from the wire: data URLs pass as they are (the toolkit validates them),
 * `{data: <base64>, mimeType, name?}` becomes `{data: bytes, mimeType, name?}`. Anything the toolkit
 * cannot read is its `InvalidRequestError` (a 400 naming `files[i]`), never a 500.
 */
export function filesOf(files: GenerateRequest['files']): FileInput[] | undefined {
  if (files === undefined) return undefined;
  return files.map((file, index): FileInput => {
    if (typeof file === 'string') return file;
    const compact = file.data.replace(/\s+/g, '');
    if (!base64.test(compact) || compact.length % 4 === 1) {
      throw new InvalidRequestError(`files[${index}].data must be the file's bytes in base64`, 'toolkit', `files[${index}].data`);
    }
    const data = new Uint8Array(Buffer.from(compact, 'base64'));
    return { data, mimeType: file.mimeType, ...(file.name !== undefined ? { name: file.name } : {}) };
  });
}
