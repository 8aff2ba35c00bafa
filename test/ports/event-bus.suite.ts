import { apiRequested } from '../fixtures/api-requested.js';
import { upiPayment } from '../fixtures/payment-dimensions.js';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEvent, topicOf, type EventEnvelope, type Topic } from '../../src/events/event-envelope.js';
import type { EventBus } from '../../src/ports/event-bus.js';

/** One EventBus under test, on a namespace (topics, groups) of its own. */
export interface EventBusFixture {
  readonly bus: EventBus;
  /** Closes the bus (if the test did not) and removes the namespace. */
  dispose(): Promise<void>;
}

const merchantId = 'm-contract';

function feedbackReceived(paymentId: string): EventEnvelope {
  return createEvent('feedback.received', merchantId, {
    paymentId,
    gateway: 'stripe',
    status: 'CHARGED',
    outcome: 'success',
    enforceDynamicRoutingFailure: false,
    gatewayLatencyMs: null,
    requestId: null,
    source: 'update_gateway_score',
  });
}

function scoreUpdated(paymentId: string): EventEnvelope {
  return createEvent('score.updated', merchantId, {
    paymentId,
    gateway: 'stripe',
    status: 'CHARGED',
    scoringType: 'reward',
    scoreValue: 0.9,
    bucketSize: 10,
    eliminationScore: null,
    payment: upiPayment,
    feedbackEventId: randomUUID(),
  });
}

function llmCall(requestId: string): EventEnvelope {
  return createEvent('llm.call', merchantId, {
    provider: 'openai',
    model: 'gpt-4o-mini',
    operation: 'generate',
    surface: 'http',
    inputTokens: 12,
    outputTokens: 30,
    costUsd: 0.0001,
    latencyMs: 210,
    timeToFirstTokenMs: null,
    outcome: 'success',
    errorClass: null,
    fallbackHops: 0,
    userId: null,
    requestId,
    batchId: null,
    jobId: null,
  });
}

/** `count` events on `topic`, each keyed by its own payment so they spread over partitions. */
function eventsOn(topic: Topic, count: number): EventEnvelope[] {
  const make = { api: (paymentId: string) => apiRequested(merchantId, paymentId), routing: feedbackReceived, scores: scoreUpdated, llm: llmCall }[topic];
  return Array.from({ length: count }, () => make(`pay-${randomUUID()}`));
}

/** Records what a handler saw: every batch, and the ids in arrival order. */
function recorder() {
  const batches: EventEnvelope[][] = [];
  const ids: string[] = [];
  return {
    batches,
    ids,
    handler: async (batch: readonly EventEnvelope[]) => {
      batches.push([...batch]);
      for (const event of batch) ids.push(event.id);
    },
  };
}

/** A promise and the function that resolves it: how a test holds a handler and lets it go. */
function signal(): { readonly done: Promise<void>; readonly fire: () => void } {
  let fire!: () => void;
  const done = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { done, fire };
}

export interface EventBusSuiteOptions {
  /** The adapter takes `batchesInFlight` (more than one slice in the handler at once). */
  readonly batchesInFlight?: boolean;
  /** The adapter may hand an event over twice (the port's at-least-once); the memory bus never does. */
  readonly mayDuplicate?: boolean;
}

function idsOf(events: readonly EventEnvelope[]): string[] {
  return events.map((event) => event.id).sort();
}

/**
 * The EventBus contract, run against every adapter (memory and Kafka). It relies only on the port
 * in src/ports/event-bus.ts: subscribe before or after publishing, await caughtUp() or close(),
 * never a timer.
 */
