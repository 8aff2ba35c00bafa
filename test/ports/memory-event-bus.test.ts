import { describe, expect, it } from 'vitest';
import { createMemoryEventBus } from '../../src/adapters/memory/memory-event-bus.js';
import { validateEvent } from '../../src/events/validate-event.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import { silentLogger } from '../../src/logging/logger.js';
import { apiRequested } from '../fixtures/api-requested.js';
import { eventBusSuite } from './event-bus.suite.js';

eventBusSuite('memory', async () => {
  const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent, redeliveryDelayMs: 5, partitions: 4 });
  return { bus, dispose: () => bus.close() };
});

describe('memory event bus backlog', () => {
  it('reports the events it holds until every group has committed them (retained), and none after', async () => {
    const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = await bus.subscribe({ group: 'slow', topics: ['api'], handler: () => held });
    const fast = await bus.subscribe({ group: 'fast', topics: ['api'], handler: async () => undefined });
    await bus.publish(Array.from({ length: 5 }, (_, index) => apiRequested('m-backlog', `pay-${index}`)));
    await fast.caughtUp();
    expect(bus.health().retained).toBe(5); // the slow group has not committed them yet
    release();
    await slow.caughtUp();
    expect(bus.health().retained).toBe(0);
    await bus.close();
  });
});

describe('memory event bus bound', () => {
  /** A consumer group whose handler waits until `release()`; it records the payment ids it was handed, in order. */
  async function gatedGroup(bus: ReturnType<typeof createMemoryEventBus>, group: string) {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: string[] = [];
    const subscription = await bus.subscribe({
      group,
      topics: ['api'],
      handler: async (batch) => {
        await gate;
        for (const event of batch) seen.push(String((event.payload as { paymentId: string }).paymentId));
      },
    });
    return { subscription, seen, release: () => release() };
  }

  it('makes a publisher past the bound wait for the slowest group, then takes its events in arrival order', async () => {
    const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent, maxRetainedEvents: 3, publishWaitMs: 60_000 });
    const slow = await gatedGroup(bus, 'slow');
    await bus.publish(['a', 'b', 'c'].map((id) => apiRequested('m-bound', id)));
    expect(bus.health()).toMatchObject({ retained: 3, spoolFull: false });

    const order: string[] = [];
    const d = bus.publish([apiRequested('m-bound', 'd'), apiRequested('m-bound', 'e')]).then(() => order.push('d'));
    // One event would fit no better: it waits behind the earlier publish rather than overtaking it.
    const f = bus.publish([apiRequested('m-bound', 'f')]).then(() => order.push('f'));
    expect(bus.health()).toMatchObject({ retained: 3, spoolFull: true, published: 3 });

    slow.release();
    await Promise.all([d, f]);
    await slow.subscription.caughtUp();
    expect(order).toEqual(['d', 'f']);
    expect(slow.seen).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(bus.health()).toMatchObject({ retained: 0, spoolFull: false, refused: 0, published: 6 });
    await bus.close();
  });

  it('refuses a publish with SY_BUS_UNAVAILABLE when no room is made within publishWaitMs, and counts it; none of its events is delivered', async () => {
    const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent, maxRetainedEvents: 2, publishWaitMs: 20 });
    const stuck = await gatedGroup(bus, 'stuck');
    await bus.publish([apiRequested('m-full', 'a'), apiRequested('m-full', 'b')]);

    const refusal = await bus.publish([apiRequested('m-full', 'c')]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(SwitchyardError);
    expect(refusal).toMatchObject({ code: 'SY_BUS_UNAVAILABLE', isRetryable: true, details: { retained: 2, maxRetainedEvents: 2 } });
    expect(bus.health()).toMatchObject({ retained: 2, spoolFull: false, refused: 1, published: 2 });

    stuck.release();
    await stuck.subscription.caughtUp();
    expect(stuck.seen).toEqual(['a', 'b']);
    // With room again, the next publish goes straight in.
    await bus.publish([apiRequested('m-full', 'd')]);
    await stuck.subscription.caughtUp();
    expect(stuck.seen).toEqual(['a', 'b', 'd']);
    expect(bus.health()).toMatchObject({ retained: 0, refused: 1 });
    await bus.close();
  });

  it('lets a waiting publish that fits in once the larger one ahead of it is refused', async () => {
    const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent, maxRetainedEvents: 4, publishWaitMs: 30 });
    const stuck = await gatedGroup(bus, 'stuck');
    await bus.publish([apiRequested('m-order', 'a'), apiRequested('m-order', 'b')]);
    // Three more would not fit beside the two held; one would, but waits behind them in arrival order.
    const large = bus.publish(['c', 'd', 'e'].map((id) => apiRequested('m-order', id))).then(
      () => 'taken',
      (error: unknown) => (error as SwitchyardError).code,
    );
    const small = bus.publish([apiRequested('m-order', 'f')]).then(
      () => 'taken',
      (error: unknown) => (error as SwitchyardError).code,
    );
    expect(await large).toBe('SY_BUS_UNAVAILABLE');
    expect(await small).toBe('taken');
    expect(bus.health()).toMatchObject({ retained: 3, refused: 3, spoolFull: false });
    stuck.release();
    await stuck.subscription.caughtUp();
    expect(stuck.seen).toEqual(['a', 'b', 'f']);
    await bus.close();
  });

  it('delivers the publishes still waiting for room when it is closed (a graceful stop drains them too)', async () => {
    const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent, maxRetainedEvents: 2, publishWaitMs: 60_000 });
    const slow = await gatedGroup(bus, 'slow');
    await bus.publish([apiRequested('m-close', 'a'), apiRequested('m-close', 'b')]);
    const waiting = bus.publish([apiRequested('m-close', 'c')]);
    expect(bus.health().spoolFull).toBe(true);
    const closed = bus.close();
    slow.release();
    await Promise.all([waiting, closed]);
    expect(slow.seen).toEqual(['a', 'b', 'c']);
    expect(bus.health()).toMatchObject({ retained: 0, refused: 0, published: 3, connected: false });
  });

  it("never makes a handler's own follow-up publishes wait, though the room is its own group's to make", async () => {
    // A wait here could only end at the deadline (the group commits after its handler returns), and
    // would then refuse the follow-ups: the handler would throw and its batch be redelivered.
    const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent, maxRetainedEvents: 2, publishWaitMs: 30_000 });
    const seen: string[] = [];
    const echo = await bus.subscribe({
      group: 'echo',
      topics: ['api'],
      handler: async (batch) => {
        for (const event of batch) {
          const id = String((event.payload as { paymentId: string }).paymentId);
          seen.push(id);
          if (!id.startsWith('follow-')) await bus.publish([apiRequested('m-echo', `follow-${id}`)]);
        }
      },
    });
    await bus.publish([apiRequested('m-echo', 'a'), apiRequested('m-echo', 'b')]);
    await echo.caughtUp();
    await echo.caughtUp();
    expect(seen).toEqual(['a', 'b', 'follow-a', 'follow-b']);
    expect(bus.health()).toMatchObject({ retained: 0, refused: 0, spoolFull: false, published: 4 });
    await bus.close();
  });
});
