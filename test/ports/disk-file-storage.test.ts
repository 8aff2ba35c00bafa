import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskFileStorage } from '../../src/adapters/fs/disk-file-storage.js';
import { fileStorageSuite } from './file-storage.suite.js';

fileStorageSuite('disk', async (now) => {
  const directory = mkdtempSync(join(tmpdir(), 'sy-files-'));
  return { storage: new DiskFileStorage({ directory, now }), dispose: async () => rmSync(directory, { recursive: true, force: true }) };
});

describe('disk file storage layout', () => {
  it('never writes outside its folder: a refused id writes nothing, a merchant id is hashed into a folder name', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sy-files-'));
    try {
      const storage = new DiskFileStorage({ directory: root, now: () => 1_700_000_000_000 });
      const described = { bytes: 1, createdAt: 1, filename: 'x', purpose: 'batch' };
      await expect(storage.put({ id: '../escape', merchantId: 'shop-a', ...described }, new Uint8Array([120]))).rejects.toThrow(RangeError);
      expect(readdirSync(root)).toEqual([]);
      await storage.put({ id: 'file-ok', merchantId: '../../shop', ...described }, new Uint8Array([120]));
      expect(readdirSync(root)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
