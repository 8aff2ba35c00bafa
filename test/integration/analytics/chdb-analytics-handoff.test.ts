import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChdbAnalytics } from '../../../src/adapters/chdb/chdb-analytics-store.js';
import { ChdbExecutor, type ChdbExecutorOptions } from '../../../src/adapters/chdb/chdb-executor.js';
import { analyticsThreadNice } from '../../../src/adapters/chdb/thread-priority.js';
import { createClickHouseAnalyticsStore } from '../../../src/adapters/clickhouse/clickhouse-analytics-store.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import { parseAnalyticsQuery } from '../../../src/analytics/parse-analytics-query.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import { createEvent, type EventEnvelope } from '../../../src/events/event-envelope.js';
import { niceOf, ownThreadNice } from '../../helpers/thread-nice.js';
import type { Logger } from '../../../src/logging/logger.js';

// chDB binds one data folder per process: each test opens its own and closes it before the next.

const database = 'switchyard_analytics';
const base = Date.UTC(2026, 10, 20, 12, 0, 0);

/** One request's events as /decide-gateway publishes them: its decision and its api.requested row. */
function requestEvents(index: number): EventEnvelope[] {
  return [
    createEvent(
      'decision.created',
      'm_handoff',
      {
        paymentId: `pay_${index}`,
        requestId: `req_${index}`,
        gateway: 'stripe',
        routingApproach: 'SR_SELECTION_V3_ROUTING',
        gatewayPriorityMap: { stripe: 1, adyen: 0.9 },
        rankingAlgorithm: 'SR_BASED_ROUTING',
        eliminationEnabled: true,
        latencyMs: 2,
        payment: {
          orderType: 'ORDER_PAYMENT',
          paymentMethodType: 'CARD',
          paymentMethod: 'CREDIT',
          cardType: 'CREDIT',
          cardNetwork: 'VISA',
          cardIsIn: '411111',
          currency: 'USD',
          country: 'US',
          authType: 'THREE_DS',
          amount: 100,
        },
        windowDimension: 'm:m_handoff|CARD|CREDIT|VISA',
        eliminationDimension: 'm:m_handoff|CARD|CREDIT',
      },
      base + index,
    ),
    createEvent(
      'api.requested',
      'm_handoff',
      {
        requestId: `req_${index}`,
        flowType: 'decide_gateway',
        apiFlow: 'dynamic_routing',
        route: '/decide-gateway',
        method: 'POST',
        statusCode: 200,
        latencyMs: 2,
        paymentId: `pay_${index}`,
        errorCode: null,
        errorMessage: null,
        userAgent: 'test',
      },
      base + index,
    ),
  ];
}

/** The last hour of m_handoff's decisions, as /analytics/decisions would read them. */
function decisionsQuery() {
  const parsed = parseAnalyticsQuery({ range: '1h' }, { merchantId: 'm_handoff', nowMs: base + 60_000, endpoint: 'decisions' });
  if (!parsed.ok) throw new Error(`fixture query rejected: ${JSON.stringify(parsed.issues)}`);
  return parsed.query;
}

/** Rows per table that `count` requests make (a decision row, and an api row plus its route-hit row per request). */
function rowsOf(count: number) {
  const rows = mapEventsToAnalyticsRows(requests(0, count));
  return { api: rows.api.length, domain: rows.domain.length };
}

const requests = (from: number, count: number) => Array.from({ length: count }, (_, index) => requestEvents(from + index)).flat();

/** Keeps what was logged at warn and error, to check the thread's reports reach the log. */
function recordingLogger() {
  const lines: { level: 'warn' | 'error'; message: string | undefined }[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (_object, message) => void lines.push({ level: 'warn', message }),
    error: (_object, message) => void lines.push({ level: 'error', message }),
    child: () => logger,
  };
  return { logger, lines };
}

