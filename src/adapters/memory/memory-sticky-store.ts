import { OldestFirst } from './oldest-first.js';
import type { StickyCustomer, StickyStore } from '../../ports/state/sticky-store.js';
import type { Clock } from '../../time/clock.js';

/**
 * 200,000 customers: a customer is a few counts (under 1 KiB with its key at the 30-entry cap, far
 * less typically), so at most about 200 MiB and usually a tenth of it; beyond that the least
 * recently seen customer is forgotten, which only costs that customer's habit.
 */
export const defaultMaxStickyCustomers = 200_000;

interface Customer {
  /** `<combo>:<connector>` → positive count. */
  readonly counts: Map<string, number>;
  expiresAtMs: number;
}

/**
 * The embedded `StickyStore`: a bounded LRU of customers in process memory, never journaled (a
 * restart forgets the habits, as if every customer were new). Dedupe marks expire by the store's
 * clock and are dropped oldest first once they reach the customers' bound.
 */
export function createMemoryStickyStore(options: { readonly clock: Clock; readonly maxCustomers?: number }): StickyStore {
  const maxCustomers = options.maxCustomers ?? defaultMaxStickyCustomers;
  /** Map order is recency order: a read or write moves its customer to the end, eviction takes from the front. */
  const customers = new Map<string, Customer>();
  const eviction = new OldestFirst(customers);
  const dedupe = new Map<string, number>();
  const idOf = (merchantId: string, customerKey: string) => `${merchantId}\u0000${customerKey}`;
  const live = (id: string): Customer | undefined => {
    const customer = customers.get(id);
    if (customer === undefined) return undefined;
    customers.delete(id);
    if (customer.expiresAtMs <= options.clock.now()) return undefined;
    customers.set(id, customer);
    return customer;
  };
  const markOnce = (id: string, ttlSeconds: number): boolean => {
    const now = options.clock.now();
    const until = dedupe.get(id);
    if (until !== undefined && until > now) return false;
    dedupe.delete(id);
    if (dedupe.size >= maxCustomers) {
      // Map order is insertion order, and one TTL serves every mark, so the oldest marks expire first:
      // drop from the front every expired mark, and live ones until 90 % of the bound (amortised O(1)
      // per mark; a redelivery later than a dropped live mark would count twice).
      for (const [key, expiresAtMs] of dedupe) {
        if (expiresAtMs > now && dedupe.size < maxCustomers * 0.9) break;
        dedupe.delete(key);
      }
    }
    dedupe.set(id, now + ttlSeconds * 1000);
    return true;
  };
  const readNow = (customer: StickyCustomer, combo: string): ReadonlyMap<string, number> => {
    const found = live(idOf(customer.merchantId, customer.customerKey));
    const counts = new Map<string, number>();
    if (found === undefined) return counts;
    const start = combo.length + 1;
    for (const [field, count] of found.counts) {
      if (field.length < start || field.charCodeAt(combo.length) !== 58 || !field.startsWith(combo)) continue; // 58: ':'
      // Connector names are rarely escaped: decode only what has a `%`.
      const connector = field.indexOf('%', start) === -1 ? field.slice(start) : decodeURIComponent(field.slice(start));
      counts.set(connector, count);
    }
    return counts;
  };
  return {
    readNow,
    async read(customer, combo) {
      return readNow(customer, combo);
    },
    async adjust(adjustment) {
      const id = idOf(adjustment.customer.merchantId, adjustment.customer.customerKey);
      const field = `${adjustment.combo}:${encodeURIComponent(adjustment.connector)}`;
      let customer = live(id);
      if (!markOnce(`${id}\u0000${adjustment.dedupeKey}`, adjustment.dedupeTtlSeconds)) {
        return { applied: false, count: customer?.counts.get(field) ?? 0 };
      }
      if (adjustment.delta < 0) {
        const current = customer?.counts.get(field) ?? 0;
        if (customer === undefined || current <= 0) return { applied: false, count: 0 };
        if (current <= 1) customer.counts.delete(field);
        else customer.counts.set(field, current - 1);
        return { applied: true, count: current - 1 };
      }
      if (customer === undefined) {
        customer = { counts: new Map(), expiresAtMs: 0 };
        customers.set(id, customer);
      }
      const count = (customer.counts.get(field) ?? 0) + 1;
      customer.counts.set(field, count);
      customer.expiresAtMs = options.clock.now() + adjustment.ttlSeconds * 1000;
      if (count === 1 && customer.counts.size > adjustment.maxEntries) {
        const others = [...customer.counts].filter(([key]) => key !== field).sort((a, b) => a[1] - b[1]);
        for (const [key] of others.slice(0, customer.counts.size - Math.max(1, adjustment.maxEntries))) customer.counts.delete(key);
      }
      eviction.trimTo(maxCustomers);
      return { applied: true, count };
    },
  };
}
