import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { ReportSpool, SpoolWrite } from '../../ports/report-spool.js';

const handlePattern = /^[0-9a-f-]{36}\.csv$/;

/**
 * Spools uploaded reports as files in one folder (the data directory's `cost-uploads/`, or a temp
 * folder), hashing with SHA-256 as the bytes pass. Handles are the file names we made, never a
 * caller's path.
 */
export class DiskReportSpool implements ReportSpool {
  constructor(private readonly directory: string) {}

  async write(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<SpoolWrite> {
    await mkdir(this.directory, { recursive: true });
    const handle = `${randomUUID()}.csv`;
    const path = join(this.directory, handle);
    const file = createWriteStream(path, { flags: 'wx' });
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      for await (const chunk of source) {
        bytes += chunk.byteLength;
        if (bytes > maxBytes) {
          file.destroy();
          await rm(path, { force: true });
          return { kind: 'too-large' };
        }
        hash.update(chunk);
        if (!file.write(chunk)) await new Promise<void>((resolve) => file.once('drain', resolve));
      }
      file.end();
      await finished(file);
    } catch (error) {
      file.destroy();
      await rm(path, { force: true });
      throw error;
    }
    if (bytes === 0) {
      await rm(path, { force: true });
      return { kind: 'empty' };
    }
    return { kind: 'written', handle, sha256: hash.digest('hex'), bytes };
  }

  read(handle: string): AsyncIterable<Uint8Array> {
    if (!handlePattern.test(handle)) throw new Error(`not a spool handle: ${handle}`);
    return createReadStream(join(this.directory, handle), { highWaterMark: 64 * 1024 });
  }

  async remove(handle: string): Promise<void> {
    if (!handlePattern.test(handle)) return;
    await rm(join(this.directory, handle), { force: true });
  }
}

export function createDiskReportSpool(directory: string): ReportSpool {
  return new DiskReportSpool(directory);
}
