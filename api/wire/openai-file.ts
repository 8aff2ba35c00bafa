import type { OpenAiFile } from '../../src/generated/schema-types.js';
import type { StoredFile } from '../../src/ports/file-storage.js';

/** OpenAI's File object (`object: "file"`) of a stored file. */
export function openAiFileObject(file: StoredFile): OpenAiFile {
  return {
    id: file.id,
    object: 'file',
    bytes: file.bytes,
    created_at: file.createdAt,
    filename: file.filename,
    purpose: file.purpose,
    // Deprecated by OpenAI but still sent: a stored file is ready at once.
    status: 'processed',
    status_details: null,
    ...(file.expiresAt !== undefined ? { expires_at: file.expiresAt } : {}),
  };
}

/** OpenAI's cursor-paged list: `first_id`/`last_id` name the page's ends, `has_more` whether `after=last_id` finds more. */
export function openAiList<T extends { readonly id: string }>(
  data: T[],
  hasMore: boolean,
): { object: 'list'; data: T[]; first_id: string | null; last_id: string | null; has_more: boolean } {
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: hasMore };
}
