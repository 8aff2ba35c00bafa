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
