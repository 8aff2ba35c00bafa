/**
 * What the OpenAI Files API stores (`/v1/files`): a merchant's uploaded files and the output and
 * error files of its batches, each its bytes plus a small description. Embedded on local disk
 * (src/adapters/fs/disk-file-storage.ts); distributed on an S3-compatible bucket
 * (src/adapters/s3/s3-file-storage.ts), chosen by FILE_STORE.
 *
 * Every operation is scoped by merchant: a file of another merchant is not there, whatever its id.
 * Ids are ours (`file-…`, made by the caller in src/generation/files/), never a path from input; an
 * adapter refuses any id outside {@link isStoredFileId} as unknown.
 *
 * @remarks Whole-object reads and writes, no ranges or streams: batch files are bounded by
 * FILES_MAX_BYTES, and a whole write is what lets an adapter make it atomic (a reader sees the old
 * file or the new one, never half of one). Writing an id again replaces it: batch finalizers may
 * race, and they write the same bytes under the same id.
 */
export interface FileStorage {
  /** Stores (or replaces) a file and its description. */
  put(file: StoredFile, content: Uint8Array): Promise<void>;
  /** The description, or undefined when this merchant has no such file. */
  get(merchantId: string, fileId: string): Promise<StoredFile | undefined>;
  /** The bytes, or undefined when this merchant has no such file. */
  read(merchantId: string, fileId: string): Promise<Uint8Array | undefined>;
  /** Every file of the merchant, newest first (ties by id, descending). */
  list(merchantId: string): Promise<readonly StoredFile[]>;
  /** True when the file existed and is gone. */
  delete(merchantId: string, fileId: string): Promise<boolean>;
}

/** A stored file's description: what the File object (`object: "file"`) shows, and its owner. */
export interface StoredFile {
  readonly id: string;
  readonly merchantId: string;
  readonly bytes: number;
  /** Epoch seconds. */
  readonly createdAt: number;
  readonly filename: string;
  /** `batch`, `batch_output`, `user_data`, … as OpenAI names them. */
  readonly purpose: string;
  /** Epoch seconds after which the file is gone; undefined: kept until deleted. */
  readonly expiresAt?: number;
}

/** The ids the service makes: `file-` and 1 to 64 letters, digits, `_` or `-` (no dot, no slash). */
const storedFileIdPattern = /^file-[A-Za-z0-9_-]{1,64}$/;

export function isStoredFileId(fileId: string): boolean {
  return storedFileIdPattern.test(fileId);
}

/**
 * A stored description read back (`<fileId>.json`, as every adapter writes it): undefined when it
 * is not a description of ours.
 */
export function parseStoredFileDescription(text: string): StoredFile | undefined {
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const file = parsed as Partial<StoredFile>;
  return typeof file.id === 'string' && typeof file.merchantId === 'string' ? (parsed as StoredFile) : undefined;
}

/** Past its `expiresAt` (epoch seconds) at `nowMs`: answered as missing. */
export function isStoredFileExpired(file: StoredFile, nowMs: number): boolean {
  return file.expiresAt !== undefined && file.expiresAt * 1000 <= nowMs;
}
