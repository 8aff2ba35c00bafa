import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createFileStorage } from '../../cli/create-batch-service.js';
import { S3FileStorage } from '../../src/adapters/s3/s3-file-storage.js';
import { S3ObjectClient, type S3ObjectClientOptions } from '../../src/adapters/s3/s3-object-client.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createManualClock } from '../../src/time/clock.js';
import { s3Env, s3Settings, uniqueNamespace } from '../integration/adapters/local-services.js';
import { fileStorageSuite } from './file-storage.suite.js';

/**
 * The S3 file store against a real S3-compatible server (versitygw, started by deploy/local/s3.sh):
 * the port contract, then what only S3 has (the key layout, list pages, errors of a refused
 * signature, a missing bucket and a server that is not there, the FILE_STORE=s3 composition).
 * Every fixture writes under a prefix of its own in the shared bucket and removes it afterwards.
 */

const options: S3ObjectClientOptions = {
  endpoint: s3Settings.endpoint,
  bucket: s3Settings.bucket,
  region: s3Settings.region,
  credentials: { accessKeyId: s3Settings.accessKeyId, secretAccessKey: s3Settings.secretAccessKey },
};

async function removePrefix(client: S3ObjectClient, prefix: string): Promise<void> {
  for (const key of await client.list(prefix)) await client.delete(key);
}

const merchantFolder = (merchantId: string) => createHash('sha256').update(merchantId).digest('hex').slice(0, 32);

// Two keys a ListObjectsV2 page, so a merchant's list crosses pages (continuation tokens) in the suite.
fileStorageSuite('S3', async (now) => {
  const client = new S3ObjectClient({ ...options, listPageSize: 2 });
  const prefix = `${uniqueNamespace('files')}/`;
  return { storage: new S3FileStorage({ client, prefix, now }), dispose: () => removePrefix(client, prefix) };
});

