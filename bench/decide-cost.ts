// The decision use case's own CPU per decision for each feature row of decide-bench, apart from HTTP
// and the machine's load swings (issues 35 and 36): createDecidePayment on the embedded store and bus,
// the three-card SR mix, blocks of BLOCK decisions alternating the kinds below, ROUNDS rounds; CPU µs
// per decision from process.cpuUsage() per block, the median block of each kind reported, and each
// kind's extra over plain SR. Interleaving makes a load swing on the shared machine hit every kind
// alike. ROOT=<checkout> runs another tree's sources (e.g. bench-compare's scratch copy of a base
// build), so two builds can be set side by side:
//   npx vite-node bench/decide-cost.ts                    (BLOCK=2000 ROUNDS=11 CUSTOMERS=1000)
//   ROOT=/tmp/switchyard-compare-<sha> npx vite-node bench/decide-cost.ts
// Kinds: plain SR; sticky routing on (every customer's habit on adyen seeded, so nearly every
// decision reads the counts and pins); an active volume commitment with a published plan steering
// toward adyen; multi-objective (seed costs) with an active A/B experiment (30 % variant cost-aware);
// the same with sticky routing on (decide-bench's row 2c).
import { resolve } from 'node:path';
import { abTestRule } from './lib/ab-test-rule.mjs';
import { benchContract } from './lib/bench-contract.mjs';
import { allocatedBytesPerCall, interleavedCpuBlocks, seedStickyHabits, srDecideBody } from './lib/decide-cost-runner.js';

const root = resolve(process.env.ROOT ?? new URL('..', import.meta.url).pathname);
const block = Number(process.env.BLOCK ?? 2000);
const rounds = Number(process.env.ROUNDS ?? 11);
/** Blocks of 32 decisions per kind for the heap figure (a block a garbage collection ran in is left out). */
const allocationBlocks = Number(process.env.ALLOCATION_BLOCKS ?? 200);
const customers = Number(process.env.CUSTOMERS ?? 1000);
const from = (path: string) => import(`${root}/src/${path}`);

const { createMemoryEventBus } = await from('adapters/memory/memory-event-bus.ts');
const { createMemoryStateStore } = await from('adapters/memory/memory-state-store.ts');
const { createDecidePayment } = await from('decision/decide-payment.ts');
const { defaultRoutingDefaults } = await from('decision/routing-defaults.ts');
const stickyKeys = await from('decision/sticky/sticky-key.ts');
const { StickyRoutingCounters } = await from('decision/sticky/sticky-counters.ts');
const { validateEvent } = await from('events/validate-event.ts');
const { silentLogger } = await from('logging/logger.ts');
const { systemClock } = await from('time/clock.ts');
const { activateRoutingAlgorithm, createRoutingAlgorithm } = await from('routing-rules/manage-routing-algorithms.ts');

const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock: systemClock });
const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
// A consumer that commits everything, as the embedded workers would, so the bus holds nothing.
const drain = await bus.subscribe({ group: 'drain', topics: ['routing'], handler: async () => undefined });
const counters = new StickyRoutingCounters();
const decide = createDecidePayment({ state, bus, random: { next: () => 0.99 }, clock: systemClock, defaults: defaultRoutingDefaults, sticky: { counters } });
const manage = { state, clock: systemClock };

const merchants = { plain: 'cost_plain', sticky: 'cost_sticky', volume: 'cost_volume', features: 'cost_features', all: 'cost_features_sticky' } as const;
for (const merchantId of Object.values(merchants)) {
  await state.merchants.create({ merchantId, merchantName: null, deciderInput: null, createdAt: 1 });
  await state.configs.put(merchantId, 'successRate', { defaultBucketSize: 125, defaultHedgingPercent: 0 }, 'upsert');
}
// Sticky: the feature on, every customer's habit on adyen.
await state.configs.put(merchants.sticky, 'features', { 'sticky-routing': true }, 'upsert');
await seedStickyHabits(state, stickyKeys, merchants.sticky, customers);
// Volume commitment: decide-bench's contract, and a plan steering 30 % of SR decisions toward adyen.
await state.configs.put(merchants.volume, 'features', { 'volume-contracts': true }, 'upsert');
const contract = await createRoutingAlgorithm(manage, {
  rule_id: 'cost_contract',
  name: 'bench-contract',
  created_by: merchants.volume,
  algorithm: {
    type: 'volume_contract',
    data: benchContract,
  },
});
await activateRoutingAlgorithm(manage, merchants.volume, contract.id);
const now = Date.now();
await state.configs.put(
  merchants.volume,
  'volumeCommitmentPlan',
  {
    merchantId: merchants.volume,
    runId: 'vcr_0',
    ruleId: contract.id,
    contractAnchorMs: contract.modifiedAt,
    computedAtMs: now,
    staleAfterMs: now + 86_400_000,
    tolerance: 0.05,
    psps: [
      {
        connector: 'adyen',
        reward: 10_000_000,
        remaining: 300_000_000_000,
        neededDaily: 1_000_000_000,
        routingGivesDaily: 0,
        needsSteering: true,
        steerRate: 0.3,
        periodStartMs: 0,
        periodEndMs: Number.MAX_SAFE_INTEGER,
        daySecs: 86_400,
      },
    ],
    dropped: [],
    measuredDailyTraffic: null,
  },
  'upsert',
);
// Multi-objective (the benches' seed costs) and an active A/B experiment, its variant cost-aware;
// decide-bench's row 2c has sticky routing on as well (every customer's habit on adyen).
async function enableCostStepAndExperiment(merchantId: string, ruleId: string, features: Record<string, boolean>): Promise<void> {
  await state.configs.put(merchantId, 'features', { 'multi-objective-routing': true, 'ab-test-real-payments': true, ...features }, 'upsert');
  await state.configs.put(
    merchantId,
    'seedCosts',
    (
      [
        ['stripe', 290],
        ['adyen', 194],
        ['checkout', 150],
      ] as const
    ).map(([psp, bps]) => ({ psp, interchangeBps: bps, schemeBps: 0, markupBps: 0, fixed: 0, isDefault: true })),
    'upsert',
  );
  const experiment = await createRoutingAlgorithm(manage, { rule_id: ruleId, ...abTestRule('bench-experiment', merchantId, { hedging_percent: 2 }) });
  await activateRoutingAlgorithm(manage, merchantId, experiment.id);
}
await enableCostStepAndExperiment(merchants.features, 'cost_experiment', {});
await enableCostStepAndExperiment(merchants.all, 'cost_experiment_sticky', { 'sticky-routing': true });
await seedStickyHabits(state, stickyKeys, merchants.all, customers);

