import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Admin } from '@platformatic/kafka';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaEventBus, type KafkaEventBus, type KafkaEventBusOptions } from '../../../src/adapters/kafka/kafka-event-bus.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { createLogSink, levels } from './log-sink.js';
import { deleteKafkaNamespace, kafkaBrokers, localService, uniqueNamespace } from './local-services.js';
import { apiRequested } from '../../fixtures/api-requested.js';
import { testKafkaAdmin } from '../../fixtures/kafka-client.js';

function apiEvents(count: number): EventEnvelope[] {
  return Array.from({ length: count }, (_, index) => apiRequested('m-fault', undefined, index));
}

/** Yields to the event loop, so publishing interleaves with the broker shutting down. */
const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('KafkaEventBus across a broker outage', () => {
  let admin: Admin;
  const cleanups: (() => Promise<void>)[] = [];

  async function namespace(): Promise<{ topicPrefix: string; spoolDir: string }> {
    const topicPrefix = `${uniqueNamespace('fault')}.`;
    const spoolDir = await mkdtemp(join(tmpdir(), 'sytest-spool-'));
    cleanups.push(async () => {
      await deleteKafkaNamespace(admin, topicPrefix);
      await rm(spoolDir, { recursive: true, force: true });
    });
    return { topicPrefix, spoolDir };
  }

  function busOptions(topicPrefix: string, spoolDir: string, overrides: Partial<KafkaEventBusOptions> = {}): KafkaEventBusOptions {
    return {
      brokers: kafkaBrokers,
      clientId: topicPrefix,
      topicPrefix,
      layout: { partitions: 3 },
      spoolDir,
      spoolMaxEvents: 10_000,
      lingerMs: 5,
      logger: silentLogger,
      ...overrides,
    };
  }

  beforeAll(async () => {
    await localService('kafka', 'start');
    admin = testKafkaAdmin('sytest-fault-admin');
  });

  afterEach(async () => {
    await localService('kafka', 'start');
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('delivers every event published while the broker stops and starts again', async () => {
    const { topicPrefix, spoolDir } = await namespace();
    const sink = createLogSink();
    const bus: KafkaEventBus = await createKafkaEventBus(busOptions(topicPrefix, spoolDir, { logger: sink.logger }));
    const received = new Map<string, number>();
    const subscription = await bus.subscribe({
      group: 'fault-sink',
      topics: ['api'],
      handler: async (batch) => {
        for (const event of batch) received.set(event.id, (received.get(event.id) ?? 0) + 1);
      },
    });
    const published: EventEnvelope[] = [];
    const publish = async (events: EventEnvelope[]) => {
      await bus.publish(events);
      published.push(...events);
    };

    for (let i = 0; i < 20; i++) await publish(apiEvents(10));
    const stopping = localService('kafka', 'stop');
    for (let i = 0; i < 10; i++) {
      await publish(apiEvents(10));
      await nextTick();
    }
    await stopping;
    for (let i = 0; i < 20; i++) await publish(apiEvents(10));
    expect(published).toHaveLength(500);

    await sink.once('event bus unavailable; spooling events to disk');
    expect(bus.health()).toMatchObject({ connected: false, spoolFull: false });

    await localService('kafka', 'start');
    await subscription.caughtUp();
    await sink.once('event bus recovered; spool replayed');

    expect(new Set(received.keys())).toEqual(new Set(published.map((event) => event.id)));
    expect(bus.health()).toMatchObject({ connected: true, spooled: 0, spoolFull: false, refused: 0 });
    expect(sink.count('event bus unavailable; spooling events to disk')).toBe(1);
    expect(sink.entries.find((entry) => entry.msg === 'event bus unavailable; spooling events to disk')?.level).toBe(levels.error);
    await bus.close();
    expect(await readdir(spoolDir)).toEqual([]);
  });

  it('replays what it spooled before close resolves once the broker is back, so subscribers drain it', async () => {
    const { topicPrefix, spoolDir } = await namespace();
    const sink = createLogSink();
    // The reconnect loop tries once when the send fails, then backs off for longer than the test: only
    // close() can bring it back. The close bounds are generous, never reached when things work.
    const bus = await createKafkaEventBus(
      busOptions(topicPrefix, spoolDir, {
        logger: sink.logger,
        reconnectDelayMs: { first: 600_000, max: 600_000 },
        closeReconnectWaitMs: 120_000,
        closeDrainTimeoutMs: 120_000,
      }),
    );
    const received = new Set<string>();
    await bus.subscribe({
      group: 'close-drain',
      topics: ['api'],
      handler: async (batch) => {
        for (const event of batch) received.add(event.id);
      },
    });

    await localService('kafka', 'stop');
    const published = apiEvents(25);
    await bus.publish(published);
    await sink.once('event bus still unavailable');
    await localService('kafka', 'start');
    expect(bus.health()).toMatchObject({ connected: false, spooled: 25 });
    // close() cuts the backoff short, replays the spool and only then drains the subscription
    // (before, a bus not connected skipped the drain and left the events for the next start).
    await bus.close();

    expect(received).toEqual(new Set(published.map((event) => event.id)));
    expect(sink.count('event bus recovered; spool replayed')).toBe(1);
    expect(bus.health()).toMatchObject({ spooled: 0, refused: 0 });
    expect(await readdir(spoolDir)).toEqual([]);
  });

  it('refuses events once the spool is full and replays the accepted ones on the next start', async () => {
    const { topicPrefix, spoolDir } = await namespace();
    const sink = createLogSink();
    // A short reconnect wait on close: the broker stays down, so close() must give up on it in bounded time.
    const first = await createKafkaEventBus(busOptions(topicPrefix, spoolDir, { spoolMaxEvents: 50, closeReconnectWaitMs: 500, logger: sink.logger }));

    await localService('kafka', 'stop');
    const accepted = apiEvents(1);
    await first.publish(accepted);
    await sink.once('event bus unavailable; spooling events to disk');
    const more = apiEvents(49);
    await first.publish(more);
    accepted.push(...more);

    const refusal = await first.publish(apiEvents(1)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SwitchyardError.isInstance(refusal)).toBe(true);
    expect(refusal).toMatchObject({ code: 'SY_BUS_UNAVAILABLE', isRetryable: true });
    expect(first.health()).toMatchObject({ spoolFull: true, refused: 1, connected: false });
    expect(sink.count('event spool full; refusing events')).toBe(1);
    expect(sink.entries.find((entry) => entry.msg === 'event spool full; refusing events')?.level).toBe(levels.error);

    // The process goes away with the broker still down: accepted events stay on disk.
    await first.close();
    expect(first.health().spooled).toBe(50);
    expect(sink.count('event bus did not reconnect before close; the spool stays on disk')).toBe(1);

    await localService('kafka', 'start');
    const second = await createKafkaEventBus(busOptions(topicPrefix, spoolDir));
    const received = new Set<string>();
    const subscription = await second.subscribe({
      group: 'spool-check',
      topics: ['api'],
      handler: async (batch) => {
        for (const event of batch) received.add(event.id);
      },
    });
    await subscription.caughtUp();
    expect(received).toEqual(new Set(accepted.map((event) => event.id)));
    expect(second.health()).toMatchObject({ connected: true, spooled: 0, spoolFull: false });
    await second.close();
  });
});
