import { createMemoryEventBus } from '../../src/adapters/memory/memory-event-bus.js';
import { validateEvent } from '../../src/events/validate-event.js';
import { silentLogger } from '../../src/logging/logger.js';
import { eventBusSuite } from './event-bus.suite.js';

eventBusSuite('memory', async () => {
  const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent, redeliveryDelayMs: 5, partitions: 4 });
  return { bus, dispose: () => bus.close() };
});
