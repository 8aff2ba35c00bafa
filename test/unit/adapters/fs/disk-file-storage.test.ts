import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskFileStorage } from '../../../../src/adapters/fs/disk-file-storage.js';
import type { StoredFile } from '../../../../src/ports/file-storage.js';

const bytes = (text: string) => new TextEncoder().encode(text);

function file(id: string, merchantId: string, overrides: Partial<StoredFile> = {}): StoredFile {
  return { id, merchantId, bytes: 5, createdAt: 1_700_000_000, filename: 'in.jsonl', purpose: 'batch', ...overrides };
}

describe('disk file storage', () => {
  let root: string;
  let nowMs: number;
  let storage: DiskFileStorage;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sy-files-'));
    nowMs = 1_700_000_000_000;
    storage = new DiskFileStorage({ directory: root, now: () => nowMs });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('keeps each merchant to its own files: the same id of another merchant is not there', async () => {
    await storage.put(file('file-a1', 'shop-a'), bytes('hello'));
    expect(await storage.get('shop-a', 'file-a1')).toEqual(file('file-a1', 'shop-a'));
    expect(new TextDecoder().decode(await storage.read('shop-a', 'file-a1'))).toBe('hello');
    expect(await storage.get('shop-b', 'file-a1')).toBeUndefined();
    expect(await storage.read('shop-b', 'file-a1')).toBeUndefined();
    expect(await storage.delete('shop-b', 'file-a1')).toBe(false);
    expect(await storage.list('shop-b')).toEqual([]);
    expect(await storage.get('shop-a', 'file-a1')).toBeDefined();
  });

  it('answers ids that are not ours (paths, dots, separators) as unknown and never writes outside its folder', async () => {
    for (const id of ['../file-x', 'file-../../etc', 'file-a/b', '.json', 'file-a.json', '']) {
      expect(await storage.get('shop-a', id)).toBeUndefined();
      expect(await storage.delete('shop-a', id)).toBe(false);
    }
    await expect(storage.put(file('../escape', 'shop-a'), bytes('x'))).rejects.toThrow(RangeError);
    expect(readdirSync(root)).toEqual([]);
    // Merchant ids never become paths: the folder is a hash.
    await storage.put(file('file-ok', '../../shop'), bytes('x'));
    expect(readdirSync(root)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
  });

  it('lists newest first, replaces a file written again, and forgets an expired one', async () => {
    await storage.put(file('file-old', 'shop-a', { createdAt: 1 }), bytes('old'));
    await storage.put(file('file-new', 'shop-a', { createdAt: 2, expiresAt: 1_700_000_010 }), bytes('new'));
    expect((await storage.list('shop-a')).map((entry) => entry.id)).toEqual(['file-new', 'file-old']);
    await storage.put(file('file-old', 'shop-a', { createdAt: 1, bytes: 7 }), bytes('changed'));
    expect(new TextDecoder().decode(await storage.read('shop-a', 'file-old'))).toBe('changed');
    nowMs = 1_700_000_010_000;
    expect(await storage.get('shop-a', 'file-new')).toBeUndefined();
    expect((await storage.list('shop-a')).map((entry) => entry.id)).toEqual(['file-old']);
    expect(await storage.delete('shop-a', 'file-old')).toBe(true);
    expect(await storage.list('shop-a')).toEqual([]);
  });
});