describe('handing events to the chDB thread', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  async function open(options: Omit<ChdbExecutorOptions, 'path'> = {}, dir?: string) {
    const folder = dir ?? (await mkdtemp(join(tmpdir(), 'switchyard-chdb-')));
    const executor = new ChdbExecutor({ path: folder, ...options });
    const store = createClickHouseAnalyticsStore(executor, { database });
    cleanup = async () => {
      await store.close();
      await rm(folder, { recursive: true, force: true });
    };
    await store.migrate();
    return { dir: folder, executor, store };
  }

  /** Rows per table, read with FINAL (each event once, however often it was inserted). */
  async function counts(executor: ChdbExecutor) {
    const [row] = await executor.query<{ api: number; domain: number }>(
      `SELECT (SELECT count() FROM ${database}.analytics_api_events FINAL) AS api, (SELECT count() FROM ${database}.analytics_domain_events FINAL) AS domain`,
    );
    return row;
  }

  it('maps and inserts handed-off events in the thread; flush returns once all of them are readable', async () => {
    const { executor, store } = await open({ lingerMs: 60_000 });
    for (let batch = 0; batch < 5; batch++) await executor.handOff(database, requests(batch * 100, 100));
    // A linger of a minute: nothing is inserted until asked.
    expect(await counts(executor)).toEqual(rowsOf(0));
    await executor.flushHandoffs();
    expect(await counts(executor)).toEqual(rowsOf(500));
    const report = await store.decisions(decisionsQuery());
    expect(report.approaches).toEqual([{ rule_name: 'SR_SELECTION_V3_ROUTING', count: 500 }]);
  });

  it("runs the thread and the threads chDB starts from it below the caller's priority, and leaves the caller's alone", async () => {
    const { executor } = await open({ lingerMs: 60_000 });
    await executor.handOff(database, requests(0, 100));
    await executor.flushHandoffs();
    const threads = (await readdir('/proc/self/task')).map((tid) => readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'));
    const lowered = threads.filter((stat) => niceOf(stat) === analyticsThreadNice);
    // The chDB thread itself and the insert's and merges' pools it started.
    expect(lowered.length).toBeGreaterThanOrEqual(3);
    expect(ownThreadNice()).toBe(0);
  });

  it('inserts while a long query runs: a flush sent after the query is answered before it', async () => {
    const { executor } = await open({ lingerMs: 60_000 });
    const answered: string[] = [];
    // sleep(3) holds the query for three seconds (chDB's cap per call). On one session the handoff
    // and the flush behind it waited for it; the reader's session leaves the inserts free.
    const slow = executor.query('SELECT sleep(3) AS slept').then(() => answered.push('query'));
    await executor.handOff(database, requests(0, 50));
    await executor.flushHandoffs();
    answered.push('flush');
    await slow;
    expect(answered).toEqual(['flush', 'query']);
    expect(await counts(executor)).toEqual(rowsOf(50));
  });

  it('inserts at once when the held events reach insertAfterEvents', async () => {
    const { executor } = await open({ lingerMs: 60_000, insertAfterEvents: 100 });
    await executor.handOff(database, requests(0, 60)); // 120 events ≥ 100: inserted without a flush
    // The thread answers the query after handling the handoff before it (arrival order).
    expect(await counts(executor)).toEqual(rowsOf(60));
  });

  it('keeps events held while their insert fails, retries it, and holds accept back past maxHeldEvents', async () => {
    const { logger, lines } = recordingLogger();
    const { executor } = await open({ maxHeldEvents: 10, lingerMs: 10, logger });
    await executor.command(`RENAME TABLE ${database}.analytics_domain_events TO ${database}.domain_aside`);
    await executor.handOff(database, requests(0, 4)); // 8 events held: under the bound, accepted at once
    let accepted = false;
    const second = executor.handOff(database, requests(4, 4)).then(() => {
      accepted = true;
    }); // 16 held: over the bound
    const failure = await executor.flushHandoffs().catch((error: unknown) => error);
    expect(SwitchyardError.isInstance(failure) && failure.code).toBe('SY_ANALYTICS_UNAVAILABLE');
    expect(accepted).toBe(false);
    expect(lines).toContainEqual({ level: 'warn', message: 'analytics insert into chDB failed; the events stay held and are retried' });

    // Until a timed retry has failed too (each query is a round trip through the thread: polling the condition).
    while (lines.filter((l) => l.level === 'warn').length < 2) await executor.query('SELECT 1');
    await executor.command(`RENAME TABLE ${database}.domain_aside TO ${database}.analytics_domain_events`);
    await second; // released by the thread's own retry
    await executor.flushHandoffs();
    expect(await counts(executor)).toEqual(rowsOf(8));
    expect(lines.map((l) => l.message)).not.toContain('chDB thread exited holding analytics events; handing them to a new one');
  });

  it('inserts what it holds when closed, without a flush', async () => {
    const { dir, executor } = await open({ lingerMs: 60_000 });
    await executor.handOff(database, requests(0, 25));
    await executor.close();
    const reopened = new ChdbExecutor({ path: dir });
    try {
      expect(await counts(reopened)).toEqual(rowsOf(25));
    } finally {
      await reopened.close();
    }
  });

  it('passes over a handoff it cannot map, says so, and inserts the ones around it', async () => {
    const { logger, lines } = recordingLogger();
    const { executor } = await open({ lingerMs: 60_000, maxHeldEvents: 10, logger });
    await executor.handOff(database, requests(0, 2));
    const unknownVersion = { ...requestEvents(2)[0]!, version: 9 } as unknown as EventEnvelope;
    await executor.handOff(database, [unknownVersion]);
    await executor.handOff(database, requests(3, 2));
    await executor.flushHandoffs();
    expect(await counts(executor)).toEqual(rowsOf(4));
    expect(lines).toContainEqual({ level: 'error', message: 'analytics events could not be mapped to rows; passed over' });
    // Nothing stays counted as held: a handoff of exactly maxHeldEvents is accepted without waiting.
    let accepted = false;
    const next = executor.handOff(database, requests(5, 5)).then(() => {
      accepted = true;
    });
    await executor.query('SELECT 1');
    expect(accepted).toBe(true);
    await next;
    await executor.flushHandoffs();
    expect(await counts(executor)).toEqual(rowsOf(9));
  });

  it('hands what a dead thread held to a new one', async () => {
    const { logger, lines } = recordingLogger();
    // The thread is ended as a crash would end it; its handle is taken from the messages sent to it.
    const threads = new Set<Worker>();
    const postMessage = Worker.prototype.postMessage;
    const spy = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
      threads.add(this);
      return postMessage.apply(this, args);
    });
    try {
      const { executor } = await open({ lingerMs: 60_000, logger });
      await executor.handOff(database, requests(0, 10));
      const [first] = threads;
      const exited = new Promise((resolve) => first!.once('exit', resolve));
      await first!.terminate();
      await exited;
      await executor.flushHandoffs();
      expect(threads.size).toBe(2);
      expect(await counts(executor)).toEqual(rowsOf(10));
      expect(lines).toContainEqual({ level: 'warn', message: 'chDB thread exited holding analytics events; handing them to a new one' });
    } finally {
      spy.mockRestore();
    }
  });

  it('is what createChdbAnalytics hands the sink: accept and flush over the same thread as the store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-chdb-'));
    const { store, handoff } = createChdbAnalytics({ path: dir, database, lingerMs: 60_000 });
    cleanup = async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    };
    await store.migrate();
    await handoff.accept(requests(0, 3));
    await handoff.flush();
    const report = await store.decisions(decisionsQuery());
    expect(report.approaches).toEqual([{ rule_name: 'SR_SELECTION_V3_ROUTING', count: 3 }]);
  });
});
