import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileStorage, StoredFile } from '../../src/ports/file-storage.js';

/**
 * One FileStorage under test (the store of /v1/files), empty, on a namespace of its own, with its
 * clock in the test's hands (`now` is what the store reads for expiry).
 */
export interface FileStorageFixture {
  readonly storage: FileStorage;
  dispose(): Promise<void>;
}

export type FileStorageFactory = (now: () => number) => Promise<FileStorageFixture>;

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (content: Uint8Array | undefined) => (content === undefined ? undefined : new TextDecoder().decode(content));

function file(id: string, merchantId: string, overrides: Partial<StoredFile> = {}): StoredFile {
  return { id, merchantId, bytes: 5, createdAt: 1_700_000_000, filename: 'in.jsonl', purpose: 'batch', ...overrides };
}

/**
 * The FileStorage contract (src/ports/file-storage.ts) every adapter keeps: the embedded disk store
 * and the S3-compatible one run the same cases.
 */
export function fileStorageSuite(name: string, create: FileStorageFactory): void {
  describe(`${name} file storage (port contract)`, () => {
    let fixture: FileStorageFixture;
    let storage: FileStorage;
    let nowMs: number;

    beforeEach(async () => {
      nowMs = 1_700_000_000_000;
      fixture = await create(() => nowMs);
      storage = fixture.storage;
    });
    afterEach(() => fixture.dispose());

    it('keeps each merchant to its own files: the same id of another merchant is not there', async () => {
      await storage.put(file('file-a1', 'shop-a'), bytes('hello'));
      expect(await storage.get('shop-a', 'file-a1')).toEqual(file('file-a1', 'shop-a'));
      expect(text(await storage.read('shop-a', 'file-a1'))).toBe('hello');
      expect(await storage.get('shop-b', 'file-a1')).toBeUndefined();
      expect(await storage.read('shop-b', 'file-a1')).toBeUndefined();
      expect(await storage.delete('shop-b', 'file-a1')).toBe(false);
      expect(await storage.list('shop-b')).toEqual([]);
      // Shop b's refused delete left shop a's file alone.
      expect(text(await storage.read('shop-a', 'file-a1'))).toBe('hello');
      expect((await storage.list('shop-a')).map((entry) => entry.id)).toEqual(['file-a1']);
    });

    it('answers ids that are not ours (paths, dots, separators) as unknown and refuses to write one', async () => {
      for (const id of ['../file-x', 'file-../../etc', 'file-a/b', '.json', 'file-a.json', '']) {
        expect(await storage.get('shop-a', id)).toBeUndefined();
        expect(await storage.read('shop-a', id)).toBeUndefined();
        expect(await storage.delete('shop-a', id)).toBe(false);
      }
      await expect(storage.put(file('../escape', 'shop-a'), bytes('x'))).rejects.toThrow(RangeError);
      await expect(storage.put(file('file-a/b', 'shop-a'), bytes('x'))).rejects.toThrow(RangeError);
      expect(await storage.list('shop-a')).toEqual([]);
    });

    it('lists newest first (ties by id, descending), replaces a file written again, and forgets an expired one', async () => {
      await storage.put(file('file-old', 'shop-a', { createdAt: 1 }), bytes('old'));
      await storage.put(file('file-new', 'shop-a', { createdAt: 2, expiresAt: 1_700_000_010 }), bytes('new'));
      await storage.put(file('file-tie-a', 'shop-a', { createdAt: 1 }), bytes('tie'));
      expect((await storage.list('shop-a')).map((entry) => entry.id)).toEqual(['file-new', 'file-tie-a', 'file-old']);
      await storage.put(file('file-old', 'shop-a', { createdAt: 1, bytes: 7 }), bytes('changed'));
      expect(text(await storage.read('shop-a', 'file-old'))).toBe('changed');
      expect((await storage.get('shop-a', 'file-old'))?.bytes).toBe(7);
      // One second before expiry it is there; at expiry it is gone, for get, read and list alike.
      nowMs = 1_700_000_009_000;
      expect(await storage.get('shop-a', 'file-new')).toBeDefined();
      nowMs = 1_700_000_010_000;
      expect(await storage.read('shop-a', 'file-new')).toBeUndefined();
      expect(await storage.get('shop-a', 'file-new')).toBeUndefined();
      expect((await storage.list('shop-a')).map((entry) => entry.id)).toEqual(['file-tie-a', 'file-old']);
      expect(await storage.delete('shop-a', 'file-old')).toBe(true);
      expect(await storage.delete('shop-a', 'file-old')).toBe(false);
      expect((await storage.list('shop-a')).map((entry) => entry.id)).toEqual(['file-tie-a']);
    });

    it('keeps every byte value and a file of many lines exactly', async () => {
      const binary = Uint8Array.from({ length: 512 }, (_, index) => index % 256);
      await storage.put(file('file-binary', 'shop-a', { bytes: binary.byteLength, purpose: 'user_data' }), binary);
      const read = await storage.read('shop-a', 'file-binary');
      expect(read === undefined ? undefined : Buffer.from(read)).toEqual(Buffer.from(binary));
      const lines = `${Array.from({ length: 200 }, (_, n) => JSON.stringify({ custom_id: `line-${n}`, note: 'ünïcødé ✓' })).join('\n')}\n`;
      await storage.put(file('file-lines', 'shop-a', { bytes: Buffer.byteLength(lines), filename: 'évaluation.jsonl' }), bytes(lines));
      expect(text(await storage.read('shop-a', 'file-lines'))).toBe(lines);
      expect((await storage.get('shop-a', 'file-lines'))?.filename).toBe('évaluation.jsonl');
    });

    it('lists every file of a merchant, however many, and none of another merchant', async () => {
      const ids = Array.from({ length: 7 }, (_, n) => `file-many-${n}`);
      for (const [n, id] of ids.entries()) await storage.put(file(id, 'shop-many', { createdAt: 100 + n }), bytes(id));
      await storage.put(file('file-other', 'shop-other'), bytes('other'));
      expect((await storage.list('shop-many')).map((entry) => entry.id)).toEqual([...ids].reverse());
      expect((await storage.list('shop-other')).map((entry) => entry.id)).toEqual(['file-other']);
    });
  });
}
