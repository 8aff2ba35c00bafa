import { randomBytes } from 'node:crypto';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { FileStorage, StoredFile } from '../../ports/file-storage.js';
import type { Clock } from '../../time/clock.js';
import { parseBatchInput, type BatchInputLine } from './batch-input.js';

/** The purposes an upload may name (OpenAI's `FilePurpose`); only `batch` files are read back here. */
export const uploadPurposes = ['batch', 'user_data', 'assistants', 'fine-tune', 'vision', 'evals'] as const;

/** 30 days: OpenAI's default expiry of `batch` files and of batch outputs. */
export const batchFileTtlS = 30 * 86_400;

export interface FileSettings {
  /** FILES_MAX_BYTES. */
  readonly maxBytes: number;
  /** BATCH_MAX_LINES: most requests one batch input file carries. */
  readonly maxBatchLines: number;
}

export interface FileUpload {
  readonly merchantId: string;
  readonly filename: string;
  readonly purpose: string;
  readonly content: Uint8Array;
  /** `expires_after.seconds` when the client sent one. */
  readonly expiresAfterS?: number;
}

/** One page of a list, newest first: OpenAI's cursor pagination (`after` is the last id seen). */
export interface FilePage {
  readonly data: readonly StoredFile[];
  readonly hasMore: boolean;
}

export interface FileListQuery {
  readonly after?: string;
  readonly limit: number;
  readonly purpose?: string;
  readonly order?: 'asc' | 'desc';
}

/** `file-` and 24 random base64url characters (144 bits): ids are ours, never derived from input. */
export function newFileId(): string {
  return `file-${randomBytes(18).toString('base64url')}`;
}

function invalid(message: string, param: string): SwitchyardError {
  return new SwitchyardError('SY_FILE_INVALID', { message, details: { param } });
}

export function fileNotFound(fileId: string): SwitchyardError {
  return new SwitchyardError('SY_FILE_NOT_FOUND', { message: `No such File object: ${fileId.slice(0, 128)}`, details: { param: 'file_id' } });
}

/**
 * The OpenAI Files API over a FileStorage: upload (a `batch` file is read as a batch input and
 * refused, naming its first bad line, before it is stored), list, retrieve, content and delete,
 * each scoped to the caller's merchant (another merchant's id is not found, like an unknown one).
 */
export class FileService {
  constructor(
    private readonly deps: { readonly storage: FileStorage; readonly settings: FileSettings; readonly clock: Clock; readonly newId?: () => string },
  ) {}

  get maxBytes(): number {
    return this.deps.settings.maxBytes;
  }

  async upload(upload: FileUpload): Promise<StoredFile> {
    if (!(uploadPurposes as readonly string[]).includes(upload.purpose)) throw invalid(`purpose must be one of ${uploadPurposes.join(', ')}`, 'purpose');
    if (upload.content.byteLength > this.deps.settings.maxBytes)
      throw new SwitchyardError('SY_FILE_TOO_LARGE', {
        message: `the file is ${upload.content.byteLength} bytes; at most ${this.deps.settings.maxBytes} are accepted`,
        details: { param: 'file', max: this.deps.settings.maxBytes },
      });
    if (upload.content.byteLength === 0) throw invalid('the file is empty', 'file');
    if (upload.purpose === 'batch') parseBatchInput(upload.content, this.deps.settings.maxBatchLines);
    const createdAt = Math.floor(this.deps.clock.now() / 1000);
    const ttlS = upload.expiresAfterS ?? (upload.purpose === 'batch' ? batchFileTtlS : undefined);
    const file: StoredFile = {
      id: (this.deps.newId ?? newFileId)(),
      merchantId: upload.merchantId,
      bytes: upload.content.byteLength,
      createdAt,
      filename: upload.filename,
      purpose: upload.purpose,
      ...(ttlS !== undefined ? { expiresAt: createdAt + ttlS } : {}),
    };
    await this.deps.storage.put(file, upload.content);
    return file;
  }

  async retrieve(merchantId: string, fileId: string): Promise<StoredFile> {
    const file = await this.deps.storage.get(merchantId, fileId);
    if (file === undefined) throw fileNotFound(fileId);
    return file;
  }

  async content(merchantId: string, fileId: string): Promise<{ readonly file: StoredFile; readonly content: Uint8Array }> {
    const file = await this.retrieve(merchantId, fileId);
    const content = await this.deps.storage.read(merchantId, fileId);
    if (content === undefined) throw fileNotFound(fileId);
    return { file, content };
  }

  /** The lines of a merchant's `batch` file, checked again (it may have been stored by an older rule). */
  async batchInput(merchantId: string, fileId: string): Promise<readonly BatchInputLine[]> {
    const { file, content } = await this.content(merchantId, fileId);
    if (file.purpose !== 'batch')
      throw new SwitchyardError('SY_BATCH_INVALID', {
        message: `file ${fileId} has purpose "${file.purpose}", not "batch"`,
        details: { param: 'input_file_id' },
      });
    return parseBatchInput(content, this.deps.settings.maxBatchLines);
  }

  async delete(merchantId: string, fileId: string): Promise<void> {
    if (!(await this.deps.storage.delete(merchantId, fileId))) throw fileNotFound(fileId);
  }

  async list(merchantId: string, query: FileListQuery): Promise<FilePage> {
    let files = await this.deps.storage.list(merchantId);
    if (query.purpose !== undefined) files = files.filter((file) => file.purpose === query.purpose);
    if (query.order === 'asc') files = [...files].reverse();
    return pageAfter(files, query.after, query.limit);
  }
}

/** The `limit` items after the one with id `after` (all from the start when it is absent or unknown). */
export function pageAfter<T extends { readonly id: string }>(
  items: readonly T[],
  after: string | undefined,
  limit: number,
): { readonly data: readonly T[]; readonly hasMore: boolean } {
  const start = after === undefined ? 0 : items.findIndex((item) => item.id === after) + 1;
  const data = items.slice(start, start + limit);
  return { data, hasMore: start + limit < items.length };
}
