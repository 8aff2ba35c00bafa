// What the embedded analytics path costs per decision, apart from HTTP and the decision itself: the
// chDB executor as the service runs it (the hand-off's JSON on this thread; mapping, RowBinary and the
// inserts on chDB's thread; ClickHouse's own pools), fed a decision's two events (`decision.created`
// and its `api.requested`). Each sample hands off BATCH (15,000: a second of decide-bench's load)
// decisions in slices of HANDOFF_EVENTS (600: the analytics sink's batches at that rate) and flushes
// them as one insert per table, as chDB's thread does about once a second; ROUNDS (11) rounds
// alternate the kinds below. CPU from process.cpuUsage() (every thread of the process) per sample;
// background merges are stopped, so a figure is the hand-off and the inserts, not the merges that
// follow them. Prints each kind's median µs per decision with a 95 % interval, and row 2c's extra.
// Kinds: plain SR's events (as the three-card mix's first card writes them); row 2c's (the same
// decision pinned, with the `experiment` and `sticky` records a multi-objective + experiment + sticky
// merchant's pinned decision carries: bench/decide-bench.mjs's row 2c).
//   npx vite-node bench/analytics-insert-cost.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChdbExecutor } from '../src/adapters/chdb/chdb-executor.js';
import { applyClickHouseMigrations, loadClickHouseMigrations } from '../src/adapters/clickhouse/clickhouse-migrator.js';
import { createEvent, type EventEnvelope } from '../src/events/event-envelope.js';
import type { DecisionCreatedV1 } from '../src/generated/schema-types.js';
import { medianInterval } from './lib/median-interval.mjs';

const rounds = Number(process.env.ROUNDS ?? 11);
const batch = Number(process.env.BATCH ?? 15_000);
/** Events per hand-off: the analytics sink's batches at ~15,000 decisions a second (its linger is 20 ms). */
const handoffEvents = Number(process.env.HANDOFF_EVENTS ?? 600);
if (![rounds, handoffEvents, batch].every((value) => Number.isInteger(value) && value >= 1)) {
  throw new Error('ROUNDS, BATCH and HANDOFF_EVENTS take a whole number ≥ 1');
}
const database = 'switchyard';
const round2 = (value: number): number => Math.round(value * 100) / 100;
const merchantId = 'insert_cost';

/** A plain SR decision's `decision.created` payload, as the three-card mix's first card writes it. */
function plainPayload(index: number): DecisionCreatedV1 {
  return {
    paymentId: `pay_${index}`,
    requestId: crypto.randomUUID(),
    gateway: 'stripe',
    routingApproach: 'SR_SELECTION_V3_ROUTING',
    gatewayPriorityMap: { stripe: 1, adyen: 1, checkout: 1 },
    rankingAlgorithm: 'SR_BASED_ROUTING',
    eliminationEnabled: true,
    latencyMs: 0,
    payment: {
      orderType: 'ORDER_PAYMENT',
      paymentMethodType: 'CARD',
      paymentMethod: 'CREDIT',
      cardType: 'DEBIT',
      cardNetwork: 'MASTERCARD',
      cardIsIn: '510510',
      currency: 'USD',
      country: null,
      authType: 'THREE_DS',
      amount: 100,
    },
    windowDimension: `gw_sr_v3_score_${merchantId}_ORDER_PAYMENT_CARD_CREDIT`,
    eliminationDimension: `gw_score_${merchantId}_ORDER_PAYMENT_CARD_CREDIT_DEBIT`,
    policy: {
      propensity: 0.95,
      hedged: false,
      candidates: ['stripe', 'adyen', 'checkout'].map((gateway) => ({ gateway, score: 1, eliminationScore: null })),
      hedgingPercent: 5,
      bucketSize: 125,
      eliminationThreshold: 0.05,
      eliminationDivisor: 5,
      multiObjective: false,
    },
  };
}

/** Row 2c's pinned decision: the same, pinned to adyen, with its experiment and sticky records. */
function row2cPayload(index: number): DecisionCreatedV1 {
  return {
    experiment: {
      experimentId: 'routing_4d153a28-7e6b-458d-8481-26ae359c69ae',
      experimentArm: index % 10 < 3 ? 'variant' : 'control',
      armAlgorithmId: 'sr_routing',
      guardrailTripped: false,
      endpoint: 'decide_gateway',
      chosenCostBps: null,
      costSavedBps: null,
    },
    ...plainPayload(index),
    gateway: 'adyen',
    routingApproach: 'STICKY_ROUTING',
    sticky: { customerKey: 'a'.repeat(56) + String(index % 1000).padStart(8, '0'), combo: 'CREDIT:CARD', outcome: 'pinned', srHead: 'checkout' },
  };
}

