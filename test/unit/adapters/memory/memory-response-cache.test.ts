import { describe, expect, it } from 'vitest';
import { createMemoryResponseCache } from '../../../../src/adapters/memory/memory-response-cache.js';
import type { CachedCompletion } from '../../../../src/ports/state/response-cache.js';
import { createManualClock } from '../../../../src/time/clock.js';

const answerOf = (content: string): CachedCompletion => ({
  provider: 'openai',
  model: 'gpt-4o-mini',
  content,
  toolCalls: [],
  finishReason: 'stop',
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
});
const key = (requestHash: string) => ({ merchantId: 'm1', requestHash });
/** Bytes one stored answer takes (its JSON). */
const sizeOf = (content: string) => Buffer.byteLength(JSON.stringify(answerOf(content)));

describe('memory response cache bounds', () => {
  it('evicts the least recently used entry beyond maxEntries (a read counts as a use)', async () => {
    const cache = createMemoryResponseCache({ maxEntries: 2, maxBytes: 1_000_000, clock: createManualClock() });
    await cache.set(key('a'), answerOf('a'), 60);
    await cache.set(key('b'), answerOf('b'), 60);
    expect(await cache.get(key('a'))).toBeDefined();
    await cache.set(key('c'), answerOf('c'), 60);
    expect(await cache.get(key('b'))).toBeUndefined();
    expect((await cache.get(key('a')))?.content).toBe('a');
    expect((await cache.get(key('c')))?.content).toBe('c');
  });

  it('evicts the oldest entries beyond maxBytes, and keeps no answer larger than the bound', async () => {
    const maxBytes = sizeOf('x'.repeat(100)) * 2;
    const cache = createMemoryResponseCache({ maxEntries: 100, maxBytes, clock: createManualClock() });
    await cache.set(key('a'), answerOf('a'.repeat(100)), 60);
    await cache.set(key('b'), answerOf('b'.repeat(100)), 60);
    await cache.set(key('c'), answerOf('c'.repeat(100)), 60);
    expect(await cache.get(key('a'))).toBeUndefined();
    expect(await cache.get(key('b'))).toBeDefined();
    await cache.set(key('huge'), answerOf('h'.repeat(maxBytes)), 60);
    expect(await cache.get(key('huge'))).toBeUndefined();
    expect(await cache.get(key('c'))).toBeDefined();
  });

  it('hands each reader its own copy', async () => {
    const cache = createMemoryResponseCache({ maxEntries: 10, maxBytes: 1_000_000, clock: createManualClock() });
    await cache.set(key('a'), answerOf('a'), 60);
    const first = (await cache.get(key('a'))) as { content: string };
    first.content = 'changed';
    expect((await cache.get(key('a')))?.content).toBe('a');
  });
});
