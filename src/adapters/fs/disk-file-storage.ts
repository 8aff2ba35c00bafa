import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isStoredFileExpired, isStoredFileId, parseStoredFileDescription, type FileStorage, type StoredFile } from '../../ports/file-storage.js';

export interface DiskFileStorageOptions {
  /** The one folder every file lives under (FILES_DIR, default `<DATA_DIR>/files`). */
  readonly directory: string;
  /** Epoch ms, for expiry. */
  readonly now: () => number;
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * The embedded FileStorage: one folder per merchant under `directory`, named by a hash of the
 * merchant id (a merchant id never becomes a path), and in it `<fileId>.json` (the description)
 * beside `<fileId>.data` (the bytes). Ids outside `isStoredFileId` are unknown, so no input can
 * name a path. Each write goes to a temporary name and is renamed into place: a reader sees the
 * old file or the new one. A file past its `expiresAt` is answered as missing and removed.
 *
 * @remarks One disk: replicas on different machines each see their own files. That is what the
 * S3-compatible adapter is for (src/adapters/s3/s3-file-storage.ts, FILE_STORE=s3).
 */
export class DiskFileStorage implements FileStorage {
  constructor(private readonly options: DiskFileStorageOptions) {}

  async put(file: StoredFile, content: Uint8Array): Promise<void> {
    if (!isStoredFileId(file.id)) throw new RangeError(`not a file id of ours: ${file.id}`);
    const folder = this.folderOf(file.merchantId);
    await mkdir(folder, { recursive: true });
    // Bytes first: a description never names bytes that are not there yet.
    await this.writeAtomically(join(folder, `${file.id}.data`), content);
    await this.writeAtomically(join(folder, `${file.id}.json`), JSON.stringify(file));
  }

  async get(merchantId: string, fileId: string): Promise<StoredFile | undefined> {
    if (!isStoredFileId(fileId)) return undefined;
    const file = await this.readDescription(join(this.folderOf(merchantId), `${fileId}.json`));
    if (file === undefined || file.merchantId !== merchantId) return undefined;
    if (this.isExpired(file)) {
      await this.delete(merchantId, fileId);
      return undefined;
    }
    return file;
  }

  async read(merchantId: string, fileId: string): Promise<Uint8Array | undefined> {
    if ((await this.get(merchantId, fileId)) === undefined) return undefined;
    try {
      return await readFile(join(this.folderOf(merchantId), `${fileId}.data`));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async list(merchantId: string): Promise<readonly StoredFile[]> {
    const folder = this.folderOf(merchantId);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const files: StoredFile[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const file = await this.get(merchantId, name.slice(0, -'.json'.length));
      if (file !== undefined) files.push(file);
    }
    return files.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  async delete(merchantId: string, fileId: string): Promise<boolean> {
    if (!isStoredFileId(fileId)) return false;
    const folder = this.folderOf(merchantId);
    const description = join(folder, `${fileId}.json`);
    const existed = (await this.readDescription(description)) !== undefined;
    // Description first: once it is gone the file is gone for every reader.
    await rm(description, { force: true });
    await rm(join(folder, `${fileId}.data`), { force: true });
    return existed;
  }

  private folderOf(merchantId: string): string {
    return join(this.options.directory, createHash('sha256').update(merchantId).digest('hex').slice(0, 32));
  }

  private isExpired(file: StoredFile): boolean {
    return isStoredFileExpired(file, this.options.now());
  }

  private async readDescription(path: string): Promise<StoredFile | undefined> {
    try {
      return parseStoredFileDescription(await readFile(path, 'utf8'));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  private async writeAtomically(path: string, content: Uint8Array | string): Promise<void> {
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      await writeFile(temporary, content, { flag: 'wx' });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
