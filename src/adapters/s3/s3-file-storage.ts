import { createHash } from 'node:crypto';
import { isStoredFileExpired, isStoredFileId, parseStoredFileDescription, type FileStorage, type StoredFile } from '../../ports/file-storage.js';
import type { S3ObjectClient } from './s3-object-client.js';

export interface S3FileStorageOptions {
  readonly client: S3ObjectClient;
  /** Key prefix of every object (S3_PREFIX, default `files/`): '' or ending in `/`. */
  readonly prefix: string;
  /** Epoch ms, for expiry. */
  readonly now: () => number;
}

/** Descriptions read at once while listing (one GetObject each). */
const listConcurrency = 16;

function parseDescription(bytes: Uint8Array): StoredFile | undefined {
  return parseStoredFileDescription(new TextDecoder().decode(bytes));
}

/**
 * The distributed FileStorage: one S3-compatible bucket shared by every replica (FILE_STORE=s3).
 * Each merchant's objects live under `<prefix><merchant>/`, `<merchant>` a hash of the merchant id
 * (as the disk store names its folders: a merchant id never becomes a key), and each file is two
 * objects: `<fileId>.data` (the bytes) and `<fileId>.json` (the description). Ids outside
 * `isStoredFileId` are unknown, so no input can name a key. A PutObject is atomic (a reader sees
 * the old object or the new one) and the bytes are written before the description, so a
 * description never names bytes that are not there; a delete removes the description first. A
 * file past its `expiresAt` is answered as missing and removed (a bucket lifecycle rule on the
 * prefix can sweep what nobody reads again).
 *
 * @remarks Whole objects, as the port asks: a file is bounded by FILES_MAX_BYTES.
 */
export class S3FileStorage implements FileStorage {
  constructor(private readonly options: S3FileStorageOptions) {}

  async put(file: StoredFile, content: Uint8Array): Promise<void> {
    if (!isStoredFileId(file.id)) throw new RangeError(`not a file id of ours: ${file.id}`);
    const folder = this.folderOf(file.merchantId);
    await this.options.client.put(`${folder}${file.id}.data`, content, 'application/octet-stream');
    await this.options.client.put(`${folder}${file.id}.json`, JSON.stringify(file), 'application/json');
  }

  async get(merchantId: string, fileId: string): Promise<StoredFile | undefined> {
    if (!isStoredFileId(fileId)) return undefined;
    const bytes = await this.options.client.get(`${this.folderOf(merchantId)}${fileId}.json`);
    const file = bytes === undefined ? undefined : parseDescription(bytes);
    if (file === undefined || file.merchantId !== merchantId || file.id !== fileId) return undefined;
    if (this.isExpired(file)) {
      await this.delete(merchantId, fileId);
      return undefined;
    }
    return file;
  }

  async read(merchantId: string, fileId: string): Promise<Uint8Array | undefined> {
    if ((await this.get(merchantId, fileId)) === undefined) return undefined;
    return this.options.client.get(`${this.folderOf(merchantId)}${fileId}.data`);
  }

  async list(merchantId: string): Promise<readonly StoredFile[]> {
    const folder = this.folderOf(merchantId);
    const ids = (await this.options.client.list(folder))
      .filter((key) => key.startsWith(folder) && key.endsWith('.json'))
      .map((key) => key.slice(folder.length, -'.json'.length))
      .filter((id) => isStoredFileId(id));
    const files: StoredFile[] = [];
    for (let start = 0; start < ids.length; start += listConcurrency) {
      const found = await Promise.all(ids.slice(start, start + listConcurrency).map((id) => this.get(merchantId, id)));
      for (const file of found) if (file !== undefined) files.push(file);
    }
    return files.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  async delete(merchantId: string, fileId: string): Promise<boolean> {
    if (!isStoredFileId(fileId)) return false;
    const folder = this.folderOf(merchantId);
    const description = await this.options.client.get(`${folder}${fileId}.json`);
    const existed = description !== undefined && parseDescription(description)?.merchantId === merchantId;
    // Description first: once it is gone the file is gone for every reader.
    await this.options.client.delete(`${folder}${fileId}.json`);
    await this.options.client.delete(`${folder}${fileId}.data`);
    return existed;
  }

  /** `<prefix><32 hex of SHA-256(merchant id)>/`. */
  private folderOf(merchantId: string): string {
    return `${this.options.prefix}${createHash('sha256').update(merchantId).digest('hex').slice(0, 32)}/`;
  }

  private isExpired(file: StoredFile): boolean {
    return isStoredFileExpired(file, this.options.now());
  }
}