const body = (merchantId: string, index: number, customer: boolean) => srDecideBody(merchantId, index, customer ? customers : undefined);

const kinds = {
  plain: (i: number) => body(merchants.plain, i, false),
  sticky: (i: number) => body(merchants.sticky, i, true),
  volume: (i: number) => body(merchants.volume, i, false),
  'multi-objective + experiment': (i: number) => body(merchants.features, i, false),
  'multi-objective + experiment + sticky': (i: number) => body(merchants.all, i, true),
} as const;
type Kind = keyof typeof kinds;
// KINDS=<name>,<name> keeps those kinds only (e.g. to profile one with --cpu-prof); plain always runs.
const chosen = (Object.keys(kinds) as Kind[]).filter(
  (kind) => kind === 'plain' || process.env.KINDS === undefined || process.env.KINDS.split(',').includes(kind),
);
const seen = { steered: 0, pinned: 0, costAware: 0 };
/** Which of `seen` the chosen kinds must show in the warm-up (else the setup did not take). */
const expected = {
  steered: chosen.includes('volume'),
  pinned: chosen.some((kind) => kind.includes('sticky')),
  costAware: chosen.includes('multi-objective + experiment'),
};
const step = async (kind: Kind, payment: number): Promise<void> => {
  const decided = await decide(kinds[kind](payment), { requestId: `r${payment}`, startedAt: performance.now() });
  if (!decided.ok) throw new Error(`decision failed: ${JSON.stringify(decided.failure)}`);
  if (decided.decision.volumeSteerInfo !== undefined) seen.steered += 1;
  if (decided.decision.routingApproach === 'STICKY_ROUTING') seen.pinned += 1;
  if (decided.decision.multiObjectiveInfo !== undefined) seen.costAware += 1;
};
const medians = await interleavedCpuBlocks(chosen, step, {
  block,
  rounds,
  settle: () => drain.caughtUp(),
  afterWarmUp: () => {
    for (const key of Object.keys(seen) as (keyof typeof seen)[]) {
      if (expected[key] && seen[key] === 0) throw new Error(`no decision of the warm-up was ${key}: the setup did not take`);
      seen[key] = 0;
    }
  },
});
const seenInRounds = { ...seen };
// Then the heap each kind allocates per decision (payment ids past the rounds' own).
const allocated = await allocatedBytesPerCall(chosen, step, { blocks: allocationBlocks, firstPayment: 1_000_000_000, settle: () => drain.caughtUp() });
const plain = medians.plain;
const result: Record<string, number> = {};
const bytes: Record<string, number | null> = {};
console.log(`decide-cost (${root}): ${rounds} rounds × ${block} decisions per kind, load average ${(await import('node:os')).loadavg()[0]?.toFixed(1)}`);
for (const kind of chosen) {
  const us = medians[kind];
  const heap = allocated[kind];
  result[kind] = Math.round(us * 10) / 10;
  bytes[kind] = heap === undefined ? null : Math.round(heap);
  const heapNote = heap === undefined ? 'heap not measured' : `${Math.round(heap)} heap bytes per decision (+${Math.round(heap - (allocated.plain ?? 0))})`;
  console.log(
    `${kind.padEnd(38)} ${us.toFixed(1).padStart(6)} µs CPU per decision (median block), +${(us - plain).toFixed(1)} µs over plain (${((100 * us) / plain).toFixed(1)} %); ${heapNote}`,
  );
}
console.log(`of ${rounds * block} each: volume steered ${seenInRounds.steered}, sticky pinned ${seenInRounds.pinned}, cost step ran ${seenInRounds.costAware}`);
console.log(
  JSON.stringify({ benchmark: 'decide-cost', root, block, rounds, customers, us_per_decision: result, heap_bytes_per_decision: bytes, seen: seenInRounds }),
);
await bus.close();
await state.close();
