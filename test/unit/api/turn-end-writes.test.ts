import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTurnEndQueue, registerTurnEndWrites } from '../../../api/plugins/turn-end-writes.js';

describe('createTurnEndQueue', () => {
  it('asks for one flush per turn and writes what it holds in the order it finished', () => {
    const flushes: (() => void)[] = [];
    const queue = createTurnEndQueue(
      (flush) => flushes.push(flush),
      (error) => expect.unreachable(String(error)),
    );
    const written: string[] = [];
    queue.hold(() => written.push('a'));
    queue.hold(() => written.push('b'));
    expect([flushes.length, written]).toEqual([1, []]);
    flushes[0]?.();
    expect(written).toEqual(['a', 'b']);
    // The next turn asks again.
    queue.hold(() => written.push('c'));
    expect(flushes.length).toBe(2);
    flushes[1]?.();
    expect(written).toEqual(['a', 'b', 'c']);
  });

  it('reports a write that throws and still writes the rest of its turn', () => {
    const flushes: (() => void)[] = [];
    const errors: unknown[] = [];
    const queue = createTurnEndQueue(
      (flush) => flushes.push(flush),
      (error) => errors.push(error),
    );
    const written: string[] = [];
    queue.hold(() => {
      throw new Error('socket gone');
    });
    queue.hold(() => written.push('b'));
    flushes[0]?.();
    expect([written, errors.map((error) => (error as Error).message)]).toEqual([['b'], ['socket gone']]);
  });
});

describe('registerTurnEndWrites', () => {
  /** An app with the plugin, a route that answers at once and records what it saw, and one that answers when released. */
  async function appWithRoutes() {
    const app = Fastify();
    registerTurnEndWrites(app);
    const seen: { endedAfterSend?: boolean; endedAtCheckPhase?: boolean }[] = [];
    app.get('/answer', (_request, reply) => {
      reply.send({ ok: true });
      const saw: (typeof seen)[number] = { endedAfterSend: reply.raw.writableEnded };
      seen.push(saw);
      // Queued after the plugin's flush (which reply.send scheduled when it held the answer).
      setImmediate(() => {
        saw.endedAtCheckPhase = reply.raw.writableEnded;
      });
      return reply;
    });
    let release = (): void => undefined;
    const waiting = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived = (): void => undefined;
    const slowArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    app.get('/slow', async () => {
      arrived();
      await waiting;
      return { slow: true };
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, url, seen, release, slowArrived };
  }

  it('writes an answer at once when no other request is in flight', async () => {
    const { app, url, seen } = await appWithRoutes();
    try {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${url}/answer`);
        expect([response.status, await response.json()]).toEqual([200, { ok: true }]);
      }
      expect(seen).toEqual([
        { endedAfterSend: true, endedAtCheckPhase: true },
        { endedAfterSend: true, endedAtCheckPhase: true },
      ]);
    } finally {
      await app.close();
    }
  });

  it('holds an answer until the check phase while another request is in flight, then writes it whole', async () => {
    const { app, url, seen, release, slowArrived } = await appWithRoutes();
    try {
      const slow = fetch(`${url}/slow`);
      await slowArrived;
      const response = await fetch(`${url}/answer`);
      expect([response.status, await response.json()]).toEqual([200, { ok: true }]);
      expect(seen).toEqual([{ endedAfterSend: false, endedAtCheckPhase: true }]);
      release();
      const slowResponse = await slow;
      expect([slowResponse.status, await slowResponse.json()]).toEqual([200, { slow: true }]);
    } finally {
      await app.close();
    }
  });
});
