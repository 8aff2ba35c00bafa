import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { createManualClock } from '../../src/time/clock.js';
import { responseStoreSuite } from './response-store.suite.js';

// Embedded replicas share one store object, so both views are the same store; expiry reads the store's clock.
responseStoreSuite('memory', async () => {
  const clock = createManualClock();
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  return { replicas: [state.responses, state.responses], elapse: (ms) => clock.advance(ms), dispose: () => state.close() };
});

it('keeps stored responses across a restart of the embedded store (journaled), and forgets deleted ones', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sy-responses-'));
  const clock = createManualClock();
  const first = createMemoryStateStore({ dataDir, logger: silentLogger, clock });
  const record = {
    id: 'resp_kept',
    merchantId: 'm1',
    createdAt: 1,
    provider: 'openai',
    model: 'gpt-4o-mini',
    request: {},
    context: [],
    input: [],
    output: [],
    finishReason: 'stop' as const,
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  };
  await first.responses.put(record, 3600);
  await first.responses.put({ ...record, id: 'resp_gone' }, 3600);
  await first.responses.delete('m1', 'resp_gone');
  await first.close();
  const second = createMemoryStateStore({ dataDir, logger: silentLogger, clock });
  expect(await second.responses.get('m1', 'resp_kept')).toEqual(record);
  expect(await second.responses.get('m1', 'resp_gone')).toBeUndefined();
  await second.close();
});
