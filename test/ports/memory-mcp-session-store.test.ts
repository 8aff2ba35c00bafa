import { describe, expect, it } from 'vitest';
import { createMemoryMcpSessionStore } from '../../src/adapters/memory/memory-mcp-session-store.js';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { createManualClock } from '../../src/time/clock.js';
import { mcpSessionStoreSuite } from './mcp-session-store.suite.js';

// Embedded replicas share one store object, so both views are the same store; expiry reads the store's clock.
mcpSessionStoreSuite('memory', async () => {
  const clock = createManualClock();
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  return { replicas: [state.mcpSessions, state.mcpSessions], elapse: (ms) => clock.advance(ms), dispose: () => state.close() };
});

describe('memory McpSessionStore bound', () => {
  it('drops the oldest session beyond its bound', async () => {
    const store = createMemoryMcpSessionStore({ clock: createManualClock(), maxEntries: 2 });
    const record = { merchantId: 'm', principal: 'key:k', initialize: {}, createdAt: 0 };
    await store.set('a', record, 300);
    await store.set('b', record, 300);
    await store.set('c', record, 300);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toEqual(record);
    expect(await store.get('c')).toEqual(record);
  });
});
