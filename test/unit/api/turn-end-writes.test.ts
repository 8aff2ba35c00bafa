import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTurnEndQueue, registerTurnEndWrites } from '../../../api/plugins/turn-end-writes.js';

/** A queue whose turns end when the test says so. */
function manualQueue() {
  const turnEnds: (() => void)[] = [];
  const errors: unknown[] = [];
  const clock = { ms: 0 };
  const queue = createTurnEndQueue({
    schedule: (endTurn) => turnEnds.push(endTurn),
    now: () => clock.ms,
    onError: (error) => errors.push(error),
  });
  const endTurn = (): void => {
    const pending = turnEnds.splice(0);
    for (const end of pending) end();
  };
  return { queue, endTurn, turnEnds, errors, clock };
}

describe('createTurnEndQueue', () => {
  it('writes at once while turns answer one request each', () => {
    const { queue, endTurn, turnEnds } = manualQueue();
    const written: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      queue.answer(() => written.push(name));
      expect(written.at(-1)).toBe(name);
      endTurn();
    }
    expect([written, turnEnds.length]).toEqual([['a', 'b', 'c'], 0]);
  });

  it('holds answers once turns answer 1.5 requests on average, writes them in order at the turn’s end, and stops holding as turns quieten', () => {
    const { queue, endTurn, turnEnds } = manualQueue();
    const written: number[] = [];
    // One busy turn of 12 answers: the average (1/8 of each turn's count) reaches 1.5.
    for (let i = 0; i < 12; i++) queue.answer(() => written.push(i));
    expect(written).toHaveLength(12);
    endTurn();
    queue.answer(() => written.push(12));
    queue.answer(() => written.push(13));
    expect([written.length, turnEnds.length]).toEqual([12, 1]);
    endTurn();
    expect(written.slice(12)).toEqual([12, 13]);
    // Single-answer turns bring the average down: 1.5 + (2 − 1.5) / 8 = 1.5625, then 1.49: written at once.
    queue.answer(() => written.push(14));
    expect(written).toHaveLength(14);
    endTurn();
    queue.answer(() => written.push(15));
    expect(written.at(-1)).toBe(15);
  });

  it('writes a held group at once when a later answer comes a millisecond after the group’s first', () => {
    const { queue, endTurn, clock } = manualQueue();
    const written: number[] = [];
    for (let i = 0; i < 12; i++) queue.answer(() => written.push(i));
    endTurn();
    queue.answer(() => written.push(12));
    clock.ms += 0.6;
    queue.answer(() => written.push(13));
    expect(written).toHaveLength(12);
    clock.ms += 0.4;
    queue.answer(() => written.push(14));
    expect(written.slice(12)).toEqual([12, 13, 14]);
    // A new group starts with the next answer, and the turn's end writes it.
    queue.answer(() => written.push(15));
    expect(written).toHaveLength(15);
    endTurn();
    expect(written.slice(12)).toEqual([12, 13, 14, 15]);
  });

  it('reports a held write that throws and still writes the rest of its turn', () => {
    const { queue, endTurn, errors } = manualQueue();
    const written: number[] = [];
    for (let i = 0; i < 12; i++) queue.answer(() => written.push(i));
    endTurn();
    queue.answer(() => {
      throw new Error('socket gone');
    });
    queue.answer(() => written.push(13));
    endTurn();
    expect([written.slice(12), errors.map((error) => (error as Error).message)]).toEqual([[13], ['socket gone']]);
  });
});

describe('registerTurnEndWrites', () => {
  it('writes answers at once under light load, and holds them to the check phase after a busy turn', async () => {
    const app = Fastify();
    registerTurnEndWrites(app);
    const seen: { endedAfterSend: boolean; endedAtCheckPhase?: boolean }[] = [];
    app.get('/answer', (_request, reply) => {
      reply.send({ ok: true });
      const saw: (typeof seen)[number] = { endedAfterSend: reply.raw.writableEnded };
      seen.push(saw);
      // Queued after the plugin's end of turn (which this answer scheduled).
      setImmediate(() => {
        saw.endedAtCheckPhase = reply.raw.writableEnded;
      });
      return reply;
    });
    // Sixteen requests that finish in one turn: they all wait for one promise.
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const busy = 16;
    let waiting = 0;
    let allWaiting = (): void => undefined;
    const allArrived = new Promise<void>((resolve) => {
      allWaiting = resolve;
    });
    app.get('/together', async () => {
      waiting += 1;
      if (waiting === busy) allWaiting();
      await released;
      return { together: true };
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const answer = async () => {
      const response = await fetch(`${url}/answer`);
      return [response.status, await response.json()];
    };
    try {
      expect(await answer()).toEqual([200, { ok: true }]);
      const together = Array.from({ length: busy }, () => fetch(`${url}/together`).then(async (response) => [response.status, await response.json()]));
      await allArrived;
      release();
      expect(await Promise.all(together)).toEqual(Array.from({ length: busy }, () => [200, { together: true }]));
      // After the busy turn answers are held; single-answer turns then bring the average down until they are written at once again.
      do {
        expect(await answer()).toEqual([200, { ok: true }]);
      } while (seen.at(-1)?.endedAfterSend !== true && seen.length < 12);
      const afterBusy = seen.slice(1);
      expect(afterBusy.length).toBeGreaterThan(1);
      expect(afterBusy.slice(0, -1).every((saw) => !saw.endedAfterSend && saw.endedAtCheckPhase === true)).toBe(true);
      expect(afterBusy.at(-1)).toEqual({ endedAfterSend: true, endedAtCheckPhase: true });
    } finally {
      await app.close();
    }
  });
});
