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
  it('holds an answer sent in a handler until the check phase, then writes it whole', async () => {
    const app = Fastify();
    registerTurnEndWrites(app);
    const seen: { heldAfterSend?: boolean; endedAtCheckPhase?: boolean } = {};
    app.get('/answer', (_request, reply) => {
      reply.send({ ok: true });
      seen.heldAfterSend = !reply.raw.writableEnded;
      // Queued after the plugin's flush (which reply.send scheduled): runs once it has written.
      setImmediate(() => {
        seen.endedAtCheckPhase = reply.raw.writableEnded;
      });
      return reply;
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const [first, second] = await Promise.all([fetch(`${url}/answer`), fetch(`${url}/answer`)]);
      expect([first.status, await first.json(), second.status, await second.json()]).toEqual([200, { ok: true }, 200, { ok: true }]);
      expect(seen).toEqual({ heldAfterSend: true, endedAtCheckPhase: true });
    } finally {
      await app.close();
    }
  });
});
