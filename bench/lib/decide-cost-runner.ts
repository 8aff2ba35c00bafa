// What bench/decide-cost.ts and bench/sticky-cost.ts share: the three-card SR body, the seeded sticky
// habits and the interleaved CPU blocks. No import from src/: decide-cost.ts loads the use case from
// another tree (ROOT=), so the store and the sticky key functions are handed in.
import { decideMixBody } from './decide-body.mjs';

/** An SR decide body of the three-card mix, paying `p_<index>`; with `customers`, naming one of that many customers. */
export function srDecideBody(merchantId: string, index: number, customers?: number) {
  const body = decideMixBody(merchantId, `p_${index}`, index);
  return customers === undefined ? body : { ...body, paymentInfo: { ...body.paymentInfo, customerId: `cust_${index % customers}` } };
}

interface StickyStore {
  readonly sticky: { adjust(input: Record<string, unknown>): Promise<unknown> };
}
interface StickyKeys {
  customerKeyOf(customerId: string): string;
  stickyComboOf(payment: { paymentMethod: string; paymentMethodType: string }): unknown;
}

/** Every one of `customers` customers of `merchantId` gets a habit on adyen for credit cards, so nearly every sticky decision pins. */
export async function seedStickyHabits(state: StickyStore, keys: StickyKeys, merchantId: string, customers: number): Promise<void> {
  const combo = keys.stickyComboOf({ paymentMethod: 'CREDIT', paymentMethodType: 'CARD' });
  for (let i = 0; i < customers; i += 1) {
    await state.sticky.adjust({
      customer: { merchantId, customerKey: keys.customerKeyOf(`cust_${i}`) },
      combo,
      connector: 'adyen',
      delta: 1,
      ttlSeconds: 86_400,
      maxEntries: 30,
      dedupeKey: `seed_${i}`,
      dedupeTtlSeconds: 60,
    });
  }
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Calls between two yields to the event loop's check phase: about what one turn of a loaded service answers. */
const callsPerTurn = 32;

/**
 * CPU µs per call of each kind: a warm-up block of every kind (then `afterWarmUp`), then `rounds`
 * rounds of one `block` of every kind in turn, timed by process.cpuUsage(); the median block of each
 * kind. Interleaving makes a load swing on the shared machine hit every kind alike. `step` makes one
 * call; `payment` counts up across all blocks, so no two calls share a payment id.
 *
 * The calls yield to the check phase every {@link callsPerTurn}, as a service's turns do, so work a
 * call schedules there (the embedded bus delivers its events at setImmediate) runs in small batches
 * as in the service; and the block ends with `settle` (e.g. the bus's consumers caught up) inside
 * its timing. Without both, a block's 2,000 events were delivered in one batch during the next
 * block, and were counted for whichever kind came next.
 */
export async function interleavedCpuBlocks<Kind extends string>(
  kinds: readonly Kind[],
  step: (kind: Kind, payment: number) => Promise<void>,
  options: { readonly block: number; readonly rounds: number; readonly afterWarmUp?: () => void; readonly settle?: () => Promise<void> },
): Promise<Record<Kind, number>> {
  let payment = 0;
  const run = async (kind: Kind): Promise<number> => {
    const started = process.cpuUsage();
    for (let i = 0; i < options.block; i += 1) {
      payment += 1;
      await step(kind, payment);
      if (i % callsPerTurn === callsPerTurn - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    await options.settle?.();
    const used = process.cpuUsage(started);
    return (used.user + used.system) / options.block;
  };
  for (const kind of kinds) await run(kind);
  options.afterWarmUp?.();
  const samples = new Map<Kind, number[]>(kinds.map((kind) => [kind, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    for (const kind of kinds) samples.get(kind)?.push(await run(kind));
  }
  return Object.fromEntries(kinds.map((kind) => [kind, median(samples.get(kind) ?? [])])) as Record<Kind, number>;
}

/**
 * Heap bytes allocated per call of each kind: `blocks` blocks of {@link callsPerTurn} calls per kind
 * (interleaved, after one warm-up block each), each ending with a yield to the check phase and
 * `settle`, as in {@link interleavedCpuBlocks}; the growth of V8's used heap over a block, the median
 * block of each kind. A block during which a garbage collection ran (the used heap shrank) is left
 * out. Unlike CPU time this does not move with the machine's load: a change that allocates less
 * shows here however noisy the sitting. In the service an allocation costs more than in this loop
 * (each scavenge copies what the requests in flight hold), so the figure explains part of how a
 * feature's CPU here grows under HTTP load. Includes the step's own allocations (the request body).
 */
export async function allocatedBytesPerCall<Kind extends string>(
  kinds: readonly Kind[],
  step: (kind: Kind, payment: number) => Promise<void>,
  options: { readonly blocks: number; readonly firstPayment: number; readonly settle?: () => Promise<void> },
): Promise<Record<Kind, number | undefined>> {
  const { getHeapStatistics } = await import('node:v8');
  let payment = options.firstPayment;
  const run = async (kind: Kind): Promise<number | undefined> => {
    const before = getHeapStatistics().used_heap_size;
    for (let i = 0; i < callsPerTurn; i += 1) {
      payment += 1;
      await step(kind, payment);
    }
    await new Promise((resolve) => setImmediate(resolve));
    await options.settle?.();
    const grown = getHeapStatistics().used_heap_size - before;
    return grown > 0 ? grown / callsPerTurn : undefined;
  };
  for (const kind of kinds) await run(kind);
  const samples = new Map<Kind, number[]>(kinds.map((kind) => [kind, []]));
  for (let block = 0; block < options.blocks; block += 1) {
    for (const kind of kinds) {
      const bytes = await run(kind);
      if (bytes !== undefined) samples.get(kind)?.push(bytes);
    }
  }
  return Object.fromEntries(kinds.map((kind) => [kind, samples.get(kind)?.length ? median(samples.get(kind) ?? []) : undefined])) as Record<
    Kind,
    number | undefined
  >;
}