describe('S3 file storage on a real S3-compatible server', () => {
  it('keeps each merchant under a key prefix of its own (a hash of its id) inside S3_PREFIX, one object for the bytes and one for the description', async () => {
    const client = new S3ObjectClient(options);
    const prefix = `${uniqueNamespace('files-layout')}/`;
    const storage = new S3FileStorage({ client, prefix, now: () => 0 });
    try {
      const described = { bytes: 2, createdAt: 1, filename: '../../etc/passwd', purpose: 'batch' };
      await storage.put({ id: 'file-one', merchantId: 'shop/../a', ...described }, new Uint8Array([104, 105]));
      await storage.put({ id: 'file-two', merchantId: 'shop-b', ...described }, new Uint8Array([104, 105]));
      expect((await client.list(prefix)).sort()).toEqual(
        [
          `${prefix}${merchantFolder('shop/../a')}/file-one.data`,
          `${prefix}${merchantFolder('shop/../a')}/file-one.json`,
          `${prefix}${merchantFolder('shop-b')}/file-two.data`,
          `${prefix}${merchantFolder('shop-b')}/file-two.json`,
        ].sort(),
      );
      // The raw object is the bytes as uploaded, under the merchant's folder only.
      expect(await client.get(`${prefix}${merchantFolder('shop-b')}/file-two.data`)).toEqual(new Uint8Array([104, 105]));
      expect(await client.get(`${prefix}${merchantFolder('shop-b')}/file-one.data`)).toBeUndefined();
    } finally {
      await removePrefix(client, prefix);
    }
  });

  it('round-trips a 3 MiB file, its payload hash signed', async () => {
    const client = new S3ObjectClient(options);
    const prefix = `${uniqueNamespace('files-large')}/`;
    const storage = new S3FileStorage({ client, prefix, now: () => 0 });
    try {
      const content = Uint8Array.from({ length: 3 * 1024 * 1024 }, (_, index) => (index * 31) % 251);
      await storage.put({ id: 'file-large', merchantId: 'shop-a', bytes: content.byteLength, createdAt: 1, filename: 'l.bin', purpose: 'user_data' }, content);
      expect(Buffer.from((await storage.read('shop-a', 'file-large')) ?? []).equals(Buffer.from(content))).toBe(true);
    } finally {
      await removePrefix(client, prefix);
    }
  });

  it('answers a wrong secret with SY_FILE_STORE_UNAVAILABLE naming S3 code and status, never the secret and never "not found"', async () => {
    const wrong = new S3ObjectClient({ ...options, credentials: { accessKeyId: s3Settings.accessKeyId, secretAccessKey: 'not-the-secret-4242' } });
    const storage = new S3FileStorage({ client: wrong, prefix: 'files/', now: () => 0 });
    const failure = await storage.get('shop-a', 'file-anything').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      code: 'SY_FILE_STORE_UNAVAILABLE',
      isRetryable: false,
      details: { operation: 'GetObject', bucket: s3Settings.bucket, status: 403, s3Code: 'SignatureDoesNotMatch' },
    });
    expect(JSON.stringify({ message: (failure as Error).message, details: (failure as { details: unknown }).details })).not.toContain('not-the-secret-4242');
    await expect(wrong.checkBucket()).rejects.toMatchObject({ code: 'SY_FILE_STORE_UNAVAILABLE', details: { operation: 'HeadBucket', status: 403 } });
  });

  it('answers a missing bucket as the store failing (NoSuchBucket), not as a missing file', async () => {
    const missing = new S3ObjectClient({ ...options, bucket: `sytest-no-bucket-${Date.now().toString(36)}` });
    await expect(new S3FileStorage({ client: missing, prefix: 'files/', now: () => 0 }).get('shop-a', 'file-x')).rejects.toMatchObject({
      code: 'SY_FILE_STORE_UNAVAILABLE',
      details: { status: 404, s3Code: 'NoSuchBucket' },
    });
    await expect(missing.checkBucket()).rejects.toMatchObject({ code: 'SY_FILE_STORE_UNAVAILABLE', details: { operation: 'HeadBucket', status: 404 } });
  });

  it('answers a server that is not there with a retryable SY_FILE_STORE_UNAVAILABLE naming the endpoint', async () => {
    // A port the OS gave us and took back: nothing listens on it.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const gone = new S3ObjectClient({ ...options, endpoint: `http://127.0.0.1:${port}` });
    await expect(gone.put('files/x', 'y', 'text/plain')).rejects.toMatchObject({
      code: 'SY_FILE_STORE_UNAVAILABLE',
      isRetryable: true,
      message: expect.stringContaining(`PutObject failed: the server cannot be reached (http://127.0.0.1:${port})`),
    });
  });

  it('is what FILE_STORE=s3 composes (checked with HeadBucket), and FILE_STORE=s3 without its settings names them', async () => {
    const clock = createManualClock(1_700_000_000_000);
    const prefix = `${uniqueNamespace('files-config')}/`;
    const storage = await createFileStorage(loadConfig(s3Env(prefix)), clock);
    expect(storage).toBeInstanceOf(S3FileStorage);
    try {
      await storage.put({ id: 'file-composed', merchantId: 'shop-a', bytes: 2, createdAt: 1, filename: 'c', purpose: 'batch' }, new Uint8Array([1, 2]));
      expect(await new S3ObjectClient(options).list(prefix)).toHaveLength(2);
    } finally {
      await removePrefix(new S3ObjectClient(options), prefix);
    }
    await expect(createFileStorage(loadConfig({ FILE_STORE: 's3', S3_BUCKET: s3Settings.bucket }), clock)).rejects.toMatchObject({
      code: 'SY_CONFIG_INVALID',
      message: 'invalid configuration: FILE_STORE=s3 needs S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    });
    await expect(createFileStorage(loadConfig({ ...s3Env(prefix), S3_BUCKET: 'sytest-absent-bucket' }), clock)).rejects.toMatchObject({
      code: 'SY_FILE_STORE_UNAVAILABLE',
      details: { operation: 'HeadBucket', bucket: 'sytest-absent-bucket', status: 404 },
    });
  });
});
