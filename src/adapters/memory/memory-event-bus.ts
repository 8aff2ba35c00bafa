import { AsyncLocalStorage } from 'node:async_hooks';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { partitionKeyOf, topicOf, type EventEnvelope, type Topic } from '../../events/event-envelope.js';
import type { Logger } from '../../logging/logger.js';
import type { BusHealth, EventBus, SubscribeOptions, Subscription } from '../../ports/event-bus.js';
import { captureTraceContext, processInEventTrace } from '../telemetry/event-trace-context.js';

export interface MemoryEventBusOptions {
  readonly logger: Logger;
  /**
   * Partitions per topic: members of one group split them, as Kafka consumers do. Default 1: in one
   * process a group has one member, and fewer slots make bigger batches for the analytics sink.
   */
  readonly partitions?: number;
  /** Delay before a failed batch is handed out again, in ms. */
  readonly redeliveryDelayMs?: number;
  /**
   * Checked on publish. Not again on consume: in one process the consumer receives the very object
   * that was checked, so a second pass would only cost time on the hot path.
   */
  readonly validate?: (event: unknown) => void;
  /**
   * Events the bus may hold (published, not yet committed by every group of their topic) before a
   * publisher waits for room. Default {@link defaultMaxRetainedEvents}.
   */
  readonly maxRetainedEvents?: number;
  /** How long a publisher waits for room before its events are refused (`SY_BUS_UNAVAILABLE`), in ms. Default {@link defaultPublishWaitMs}. */
  readonly publishWaitMs?: number;
}

/**
 * The embedded bus's bound: a few hundred MB of event objects at most (a decision's two events are
 * ~3 KB of heap), far above what a consumer that keeps up ever leaves behind (the benches' bursts
 * left up to ~150,000), so only a consumer that cannot keep up, or is stuck, reaches it.
 */
export const defaultMaxRetainedEvents = 200_000;
/** Long enough for a consumer that is only behind to make room; a stuck one refuses publishers after it. */
export const defaultPublishWaitMs = 5_000;
/** At most one "bus full" warning, and one refusal error, per this long. */
const noticeEveryMs = 10_000;

interface Partition {
  readonly topic: Topic;
  readonly index: number;
  /** `topic#index`: the key of this partition in a group's offsets and sets, made once. */
  readonly slot: string;
  /** Offset of `events[0]`; entries every group has committed are trimmed off the front. */
  base: number;
  events: EventEnvelope[];
}

/** A publish waiting for room: its events are taken (in arrival order) once they fit, or refused at its deadline. */
interface RoomWaiter {
  readonly events: readonly EventEnvelope[];
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  readonly deadline: NodeJS.Timeout;
}

interface Member {
  readonly options: SubscribeOptions;
  closed: boolean;
  inFlight: Promise<void> | undefined;
}

interface Group {
  readonly name: string;
  readonly topics: Set<Topic>;
  readonly members: Member[];
  /** committed offset per `topic#partition` */
  readonly committed: Map<string, number>;
  readonly busy: Set<string>;
  /** Slots whose small batch is waiting out its linger, and slots whose linger has expired. */
  readonly lingering: Set<string>;
  readonly lingered: Set<string>;
  readonly waiters: { target: Map<string, number>; resolve: () => void }[];
}

/**
 * The embedded EventBus: same topics, consumer groups and at-least-once semantics as the Kafka
 * adapter, inside the process. Delivery is asynchronous (never on the publisher's stack), batches
 * are committed only after the handler resolves, and a throwing handler gets the batch again. Each
 * partition has one batch in the handler at a time and partitions are delivered side by side, so
 * `batchesInFlight` is not needed here.
 *
 * Bounded: past `maxRetainedEvents` held, a publisher waits (in arrival order) until the slowest
 * group commits enough to make room, and its events are refused with `SY_BUS_UNAVAILABLE` if none
 * is made within `publishWaitMs`, as the Kafka adapter refuses once its spool is full. Before the
 * bound, a consumer that fell behind (the analytics under a saturating load) grew the backlog
 * without limit until the process ran out of memory. A consumer's own publishes (a handler's
 * follow-up events) never wait: the room they would wait for may be their own group's to make.
 *
 * @remarks Not durable across a crash: events in memory are lost with the process. A graceful
 * close() drains every group first. Use the Kafka adapter where that matters.
 */
