import { createHash, randomBytes } from 'node:crypto';

/**
 * UUID version 7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids sort by creation
 * time, which keeps ClickHouse ORDER BY keys and Kafka logs in a natural order.
 * Within one millisecond a counter in the random field keeps ids from one process monotonic.
 */
let lastMs = 0;
let sequence = 0;

// Random bytes are drawn 4 KiB at a time: one CSPRNG call per 256 ids instead of per id (hot path).
const poolSize = 4096;
let pool = randomBytes(poolSize);
let poolOffset = 0;

function sixteenRandomBytes(): Buffer {
  if (poolOffset + 16 > poolSize) {
    pool = randomBytes(poolSize);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

export function uuidV7(nowMs: number = Date.now()): string {
  const bytes = sixteenRandomBytes();
  if (nowMs <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    nowMs = lastMs;
  } else {
    lastMs = nowMs;
    sequence = bytes.readUInt16BE(6) & 0x7ff; // start low so the counter has room
  }
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A UUIDv7 derived deterministically from another event's id and a purpose: same inputs, same id.
 * A worker that re-handles a redelivered event republishes its follow-up under the same id, so
 * consumers that de-duplicate by id (the analytics sink) count it once.
 */
export function derivedUuidV7(sourceId: string, purpose: string): string {
  const digest = createHash('sha256').update(sourceId).update('\u0000').update(purpose).digest();
  const bytes = Buffer.alloc(16);
  // Keep the source's 48-bit timestamp so the derived id sorts next to its cause.
  Buffer.from(sourceId.replaceAll('-', '').slice(0, 12), 'hex').copy(bytes, 0);
  digest.copy(bytes, 6, 0, 10);
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
