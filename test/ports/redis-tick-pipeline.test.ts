import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTickPipeline } from '../../src/adapters/redis/tick-pipeline.js';
import { redisUrl } from '../integration/adapters/local-services.js';

let redis: Redis;
const prefix = `sytest-tick-${randomUUID()}:`;

beforeAll(async () => {
  redis = new Redis(redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
  } catch (error) {
    throw new Error(`Redis is not reachable at ${redisUrl}: start it with \`bash deploy/local/start.sh redis\``, { cause: error });
  }
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

/** Counts the writes the client makes on its socket while `run` is in flight. */
async function socketWritesDuring<T>(client: Redis, run: () => Promise<T>): Promise<{ result: T; writes: number }> {
  const stream = client.stream;
  const write = stream.write.bind(stream);
  let writes = 0;
  stream.write = ((...args: Parameters<typeof write>) => {
    writes++;
    return write(...args);
  }) as typeof stream.write;
  try {
    return { result: await run(), writes };
  } finally {
    stream.write = write;
  }
}

describe('tick pipeline (real Redis)', () => {
  it('sends the operations of one tick as one write and hands each its own replies', async () => {
    const tick = createTickPipeline(redis);
    await redis.rpush(`${prefix}window`, '1', '0', '1');
    await redis.set(`${prefix}flag`, 'on');
    const { result, writes } = await socketWritesDuring(redis, () =>
      Promise.all([
        tick.send((pipeline) => pipeline.lrange(`${prefix}window`, 0, 9)),
        tick.send((pipeline) => {
          pipeline.get(`${prefix}flag`);
          pipeline.exists(`${prefix}absent`);
        }),
        tick.send((pipeline) => pipeline.set(`${prefix}written`, 'yes', 'EX', 60)),
      ]),
    );
    expect(writes).toBe(1);
    expect(result).toEqual([[['1', '0', '1']], ['on', 0], ['OK']]);
    expect(await redis.get(`${prefix}written`)).toBe('yes');
  });

  it('joins operations started by separate callbacks of one event-loop turn (one write per turn, not per request)', async () => {
    const tick = createTickPipeline(redis);
    await redis.set(`${prefix}turn`, 'same');
    // Two immediates queued together run in one check phase, each as its own callback with the ticks
    // and microtasks drained between them, as requests read from separate sockets in one poll phase
    // are. (Two 0 ms timers could fall into different turns on a busy machine; immediates cannot: one
    // queued while the phase runs, as the pipeline's flush is, waits for the next turn.)
    const startedByTimer = () =>
      new Promise<readonly unknown[]>((resolve, reject) => setImmediate(() => tick.send((pipeline) => pipeline.get(`${prefix}turn`)).then(resolve, reject)));
    const { result, writes } = await socketWritesDuring(redis, () => Promise.all([startedByTimer(), startedByTimer()]));
    expect(result).toEqual([['same'], ['same']]);
    expect(writes).toBe(1);
  });

  it('fails only the operation whose command failed', async () => {
    const tick = createTickPipeline(redis);
    await redis.set(`${prefix}string`, 'not a list');
    const [wrongType, fine] = await Promise.allSettled([
      tick.send((pipeline) => pipeline.lrange(`${prefix}string`, 0, 9)),
      tick.send((pipeline) => pipeline.get(`${prefix}string`)),
    ]);
    expect(wrongType).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringContaining('WRONGTYPE') }) });
    expect(fine).toEqual({ status: 'fulfilled', value: ['not a list'] });
  });

  it('rejects every operation of the tick when the connection is gone', async () => {
    const gone = new Redis(redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    await gone.connect();
    gone.disconnect();
    const tick = createTickPipeline(gone);
    const outcomes = await Promise.allSettled([
      tick.send((pipeline) => pipeline.get(`${prefix}flag`)),
      tick.send((pipeline) => pipeline.exists(`${prefix}flag`)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
  });
});
