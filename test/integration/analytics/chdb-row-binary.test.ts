import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChdbExecutor } from '../../../src/adapters/chdb/chdb-executor.js';
import { analyticsColumnTypes } from '../../../src/adapters/clickhouse/analytics-column-types.js';
import { analyticsTables } from '../../../src/adapters/clickhouse/analytics-tables.js';
import { createClickHouseAnalyticsStore } from '../../../src/adapters/clickhouse/clickhouse-analytics-store.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import type { GuardAppliedV1, LlmCallV1 } from '../../../src/generated/schema-types.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';
import { cardCredit, eventId, fixtureEvents, guardAppliedEvent, hostilePaymentId, llmCallEvent, oldEvent, t0 } from './analytics-fixture.js';

// The chDB thread writes handed-off events as RowBinary; the store's own insert (and the ClickHouse
// server's) writes TabSeparated. Both must leave the same rows, value for value, in every table.

const textDatabase = 'rows_as_text';
const binaryDatabase = 'rows_as_binary';
/** 300 bytes of two-byte characters: a string length that needs two LEB128 bytes. */
const longUnicode = 'é'.repeat(150);
/** 42 and 43 UTF-16 units: either side of the encoder's one-length-byte shortcut (in three-byte €, 126 and 129 bytes). */
const shortcutEdge = ['x'.repeat(42), 'x'.repeat(43), '€'.repeat(42), '€'.repeat(43)];

const call = (n: number, payload: Partial<LlmCallV1>) => llmCallEvent(3000 + n, t0 + n * 1000, 'm_rows', { requestId: `r${n}`, ...payload });

const guard = (n: number, payload: Partial<GuardAppliedV1>) => guardAppliedEvent(3100 + n, t0 + n * 1000, 'm_rows', { requestId: `g${n}`, ...payload });

const decisionWithPolicy = (n: number, eliminationThreshold: number | null): EventEnvelope<'decision.created'> => ({
  id: eventId(3200 + n),
  type: 'decision.created',
  version: 1,
  occurredAt: t0 + n * 1000,
  merchantId: 'm_rows',
  payload: {
    paymentId: `${hostilePaymentId}_${n}`,
    requestId: `d${n}`,
    gateway: 'adyen',
    routingApproach: 'SR_V3_HEDGING',
    gatewayPriorityMap: { stripe: 0.5, adyen: 1 },
    rankingAlgorithm: 'SR_BASED_ROUTING',
    eliminationEnabled: false,
    latencyMs: 1,
    payment: cardCredit,
    windowDimension: longUnicode,
    eliminationDimension: 'e',
    policy: {
      propensity: 0.2,
      hedged: true,
      candidates: [
        { gateway: 'stripe', score: 0.9, eliminationScore: null },
        { gateway: "razor'pay\t\\", score: 1e-300, eliminationScore: 0.25 },
      ],
      hedgingPercent: 20,
      bucketSize: 20,
      eliminationThreshold,
      eliminationDivisor: 5,
      multiObjective: n % 2 === 0,
    },
  },
});

/** Every analytics table gets rows, with the values each encoder must get right: empty, hostile and long strings, nulls, arrays, large and fractional numbers. */
const events: readonly EventEnvelope[] = [
  ...fixtureEvents,
  oldEvent,
  call(1, {}),
  call(2, {
    model: longUnicode,
    operation: 'stream',
    timeToFirstTokenMs: 40,
    inputTokens: 2 ** 40 + 7,
    costUsd: 123.456789,
    routeGroup: shortcutEdge[1]!,
    routeApproach: 'sr',
    eliminatedCandidates: ['', "it's", 'tab\there', 'new\nline', 'back\\slash', 'nul\0', ...shortcutEdge],
    apiKeyId: 'key_a',
  }),
  call(3, {
    cacheHit: true,
    savedCostUsd: 0.5,
    api: 'messages',
    endUser: shortcutEdge[2]!,
    cacheReadTokens: 4096,
    cacheWriteTokens: 1,
    cacheWrite1hTokens: 2,
    reasoningTokens: 3,
    promptCacheSavedUsd: 0.0001,
  }),
  call(4, {
    outcome: 'error',
    errorClass: shortcutEdge[3]!,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    api: 'chat_completions',
    endUser: hostilePaymentId,
    routeGroup: 'support',
    eliminatedCandidates: [],
  }),
  guard(1, {}),
  guard(2, { guard: 'prompt-injection', action: 'block', score: 0.91, blocked: true, apiKeyId: 'key_b', routeGroup: longUnicode }),
  decisionWithPolicy(1, null),
  decisionWithPolicy(2, 0.05),
];

describe('analytics rows handed to the chDB thread (RowBinary) and inserted as TabSeparated', () => {
  let folder: string;
  let executor: ChdbExecutor;
  let stores: AnalyticsStore[];

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'switchyard-chdb-rows-'));
    executor = new ChdbExecutor({ path: folder, lingerMs: 60_000 });
    stores = [textDatabase, binaryDatabase].map((database) => createClickHouseAnalyticsStore(executor, { database }));
    for (const store of stores) await store.migrate();
    await stores[0]!.insert(mapEventsToAnalyticsRows(events));
    await executor.handOff(binaryDatabase, events.slice(0, 20));
    await executor.handOff(binaryDatabase, events.slice(20));
    await executor.flushHandoffs();
  });

  afterAll(async () => {
    await executor?.close();
    await rm(folder, { recursive: true, force: true });
  });

  const rowsOf = (database: string, table: string) => executor.query<Record<string, unknown>>(`SELECT * FROM ${database}.${table} ORDER BY event_id`);

  it.each(analyticsTables)('%s holds the same rows either way', async (table) => {
    const text = await rowsOf(textDatabase, table);
    expect(text.length).toBeGreaterThan(0);
    expect(await rowsOf(binaryDatabase, table)).toEqual(text);
  });

  it.each(analyticsTables)('%s has the column types the binary encoder writes', async (table) => {
    const described = await executor.query<{ name: string; type: string }>(`DESCRIBE TABLE ${binaryDatabase}.${table}`);
    expect(analyticsColumnTypes[table]).toEqual(Object.fromEntries(described.map(({ name, type }) => [name, type])));
  });

  it('leaves no staged file behind once the rows are in', async () => {
    expect(await readdir(join(folder, 'insert-staging'))).toEqual([]);
  });
});
