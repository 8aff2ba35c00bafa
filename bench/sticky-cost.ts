// The decision use case's own cost of sticky routing, apart from HTTP and the machine's load swings:
// createDecidePayment on the embedded store, the same SR payload mix, blocks of BLOCK decisions
// alternating plain SR / sticky off-but-named-customer / sticky on (every customer's habit seeded, so
// nearly every decision reads the counts and pins), ROUNDS rounds; CPU µs per decision from
// process.cpuUsage() per block, the median block of each kind reported. Interleaving makes a load swing
// on the shared machine hit every kind alike. Prints one line per kind and a JSON line.
// Run: npx vite-node bench/sticky-cost.ts   (BLOCK=2000 ROUNDS=15 CUSTOMERS=1000)
import { createMemoryEventBus } from '../src/adapters/memory/memory-event-bus.js';
import { createMemoryStateStore } from '../src/adapters/memory/memory-state-store.js';
import { createDecidePayment } from '../src/decision/decide-payment.js';
import { defaultRoutingDefaults } from '../src/decision/routing-defaults.js';
import * as stickyKeys from '../src/decision/sticky/sticky-key.js';
import { StickyRoutingCounters } from '../src/decision/sticky/sticky-counters.js';
import { validateEvent } from '../src/events/validate-event.js';
import type { DecideGatewayRequest } from '../src/generated/schema-types.js';
import { silentLogger } from '../src/logging/logger.js';
import { systemClock } from '../src/time/clock.js';
import { interleavedCpuBlocks, seedStickyHabits, srDecideBody } from './lib/decide-cost-runner.js';

const block = Number(process.env.BLOCK ?? 2000);
const rounds = Number(process.env.ROUNDS ?? 15);
const customers = Number(process.env.CUSTOMERS ?? 1000);

const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock: systemClock });
const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
// A consumer that commits everything, as the embedded workers would, so the bus holds nothing.
const drain = await bus.subscribe({ group: 'drain', topics: ['routing'], handler: async () => undefined });
const counters = new StickyRoutingCounters();
const decide = createDecidePayment({ state, bus, random: { next: () => 0.99 }, clock: systemClock, defaults: defaultRoutingDefaults, sticky: { counters } });

const merchants = { plain: 'bench_plain', sticky: 'bench_sticky' } as const;
for (const merchantId of Object.values(merchants)) {
  await state.merchants.create({ merchantId, merchantName: null, deciderInput: null, createdAt: 1 });
  await state.configs.put(merchantId, 'successRate', { defaultBucketSize: 125, defaultHedgingPercent: 0 } as never, 'upsert');
}
await state.configs.put(merchants.sticky, 'features', { 'sticky-routing': true }, 'upsert');
const body = (merchantId: string, index: number, customer: boolean): DecideGatewayRequest =>
  srDecideBody(merchantId, index, customer ? customers : undefined) as unknown as DecideGatewayRequest;
await seedStickyHabits(state as never, stickyKeys, merchants.sticky, customers);

const kinds = {
  plain: (i: number) => body(merchants.plain, i, false),
  'plain, customer named, sticky off': (i: number) => body(merchants.plain, i, true),
  sticky: (i: number) => body(merchants.sticky, i, true),
} as const;
type Kind = keyof typeof kinds;
let pinnedBefore = 0;
const medians = await interleavedCpuBlocks(
  Object.keys(kinds) as Kind[],
  async (kind, payment) => {
    const decided = await decide(kinds[kind](payment), { requestId: `r${payment}`, startedAt: performance.now() });
    if (!decided.ok) throw new Error(`decision failed: ${JSON.stringify(decided.failure)}`);
  },
  {
    block,
    rounds,
    settle: () => drain.caughtUp(),
    afterWarmUp: () => {
      pinnedBefore = counters.decisions().get('pinned') ?? 0;
    },
  },
);
const plain = medians.plain;
const result: Record<string, number> = {};
for (const kind of Object.keys(kinds) as Kind[]) {
  const us = medians[kind];
  result[kind] = Math.round(us * 10) / 10;
  console.log(`${kind}: ${us.toFixed(1)} µs CPU per decision (median of ${rounds} blocks of ${block}), ${((100 * us) / plain).toFixed(1)} % of plain`);
}
const pinned = (counters.decisions().get('pinned') ?? 0) - pinnedBefore;
console.log(`sticky decisions pinned: ${pinned} of ${rounds * block}`);
console.log(JSON.stringify({ benchmark: 'sticky-cost', block, rounds, customers, us_per_decision: result, pinned }));
await bus.close();
await state.close();