export function eventBusSuite(adapterName: string, open: () => Promise<EventBusFixture>, options: EventBusSuiteOptions = {}): void {
  /**
   * The ids a handler was handed, in arrival order. Where the adapter may duplicate, each event once at
   * its first arrival: the port promises at least once, and a Kafka member whose stream fails or whose
   * group rebalances while the broker is busy (a full CI run) is handed a slice again before its
   * commit. Otherwise every arrival, so that a duplicate fails the test.
   */
  const handedOver = (ids: readonly string[]): string[] => (options.mayDuplicate === true ? [...new Set(ids)] : [...ids]);

  describe(`EventBus contract (${adapterName})`, () => {
    let fixture: EventBusFixture;
    let bus: EventBus;

    beforeEach(async () => {
      fixture = await open();
      bus = fixture.bus;
    });

    afterEach(async () => {
      await fixture.dispose();
    });

    it('delivers published events, unchanged, to a subscribed group', async () => {
      const seen = recorder();
      const subscription = await bus.subscribe({ group: 'sr-windows', topics: ['routing', 'api'], handler: seen.handler });
      const published = [...eventsOn('routing', 10), ...eventsOn('api', 10)];
      await bus.publish(published);
      await subscription.caughtUp();
      expect(handedOver(seen.ids).sort()).toEqual(idsOf(published));
      const byId = new Map(seen.batches.flat().map((event) => [event.id, event]));
      for (const event of published) expect(byId.get(event.id)).toEqual(event);
    });

    it('delivers events published before the group subscribed', async () => {
      const published = eventsOn('api', 5);
      await bus.publish(published);
      const seen = recorder();
      const subscription = await bus.subscribe({ group: 'late-joiner', topics: ['api'], handler: seen.handler });
      await subscription.caughtUp();
      expect(handedOver(seen.ids).sort()).toEqual(idsOf(published));
    });

    it('delivers only the topics a group subscribed to', async () => {
      const seen = recorder();
      const subscription = await bus.subscribe({ group: 'analytics', topics: ['scores'], handler: seen.handler });
      const scores = eventsOn('scores', 5);
      await bus.publish([...eventsOn('routing', 5), ...scores, ...eventsOn('api', 5)]);
      await subscription.caughtUp();
      expect(handedOver(seen.ids).sort()).toEqual(idsOf(scores));
      for (const event of seen.batches.flat()) expect(topicOf[event.type]).toBe('scores');
    });

    it('gives every event to each of two groups', async () => {
      const first = recorder();
      const second = recorder();
      const a = await bus.subscribe({ group: 'group-a', topics: ['routing'], handler: first.handler });
      const b = await bus.subscribe({ group: 'group-b', topics: ['routing'], handler: second.handler });
      const published = eventsOn('routing', 40);
      await bus.publish(published);
      await Promise.all([a.caughtUp(), b.caughtUp()]);
      expect(handedOver(first.ids).sort()).toEqual(idsOf(published));
      expect(handedOver(second.ids).sort()).toEqual(idsOf(published));
    });

    it('splits events between two members of one group', async () => {
      const first = recorder();
      const second = recorder();
      const a = await bus.subscribe({ group: 'shared', topics: ['routing'], handler: first.handler });
      const b = await bus.subscribe({ group: 'shared', topics: ['routing'], handler: second.handler });
      const published = eventsOn('routing', 200);
      await bus.publish(published);
      await Promise.all([a.caughtUp(), b.caughtUp()]);
      expect(first.ids.length).toBeGreaterThan(0);
      expect(second.ids.length).toBeGreaterThan(0);
      // A partition that moves between the members with a slice uncommitted is read again by its new
      // owner: only an adapter that never duplicates can promise the two saw disjoint events.
      if (options.mayDuplicate !== true) expect(first.ids.filter((id) => second.ids.includes(id))).toEqual([]);
      expect(handedOver([...first.ids, ...second.ids]).sort()).toEqual(idsOf(published));
    });

    it('hands the partitions of a closed member to the remaining one', async () => {
      const first = recorder();
      const second = recorder();
      const a = await bus.subscribe({ group: 'shrinking', topics: ['api'], handler: first.handler });
      const b = await bus.subscribe({ group: 'shrinking', topics: ['api'], handler: second.handler });
      await b.close();
      const published = eventsOn('api', 50);
      await bus.publish(published);
      await a.caughtUp();
      expect(handedOver(first.ids).sort()).toEqual(idsOf(published));
      expect(second.ids).toEqual([]);
    });

    it('redelivers a batch when the handler throws', async () => {
      const attempts = new Map<string, number>();
      const handled = new Set<string>();
      let failedOnce = false;
      const subscription = await bus.subscribe({
        group: 'flaky',
        topics: ['routing'],
        handler: async (batch) => {
          for (const event of batch) attempts.set(event.id, (attempts.get(event.id) ?? 0) + 1);
          if (!failedOnce) {
            failedOnce = true;
            throw new Error('transient handler failure');
          }
          for (const event of batch) handled.add(event.id);
        },
      });
      const [event] = eventsOn('routing', 1);
      await bus.publish([event!]);
      await subscription.caughtUp();
      expect(failedOnce).toBe(true);
      // Once failed, once handled; an adapter that may duplicate can hand it over once more besides.
      if (options.mayDuplicate === true) expect(attempts.get(event!.id)).toBeGreaterThanOrEqual(2);
      else expect(attempts.get(event!.id)).toBe(2);
      expect([...handled]).toEqual([event!.id]);
    });

    it('resolves caughtUp only after the handler has finished', async () => {
      const entered = signal();
      const release = signal();
      let finished = false;
      const subscription = await bus.subscribe({
        group: 'slow',
        topics: ['api'],
        handler: async () => {
          entered.fire();
          await release.done;
          finished = true;
        },
      });
      await bus.publish(eventsOn('api', 1));
      let caughtUp = false;
      const waiting = subscription.caughtUp().then(() => {
        caughtUp = true;
      });
      await entered.done;
      expect(caughtUp).toBe(false);
      release.fire();
      await waiting;
      expect(finished).toBe(true);
    });

    it('keeps the order of events that share a partition key', async () => {
      const seen = recorder();
      const subscription = await bus.subscribe({ group: 'ordered', topics: ['routing'], maxBatchSize: 7, handler: seen.handler });
      const paymentId = `pay-${randomUUID()}`;
      const published = Array.from({ length: 30 }, () => feedbackReceived(paymentId));
      for (const event of published) await bus.publish([event]);
      await subscription.caughtUp();
      expect(handedOver(seen.ids)).toEqual(published.map((event) => event.id));
      for (const batch of seen.batches) expect(batch.length).toBeLessThanOrEqual(7);
    });

    it('handles everything published before close resolves', async () => {
      const seen = recorder();
      await bus.subscribe({ group: 'draining', topics: ['api'], handler: seen.handler });
      const published = eventsOn('api', 25);
      await bus.publish(published);
      await bus.close();
      expect(handedOver(seen.ids).sort()).toEqual(idsOf(published));
    });

    it('refuses events after close', async () => {
      await bus.close();
      await expect(bus.publish(eventsOn('api', 1))).rejects.toThrow();
    });

    // Only for an adapter that takes `batchesInFlight` (Kafka): the port lets an adapter hand over fewer,
    // and the memory bus has one batch per partition in the handler, so there the case does not exist.
    if (options.batchesInFlight === true) {
      it('hands over a second batch while one is in the handler, and commits neither before the first', async () => {
        const published = eventsOn('api', 30);
        const calls: string[][] = [];
        const secondHandled = signal();
        const failFirst = signal();
        const pipelined = await bus.subscribe({
          group: 'pipelined',
          topics: ['api'],
          maxBatchSize: 10,
          batchesInFlight: 2,
          handler: async (batch) => {
            const call = calls.push(batch.map((event) => event.id));
            if (call === 1) {
              await failFirst.done;
              throw new Error('the first batch fails after the second was handled');
            }
            if (call === 2) secondHandled.fire();
          },
        });
        await bus.publish(published);
        // With one batch at a time this never resolves: the first is still in the handler.
        await secondHandled.done;
        // Closing cuts the first batch's redelivery short: it stays uncommitted, and so must the second.
        const closed = pipelined.close();
        failFirst.fire();
        await closed;
        expect(calls).toHaveLength(2);

        const again = recorder();
        const successor = await bus.subscribe({ group: 'pipelined', topics: ['api'], handler: again.handler });
        await successor.caughtUp();
        expect(new Set(again.ids)).toEqual(new Set([...calls[0]!, ...calls[1]!, ...published.map((event) => event.id)]));
      });
    }

    it('reports a connected bus with nothing spooled once events are delivered', async () => {
      const seen = recorder();
      const subscription = await bus.subscribe({ group: 'health', topics: ['scores'], handler: seen.handler });
      await bus.publish(eventsOn('scores', 3));
      await subscription.caughtUp();
      expect(bus.health()).toMatchObject({ connected: true, spooled: 0, spoolFull: false });
      expect(bus.health().published).toBeGreaterThanOrEqual(3);
    });
  });
}
