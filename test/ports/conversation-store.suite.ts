import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationBounds, ConversationKey, ConversationStore } from '../../src/ports/state-store.js';

/**
 * Two views of one conversation store (two replicas of the service), or the same store twice where
 * the adapter has no replicas of its own (embedded). `now` is the time the store stamps messages
 * with. An adapter whose expiry runs on a clock the test moves gives `elapse`; one that expires on
 * its server's time gives `ttlMsOf` instead.
 */
export interface ConversationStoreFixture {
  readonly replicas: readonly [ConversationStore, ConversationStore];
  readonly now: () => number;
  readonly elapse?: (ms: number) => void;
  readonly ttlMsOf?: (key: ConversationKey) => Promise<number>;
  dispose(): Promise<void>;
}

const roomy: ConversationBounds = { maxTurns: 100, maxBytes: 1_000_000, ttlS: 3600 };

/** The ConversationStore contract (src/ports/state/conversation-store.ts), run against the memory and Redis adapters. */
export function conversationStoreSuite(name: string, open: () => Promise<ConversationStoreFixture>): void {
  describe(`ConversationStore (${name})`, () => {
    let fixture: ConversationStoreFixture;
    let merchantId: string;
    const session = (label: string): ConversationKey => ({ merchantId, sessionId: `${label}-${randomUUID()}` });
    beforeEach(async () => {
      fixture = await open();
      merchantId = `m-${randomUUID()}`;
    });
    afterEach(async () => fixture.dispose());

    it('reads an empty conversation for a session never written', async () => {
      expect(await fixture.replicas[0].read(session('none'))).toEqual({ turns: [] });
    });

    it('reads on one replica, in order and whole, what another appended (numbered, stamped with the store clock)', async () => {
      const [a, b] = fixture.replicas;
      const key = session('round-trip');
      const text = 'Grüße, 世界 — "quoted" \\ back\nline / slash';
      await a.append(key, [{ role: 'user', content: text }], roomy);
      await b.append(
        key,
        [
          { role: 'assistant', content: 'Hallo!' },
          { role: 'user', content: '' },
        ],
        roomy,
      );
      const read = await a.read(key);
      expect(read.summary).toBeUndefined();
      expect(read.turns.map(({ seq, role, content }) => ({ seq, role, content }))).toEqual([
        { seq: 1, role: 'user', content: text },
        { seq: 2, role: 'assistant', content: 'Hallo!' },
        { seq: 3, role: 'user', content: '' },
      ]);
      for (const turn of read.turns) expect(turn.at).toBe(fixture.now());
    });

    it('keeps merchants and sessions apart, even for ids that would run together', async () => {
      const [a, b] = fixture.replicas;
      const key = session('shared');
      await a.append(key, [{ role: 'user', content: 'mine' }], roomy);
      expect(await b.read({ merchantId: `${merchantId}-other`, sessionId: key.sessionId })).toEqual({ turns: [] });
      expect(await b.read({ merchantId, sessionId: `${key.sessionId}-other` })).toEqual({ turns: [] });
      await a.append({ merchantId: `${merchantId}:a`, sessionId: 'b:c' }, [{ role: 'user', content: 'x' }], roomy);
      expect(await b.read({ merchantId: `${merchantId}:a:b`, sessionId: 'c' })).toEqual({ turns: [] });
      expect(await b.read({ merchantId: `${merchantId}:a}`, sessionId: 'b:c' })).toEqual({ turns: [] });
    });

    it('trims the oldest messages to the turn bound, never reusing a sequence number', async () => {
      const [a, b] = fixture.replicas;
      const key = session('turn-bound');
      const bounds = { ...roomy, maxTurns: 3 };
      for (let i = 1; i <= 5; i += 1) await a.append(key, [{ role: i % 2 === 1 ? 'user' : 'assistant', content: `m${i}` }], bounds);
      const read = await b.read(key);
      expect(read.turns.map((turn) => [turn.seq, turn.content])).toEqual([
        [3, 'm3'],
        [4, 'm4'],
        [5, 'm5'],
      ]);
    });

    it('trims the oldest messages to the byte bound (UTF-8 bytes of the content)', async () => {
      const [a, b] = fixture.replicas;
      const key = session('byte-bound');
      const bounds = { ...roomy, maxBytes: 10 };
      await a.append(key, [{ role: 'user', content: 'ééé' }], bounds); // 6 bytes
      await a.append(key, [{ role: 'assistant', content: 'abcd' }], bounds); // 10 in all: kept
      expect((await b.read(key)).turns.map((turn) => turn.content)).toEqual(['ééé', 'abcd']);
      await a.append(key, [{ role: 'user', content: 'z' }], bounds); // 11: the oldest goes
      expect((await b.read(key)).turns.map((turn) => turn.content)).toEqual(['abcd', 'z']);
      await a.append(key, [{ role: 'assistant', content: 'x'.repeat(11) }], bounds); // alone over the bound: nothing fits
      expect((await b.read(key)).turns).toEqual([]);
      await a.append(key, [{ role: 'user', content: 'again' }], bounds);
      expect((await b.read(key)).turns.map((turn) => [turn.seq, turn.content])).toEqual([[5, 'again']]);
    });

    it('compacts: the summary replaces the messages through a sequence number; later ones stay', async () => {
      const [a, b] = fixture.replicas;
      const key = session('compact');
      await a.append(
        key,
        [1, 2, 3, 4].map((i) => ({ role: i % 2 === 1 ? ('user' as const) : ('assistant' as const), content: `m${i}` })),
        roomy,
      );
      await b.compact(key, 'first summary', 2, 3600);
      let read = await a.read(key);
      expect(read.summary).toBe('first summary');
      expect(read.turns.map((turn) => turn.seq)).toEqual([3, 4]);
      await a.append(key, [{ role: 'user', content: 'm5' }], roomy);
      await b.compact(key, 'second summary', 4, 3600);
      read = await a.read(key);
      expect(read).toMatchObject({ summary: 'second summary', turns: [{ seq: 5, content: 'm5' }] });
      // A compaction of a session that is gone writes nothing.
      const gone = session('gone');
      await a.compact(gone, 'orphan', 3, 3600);
      expect(await b.read(gone)).toEqual({ turns: [] });
    });

    it('clears a session: gone on every replica, false the second time', async () => {
      const [a, b] = fixture.replicas;
      const key = session('clear');
      await a.append(key, [{ role: 'user', content: 'forget me' }], roomy);
      await a.compact(key, 'summary', 0, 3600);
      expect(await b.clear(key)).toBe(true);
      expect(await a.read(key)).toEqual({ turns: [] });
      expect(await b.clear(key)).toBe(false);
    });

    it('expires a session at its TTL after the last append: on the clock the test moves, or as the server is told to', async () => {
      const [a, b] = fixture.replicas;
      const key = session('ttl');
      await a.append(key, [{ role: 'user', content: 'soon gone' }], { ...roomy, ttlS: 60 });
      if (fixture.elapse === undefined) {
        const ttlMs = await fixture.ttlMsOf!(key);
        expect(ttlMs).toBeGreaterThan(55_000);
        expect(ttlMs).toBeLessThanOrEqual(60_000);
        return;
      }
      fixture.elapse(59_999);
      expect((await b.read(key)).turns).toHaveLength(1);
      await a.append(key, [{ role: 'assistant', content: 'renewed' }], { ...roomy, ttlS: 60 });
      fixture.elapse(59_999);
      expect((await b.read(key)).turns).toHaveLength(2);
      fixture.elapse(1);
      expect(await b.read(key)).toEqual({ turns: [] });
    });
  });
}
