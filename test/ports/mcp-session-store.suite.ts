import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpSessionRecord, McpSessionStore } from '../../src/ports/state-store.js';

/**
 * Two views of one MCP session store (two replicas), or the same store twice where the adapter has
 * no replicas of its own (embedded). An adapter whose expiry runs on a clock the test moves gives
 * `elapse`; one that expires on its server's time gives `ttlMsOf` instead.
 */
export interface McpSessionFixture {
  readonly replicas: readonly [McpSessionStore, McpSessionStore];
  readonly elapse?: (ms: number) => void;
  readonly ttlMsOf?: (sessionId: string) => Promise<number>;
  dispose(): Promise<void>;
}

const record: McpSessionRecord = {
  merchantId: 'shop:a',
  principal: 'key:k1',
  initialize: { protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'claude-code', version: '2.0.0' } },
  createdAt: 1_760_000_000_000,
};

/** The McpSessionStore contract (src/ports/state/mcp-session-store.ts), run against the memory and Redis adapters. */
export function mcpSessionStoreSuite(name: string, open: () => Promise<McpSessionFixture>): void {
  describe(`McpSessionStore (${name})`, () => {
    let fixture: McpSessionFixture;
    let sessionId: string;
    beforeEach(async () => {
      fixture = await open();
      sessionId = randomUUID();
    });
    afterEach(async () => fixture.dispose());

    it('answers undefined for a session never stored', async () => {
      expect(await fixture.replicas[0].get(sessionId)).toBeUndefined();
    });

    it('serves on one replica the handshake another stored, and forgets it once deleted', async () => {
      const [a, b] = fixture.replicas;
      await a.set(sessionId, record, 3600);
      expect(await b.get(sessionId)).toEqual(record);
      expect(await b.delete(sessionId)).toBe(true);
      expect(await a.get(sessionId)).toBeUndefined();
      expect(await a.delete(sessionId)).toBe(false);
    });

    it('forgets a session at its TTL, and a second set pushes the TTL back', async () => {
      const [a, b] = fixture.replicas;
      await a.set(sessionId, record, 300);
      if (fixture.elapse === undefined) {
        await b.set(sessionId, record, 3600);
        const ttlMs = await fixture.ttlMsOf!(sessionId);
        expect(ttlMs).toBeGreaterThan(3_590_000);
        expect(ttlMs).toBeLessThanOrEqual(3_600_000);
        return;
      }
      fixture.elapse(299_000);
      await b.set(sessionId, record, 300);
      fixture.elapse(299_000);
      expect(await a.get(sessionId)).toEqual(record);
      fixture.elapse(1000);
      expect(await a.get(sessionId)).toBeUndefined();
    });
  });
}