const kinds = { 'plain SR': plainPayload, 'row 2c': row2cPayload } as const;
type Kind = keyof typeof kinds;

/** One batch's events: each decision's `decision.created` and the `api.requested` of its request. */
function eventsOf(kind: Kind, size: number, from: number): EventEnvelope[] {
  const events: EventEnvelope[] = [];
  const now = Date.now();
  for (let index = from; index < from + size; index += 1) {
    const payload = kinds[kind](index);
    events.push(createEvent('decision.created', merchantId, payload, now));
    events.push(
      createEvent(
        'api.requested',
        merchantId,
        {
          requestId: payload.requestId as string,
          flowType: 'decide_gateway',
          apiFlow: 'dynamic_routing',
          route: '/decide-gateway',
          method: 'POST',
          statusCode: 200,
          latencyMs: 0.4,
          paymentId: payload.paymentId,
          errorCode: null,
          errorMessage: null,
          userAgent: 'autocannon',
        },
        now,
      ),
    );
  }
  return events;
}

const dir = mkdtempSync(join(tmpdir(), 'switchyard-insert-cost-'));
// Inserts only when flushed: the batch is the insert.
const executor = new ChdbExecutor({ path: dir, lingerMs: 3_600_000, insertAfterEvents: Number.MAX_SAFE_INTEGER, maxHeldEvents: Number.MAX_SAFE_INTEGER });
try {
  await applyClickHouseMigrations(executor, database, await loadClickHouseMigrations(), Date.now());
  for (const table of ['analytics_domain_events', 'analytics_api_events', 'analytics_decision_policies']) {
    await executor.command(`SYSTEM STOP MERGES ${database}.${table}`);
  }
  // A warm-up batch of each kind: the thread's first mapping and insert compile and allocate.
  let next = 0;
  for (const kind of Object.keys(kinds) as Kind[]) {
    for (const slice of [eventsOf(kind, 300, next), eventsOf(kind, 700, next + 300)]) await executor.handOff(database, slice);
    await executor.flushHandoffs();
    next += 1000;
  }
  const samples: Record<Kind, number[]> = { 'plain SR': [], 'row 2c': [] };
  for (let round = 0; round < rounds; round += 1) {
    process.stderr.write(`round ${round + 1} of ${rounds}…\n`);
    for (const kind of (round % 2 === 0 ? ['plain SR', 'row 2c'] : ['row 2c', 'plain SR']) as Kind[]) {
      const events = eventsOf(kind, batch, next);
      next += batch;
      const before = process.cpuUsage();
      for (let at = 0; at < events.length; at += handoffEvents) await executor.handOff(database, events.slice(at, at + handoffEvents));
      await executor.flushHandoffs();
      const used = process.cpuUsage(before);
      samples[kind].push((used.user + used.system) / batch);
    }
  }
  const result: Record<string, { usPerDecision: number; interval: [number, number] }> = {};
  for (const kind of Object.keys(kinds) as Kind[]) {
    const { median, low, high } = medianInterval(samples[kind]);
    result[kind] = { usPerDecision: round2(median), interval: [round2(low), round2(high)] };
    console.log(
      `${kind.padEnd(9)} ${median.toFixed(2).padStart(6)} µs CPU per decision (median of ${rounds} flushes of ${batch}; 95 % interval ${low.toFixed(2)}–${high.toFixed(2)})`,
    );
  }
  const extra = (result['row 2c'] as { usPerDecision: number }).usPerDecision - (result['plain SR'] as { usPerDecision: number }).usPerDecision;
  console.log(`row 2c over plain SR: ${extra >= 0 ? '+' : ''}${extra.toFixed(2)} µs per decision`);
  console.log(JSON.stringify({ benchmark: 'analytics-insert-cost', rounds, batch, handoff_events: handoffEvents, kinds: result }));
} finally {
  await executor.close();
  rmSync(dir, { recursive: true, force: true });
}
