import { describe, expect, it } from 'vitest';
import { createMemoryEventBus } from '../../src/adapters/memory/memory-event-bus.js';
import { validateEvent } from '../../src/events/validate-event.js';
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
