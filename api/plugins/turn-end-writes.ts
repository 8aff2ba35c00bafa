import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Writes one answer to its socket. */
type Write = () => void;

/** Answers of busy turns of the event loop, written together at the end of their turn. */
export interface TurnEndQueue {
  /** Writes the answer now under light load; under load, holds it to the end of this turn. */
  answer(write: Write): void;
}

/**
 * Answers per answering turn, averaged over about the last eight such turns, from which answers are
 * held: one connection at a time gives exactly 1, a loaded service many. Below it answers are
 * written at once: held, a lone answer paid the hop to the check phase alone (decide at one
 * connection: −4 % req/s). The average, not the last turn alone: under load a turn of one answer
 * now and then (a timer's, a late socket's) would otherwise flip the next turn to writing at once,
 * which spreads the client's next requests out and costs the batching it feeds on.
 */
const busyAnswersPerTurn = 1.5;

/**
 * How long the first held answer of a group may wait, in ms: a later answer past it writes the group
 * at once. A turn lasts as long as its handlers: for a handler of ~300 µs (the LLM gateway's) a turn
 * of twenty answers held the first for 6 ms, and the gateway's p99 rose from 35–41 to 45–51 ms. A
 * group of a millisecond's answers still wakes the client once for many.
 */
const maxHoldMs = 1;

/** The end-of-turn scheduler and the clock a queue runs on, and where a failed held write is reported. */
export interface TurnEndQueueDeps {
  /** Runs `endTurn` at the end of this turn of the event loop (Node's `setImmediate`: the check phase). */
  readonly schedule: (endTurn: () => void) => void;
  /** Milliseconds, monotonic (`performance.now`). */
  readonly now: () => number;
  readonly onError: (error: unknown) => void;
}

/**
 * A queue that asks `schedule` for one end-of-turn call per turn that answers anything (the check
 * phase comes after the poll phase has handed out every request the turn read). Under light load
 * (see {@link busyAnswersPerTurn}) answers are written at once; under load they are held, and written
 * in the order they finished at the turn's end or once the group's first has waited
 * {@link maxHoldMs}. A held write that throws is reported to `onError` and the rest of its group is
 * still written.
 */
export function createTurnEndQueue(deps: TurnEndQueueDeps): TurnEndQueue {
  let held: Write[] = [];
  let heldSince = 0;
  let answered = 0;
  let answersPerTurn = 0;
  let scheduled = false;
  const writeHeld = (): void => {
    const writes = held;
    held = [];
    for (const write of writes) {
      try {
        write();
      } catch (error) {
        deps.onError(error);
      }
    }
  };
  const endTurn = (): void => {
    scheduled = false;
    answersPerTurn += (answered - answersPerTurn) / 8;
    answered = 0;
    writeHeld();
  };
  return {
    answer(write) {
      answered += 1;
      if (!scheduled) {
        scheduled = true;
        deps.schedule(endTurn);
      }
      if (held.length > 0) {
        held.push(write);
        if (deps.now() - heldSince >= maxHoldMs) writeHeld();
      } else if (answersPerTurn < busyAnswersPerTurn) {
        // Nothing held either: written now, it overtakes no answer finished before it.
        write();
      } else {
        held.push(write);
        heldSince = deps.now();
      }
    },
  };
}

/**
 * Under load, holds every answer finished in a turn of the event loop and writes them together at
 * the turn's end.
 *
 * Why: a write to a client asleep in `epoll_wait` wakes it, and on a virtual machine that wake is an
 * interrupt to another vCPU, paid inside the writer's `write` (on loopback the client's whole
 * receive path runs there too). Written one at a time, ~100 µs of handler apart, every answer paid
 * it; written back to back, the first wakes the client and the rest find it awake, and the client's
 * next requests arrive together too. On the decide load this took the main thread from ~120 to
 * ~75 µs per decision (bench/README.md). When answers are held, and for how long, is the queue's
 * ({@link busyAnswersPerTurn}, {@link maxHoldMs}): under light load they are written at once. The
 * signal is answers per turn, not requests in flight: a turn's sockets are read one after another,
 * so when its first answer is ready the requests behind it have not been parsed yet (counting those
 * in flight kept the load's answers unbatched: decide ×0.98).
 */
export function registerTurnEndWrites(app: FastifyInstance): void {
  const queue = createTurnEndQueue({
    schedule: (endTurn) => setImmediate(endTurn),
    now: () => performance.now(),
    onError: (error) => app.log.error({ err: error }, 'writing a held answer failed'),
  });
  // Synchronous (done-style): an async hook would cost a promise per request.
  app.addHook('onSend', (_request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    queue.answer(() => done(null, payload));
  });
}
