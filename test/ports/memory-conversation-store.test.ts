import { expect, it } from 'vitest';
import { createMemoryConversationStore } from '../../src/adapters/memory/memory-conversation-store.js';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { createManualClock } from '../../src/time/clock.js';
import { conversationStoreSuite } from './conversation-store.suite.js';

// Embedded replicas share one store object, so both views are the same store; expiry reads the store's clock.
conversationStoreSuite('memory', async () => {
  const clock = createManualClock();
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  return { replicas: [state.conversations, state.conversations], now: () => clock.now(), elapse: (ms) => clock.advance(ms), dispose: () => state.close() };
});

it('evicts the least recently used session beyond its session bound (memory only: Redis bounds by TTL and maxmemory)', async () => {
  const store = createMemoryConversationStore({ maxSessions: 2, clock: createManualClock() });
  const bounds = { maxTurns: 10, maxBytes: 1000, ttlS: 60 };
  const key = (sessionId: string) => ({ merchantId: 'm', sessionId });
  await store.append(key('a'), [{ role: 'user', content: 'a' }], bounds);
  await store.append(key('b'), [{ role: 'user', content: 'b' }], bounds);
  await store.read(key('a')); // a is now the most recently used
  await store.append(key('c'), [{ role: 'user', content: 'c' }], bounds);
  expect((await store.read(key('a'))).turns).toHaveLength(1);
  expect((await store.read(key('b'))).turns).toHaveLength(0);
  expect((await store.read(key('c'))).turns).toHaveLength(1);
});