export function createMemoryEventBus(options: MemoryEventBusOptions): EventBus {
  const partitionCount = options.partitions ?? 1;
  const redeliveryDelayMs = options.redeliveryDelayMs ?? 50;
  const maxRetained = options.maxRetainedEvents ?? defaultMaxRetainedEvents;
  const publishWaitMs = options.publishWaitMs ?? defaultPublishWaitMs;
  const log = options.logger;
  const logs = new Map<Topic, Partition[]>();
  const groups = new Map<string, Group>();
  let published = 0;
  /** Events held over every partition (published, not yet trimmed). */
  let retained = 0;
  let refused = 0;
  let closing = false;
  /** Publishes waiting for room, in arrival order. An episode of a full bus lasts while there are any. */
  const roomWaiters: RoomWaiter[] = [];
  // The log is told at most every `noticeEveryMs`: under a sustained overload episodes come and go
  // many times a second (each commit of the slowest group lets the waiters in, and the next publish
  // waits again), and a line per episode or per refused publish would flood it.
  let episodes = 0;
  let warnedAt = -Infinity;
  let warnedThisEpisode = false;
  let refusalLoggedAt = -Infinity;
  /** Set while a consumer's handler runs (and in what it awaits), so its own publishes never wait for room. */
  const handling = new AsyncLocalStorage<true>();
  // Partitions published to since the last delivery turn: one setImmediate per event-loop turn
  // delivers them all, however many publishes (a decision makes two) came in that turn.
  const touched = new Set<Partition>();
  let deliveryScheduled = false;
  const deliverTouched = (): void => {
    deliveryScheduled = false;
    const parts = [...touched];
    touched.clear();
    for (const part of parts) pumpAll(part.topic, part.index);
  };

  function partitionsOf(topic: Topic): Partition[] {
    let parts = logs.get(topic);
    if (parts === undefined) {
      const named = topic;
      parts = Array.from({ length: partitionCount }, (_, index): Partition => ({ topic: named, index, slot: `${named}#${index}`, base: 0, events: [] }));
      logs.set(topic, parts);
    }
    return parts;
  }

  function partitionIndex(key: string): number {
    let hash = 0;
    for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
    return Math.abs(hash) % partitionCount;
  }

  function ownerOf(group: Group, slot: number): Member | undefined {
    let live = 0;
    for (const member of group.members) if (!member.closed) live++;
    if (live === 0) return undefined;
    let wanted = slot % live;
    for (const member of group.members) if (!member.closed && wanted-- === 0) return member;
    return undefined;
  }

  function endOffset(part: Partition): number {
    return part.base + part.events.length;
  }

  /** Drops events every group subscribed to the topic has committed. */
  function trim(topic: Topic, index: number): void {
    const part = partitionsOf(topic)[index]!;
    let min = Infinity;
    for (const group of groups.values()) {
      if (!group.topics.has(topic)) continue;
      min = Math.min(min, group.committed.get(`${topic}#${index}`) ?? part.base);
    }
    if (min === Infinity || min <= part.base) return;
    part.events.splice(0, min - part.base);
    retained -= min - part.base;
    part.base = min;
    if (roomWaiters.length > 0) grantRoom();
  }

  /** Takes the events in: after the room check, so nothing here can refuse them. */
  function accept(events: readonly EventEnvelope[]): void {
    for (const event of events) {
      const part = partitionsOf(topicOf[event.type])[partitionCount === 1 ? 0 : partitionIndex(partitionKeyOf(event))]!;
      part.events.push(event);
      touched.add(part);
    }
    published += events.length;
    retained += events.length;
    if (touched.size > 0 && !deliveryScheduled) {
      deliveryScheduled = true;
      setImmediate(deliverTouched);
    }
  }

  /** Whether `count` more events fit. An empty bus takes any publish, however large, so none is refused forever. */
  const fits = (count: number): boolean => retained === 0 || retained + count <= maxRetained;

  /** Takes in the waiting publishes that fit now, in arrival order (a later one never overtakes an earlier one). */
  function grantRoom(): void {
    while (roomWaiters.length > 0 && fits(roomWaiters[0]!.events.length)) {
      const waiter = roomWaiters.shift()!;
      clearTimeout(waiter.deadline);
      accept(waiter.events);
      waiter.resolve();
    }
    endEpisodeIfClear();
  }

  function endEpisodeIfClear(): void {
    if (roomWaiters.length > 0) return;
    if (warnedThisEpisode) log.info({ retained, maxRetainedEvents: maxRetained, refused }, 'event bus has room again; publishers no longer wait');
    warnedThisEpisode = false;
  }

  /** Waits until the events fit (then takes them in), or refuses them after `publishWaitMs`. */
  function waitForRoom(events: readonly EventEnvelope[]): Promise<void> {
    if (roomWaiters.length === 0) {
      episodes += 1;
      const now = Date.now();
      if (now - warnedAt >= noticeEveryMs) {
        log.warn(
          { retained, maxRetainedEvents: maxRetained, behind: groupsBehind(), episodes },
          'event bus full: publishers wait for the slowest consumer group (episodes: times it filled since the last such line)',
        );
        warnedAt = now;
        warnedThisEpisode = true;
        episodes = 0;
      }
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: RoomWaiter = {
        events,
        resolve,
        reject,
        deadline: setTimeout(() => {
          roomWaiters.splice(roomWaiters.indexOf(waiter), 1);
          refuse(waiter);
          // The waiters behind it may fit where it did not.
          grantRoom();
        }, publishWaitMs),
      };
      roomWaiters.push(waiter);
    });
  }

  function refuse(waiter: RoomWaiter): void {
    clearTimeout(waiter.deadline);
    refused += waiter.events.length;
    const now = Date.now();
    if (now - refusalLoggedAt >= noticeEveryMs) {
      refusalLoggedAt = now;
      log.error(
        { retained, maxRetainedEvents: maxRetained, refused, behind: groupsBehind() },
        'event bus full: events refused (refused: the total so far, also in /metrics)',
      );
    }
    waiter.reject(
      new SwitchyardError('SY_BUS_UNAVAILABLE', {
        message: closing ? 'event bus is closed' : `event bus full: ${retained} events held for consumers that have not caught up`,
        isRetryable: true,
        details: { retained, maxRetainedEvents: maxRetained },
      }),
    );
  }

  /** Groups with events not yet committed, and how many: what an operator reads from the "bus full" log. */
  function groupsBehind(): Record<string, number> {
    const behind: Record<string, number> = {};
    for (const group of groups.values()) {
      let lag = 0;
      for (const topic of group.topics) {
        for (const part of partitionsOf(topic)) lag += endOffset(part) - (group.committed.get(part.slot) ?? part.base);
      }
      if (lag > 0) behind[group.name] = lag;
    }
    return behind;
  }

  function settleWaiters(group: Group): void {
    for (let i = group.waiters.length - 1; i >= 0; i--) {
      const waiter = group.waiters[i]!;
      let done = true;
      for (const [slot, target] of waiter.target) {
        if ((group.committed.get(slot) ?? 0) < target) done = false;
      }
      if (done) {
        group.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  function pump(group: Group, topic: Topic, index: number): void {
    const part = partitionsOf(topic)[index]!;
    const slot = part.slot;
    if (group.busy.has(slot)) return;
    const committed = group.committed.get(slot) ?? part.base;
    if (committed >= endOffset(part)) return;
    const member = ownerOf(group, index);
    if (member === undefined) return;
    const max = member.options.maxBatchSize ?? 500;
    const lingerMs = member.options.lingerMs ?? 0;
    if (lingerMs > 0 && endOffset(part) - committed < max && !group.lingered.has(slot)) {
      if (!group.lingering.has(slot)) {
        group.lingering.add(slot);
        setTimeout(() => {
          group.lingering.delete(slot);
          group.lingered.add(slot);
          pump(group, topic, index);
        }, lingerMs).unref();
      }
      return;
    }
    group.lingered.delete(slot);
    const batch = part.events.slice(committed - part.base, committed - part.base + max);
    group.busy.add(slot);
    const run = (async () => {
      try {
        await handling.run(true, () => processInEventTrace(batch, { system: 'in-process', group: group.name }, () => member.options.handler(batch)));
        group.committed.set(slot, committed + batch.length);
        group.busy.delete(slot);
        trim(topic, index);
        settleWaiters(group);
        setImmediate(() => pump(group, topic, index));
      } catch (error) {
        log.error({ err: error, group: group.name, topic, partition: index, size: batch.length }, 'event handler failed; batch will be redelivered');
        setTimeout(() => {
          group.busy.delete(slot);
          pump(group, topic, index);
        }, redeliveryDelayMs).unref();
      }
    })();
    member.inFlight = run;
  }

  function pumpAll(topic: Topic, index: number): void {
    for (const group of groups.values()) if (group.topics.has(topic)) pump(group, topic, index);
  }

  return {
    async publish(events) {
      if (closing) throw new Error('event bus is closed');
      // Every event checked before any is taken in: a publish is kept whole or refused whole.
      if (options.validate !== undefined) for (const event of events) options.validate(event);
      // The publisher's trace context travels with the events to every consumer group (as Kafka's record headers do).
      captureTraceContext(events);
      // Behind earlier waiters, or past the bound: wait for room (a handler's own follow-ups never do).
      if ((roomWaiters.length > 0 || !fits(events.length)) && handling.getStore() === undefined) return waitForRoom(events);
      accept(events);
    },

    async subscribe(subscribeOptions): Promise<Subscription> {
      let group = groups.get(subscribeOptions.group);
      if (group === undefined) {
        group = {
          name: subscribeOptions.group,
          topics: new Set(),
          members: [],
          committed: new Map(),
          busy: new Set(),
          lingering: new Set(),
          lingered: new Set(),
          waiters: [],
        };
        groups.set(group.name, group);
      }
      const owned = group;
      // A new group starts at the earliest retained event of each partition, like Kafka's `earliest`.
      for (const topic of subscribeOptions.topics) {
        owned.topics.add(topic);
        partitionsOf(topic).forEach((part, index) => {
          const slot = `${topic}#${index}`;
          if (!owned.committed.has(slot)) owned.committed.set(slot, part.base);
        });
      }
      const member: Member = { options: subscribeOptions, closed: false, inFlight: undefined };
      owned.members.push(member);
      for (const topic of subscribeOptions.topics) for (let i = 0; i < partitionCount; i++) pump(owned, topic, i);
      return {
        caughtUp() {
          const target = new Map<string, number>();
          for (const topic of subscribeOptions.topics) {
            for (const [index, part] of partitionsOf(topic).entries()) target.set(`${topic}#${index}`, endOffset(part));
          }
          return new Promise<void>((resolve) => {
            owned.waiters.push({ target, resolve });
            settleWaiters(owned);
          });
        },
        async close() {
          member.closed = true;
          await member.inFlight?.catch(() => undefined);
          // Partitions this member owned move to the remaining members.
          for (const topic of subscribeOptions.topics) for (let i = 0; i < partitionCount; i++) pump(owned, topic, i);
        },
      };
    },

    health(): BusHealth {
      return { connected: !closing, spooled: 0, spoolFull: roomWaiters.length > 0, refused, published, retained };
    },

    async close() {
      // Drain: wait until every live group has handled what was published, then refuse new events.
      // Handlers may publish follow-ups (score snapshots) while draining, so repeat until quiet.
      let seen = -1;
      while (seen !== published) {
        seen = published;
        const drains: Promise<void>[] = [];
        for (const group of groups.values()) {
          if (group.members.every((member) => member.closed)) continue;
          const target = new Map<string, number>();
          for (const topic of group.topics) for (const [index, part] of partitionsOf(topic).entries()) target.set(`${topic}#${index}`, endOffset(part));
          drains.push(
            new Promise<void>((resolve) => {
              group.waiters.push({ target, resolve });
              settleWaiters(group);
            }),
          );
        }
        await Promise.all(drains);
      }
      closing = true;
      // Publishes still waiting for room cannot be delivered any more.
      for (const waiter of roomWaiters.splice(0)) refuse(waiter);
    },
  };
}
