import { onTestFinished } from 'vitest';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { StateStore } from '../../src/ports/state-store.js';
import type { Clock } from '../../src/time/clock.js';

/**
 * The embedded StateStore (in memory, nothing journaled) for unit tests of the domain: the real adapter,
 * not a hand-made double, so the tests see its TTLs and idempotency. TTLs run on the given clock.
 * Call it inside a test: the store is closed (its sweep timer stopped) when that test ends.
 */
export function memoryStateStore(clock: Clock): StateStore {
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  onTestFinished(() => state.close());
  return state;
}
