import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { createLogSink, levels } from './log-sink.js';
import { deleteRedisNamespace, localService, redisUrl, uniqueNamespace } from './local-services.js';

type CallResult =
  | { readonly phase: 'before' | 'outage' | 'after'; readonly ok: true }
  | { readonly phase: 'before' | 'outage' | 'after'; readonly ok: false; readonly error: unknown };

/** Yields to the event loop between calls, so a fast-failing loop never starves socket events. */
const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('RedisStateStore across a Redis restart', () => {
  const keyPrefix = `${uniqueNamespace('fault')}:`;
  const sink = createLogSink();
  let store: StateStore;

  beforeAll(async () => {
    await localService('redis', 'start');
    store = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: sink.logger });
  });

  afterAll(async () => {
    await localService('redis', 'start');
    await store?.close();
    const admin = new Redis(redisUrl);
    await deleteRedisNamespace(admin, keyPrefix);
    await admin.quit();
  });

  it('fails calls with SY_STATE_UNAVAILABLE during the outage and serves them again after it', async () => {
    await store.merchants.create({ merchantId: 'm-before', merchantName: null, deciderInput: null, createdAt: 1 });
    let phase: CallResult['phase'] = 'before';
    let running = true;
    const results: CallResult[] = [];
    const caller = (async () => {
      for (let i = 0; running; i++) {
        const current = phase;
        try {
          await store.sessions.recordLoginFailure(`subject-${i % 5}`, 900);
          results.push({ phase: current, ok: true });
        } catch (error) {
          results.push({ phase: current, ok: false, error });
        }
        await nextTick();
      }
    })();

    await localService('redis', 'stop');
    phase = 'outage';
    const during = await store.merchants.get('m-before').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SwitchyardError.isInstance(during)).toBe(true);
    expect(during).toMatchObject({ code: 'SY_STATE_UNAVAILABLE', isRetryable: true });
    expect(store.isAvailable()).toBe(false);
    expect(await store.probe()).toEqual({ ok: false, failedStage: 'connection' });
    await sink.once('state store unavailable');

    const recovered = sink.once('state store recovered');
    await localService('redis', 'start');
    await recovered;
    phase = 'after';
    expect(store.isAvailable()).toBe(true);
    // Saved by SHUTDOWN on stop and loaded on start: state written before the outage is still there.
    expect(await store.merchants.get('m-before')).toMatchObject({ merchantId: 'm-before' });
    expect(await store.probe()).toEqual({ ok: true });
    await store.sessions.recordLoginFailure('after-outage', 900);

    running = false;
    await caller;
    const outageFailures = results.filter((result) => result.phase === 'outage' && !result.ok);
    expect(results.some((result) => result.phase === 'before' && result.ok)).toBe(true);
    expect(outageFailures.length).toBeGreaterThan(0);
    for (const result of results) {
      if (!result.ok) expect(result.error).toMatchObject({ code: 'SY_STATE_UNAVAILABLE', isRetryable: true });
    }
    expect(results.filter((result) => result.phase === 'after').every((result) => result.ok)).toBe(true);

    // Logged once per outage, however many calls failed and reconnect attempts were made.
    expect(sink.count('state store unavailable')).toBe(1);
    expect(sink.count('state store recovered')).toBe(1);
    expect(sink.entries.find((entry) => entry.msg === 'state store unavailable')?.level).toBe(levels.error);
    expect(sink.entries.find((entry) => entry.msg === 'state store recovered')?.level).toBe(levels.info);
  });
});
