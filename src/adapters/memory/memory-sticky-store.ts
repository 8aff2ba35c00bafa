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
  /** Where the record is filed, so the eviction cursor can take it out of its merchant's map. */
  readonly merchantId: string;
  readonly customerKey: string;
  /**
   * The first combination counted and its connector → positive count (a read hands over the map as
   * it is). Most customers pay one way: kept on the record, their counts are one reference away
   * where a map of combinations cost one more cold lookup on every sticky decision.
   */
  combo: string | undefined;
  counts: Map<string, number> | undefined;
  /** Every further combination → its counts (created with the second combination). */
  more: Map<string, Map<string, number>> | undefined;
  /** Counts over every combination: the per-customer bound (`maxEntries`) is on this. */
  entries: number;
  expiresAtMs: number;
  /** Seen since the eviction cursor last passed it: spared once, and moved to the back (second chance). */
  seen: boolean;
}

const noCounts: ReadonlyMap<string, number> = new Map();

/** The customer's counts for `combo`, if any. */
function countsOf(customer: Customer, combo: string): Map<string, number> | undefined {
  return customer.combo === combo ? customer.counts : customer.more?.get(combo);
}

/** The customer's counts for `combo`, created empty when it has none: on the record when its slot is free. */
function countsFor(customer: Customer, combo: string): Map<string, number> {
  const counts = countsOf(customer, combo);
  if (counts !== undefined) return counts;
  const created = new Map<string, number>();
  if (customer.combo === undefined) {
    customer.combo = combo;
    customer.counts = created;
  } else {
    customer.more ??= new Map();
    customer.more.set(combo, created);
  }
  return created;
}

/** Forgets a combination whose last count went. */
function dropCombo(customer: Customer, combo: string): void {
  if (customer.combo === combo) {
    customer.combo = undefined;
    customer.counts = undefined;
  } else customer.more?.delete(combo);
}

/**
 * The embedded `StickyStore`: a bounded set of customers in process memory, never journaled (a
 * restart forgets the habits, as if every customer were new). The bound forgets a customer not seen
 * since the eviction cursor last passed it (second chance, close to least recently seen): a read only
 * marks its customer, where moving it to the back of the map would cost a delete and an insert on
 * every sticky decision. Dedupe marks expire by the store's clock and are dropped oldest first once
 * they reach the customers' bound.
 *
 * Customers are found merchant first, then by key, not by one joined `merchant\0key` string: the
 * joined string was new on every decision, so each read copied and hashed ~90 characters, where the
 * key itself comes from customerKeyOf's cache already hashed (bench/README.md, "Sticky reads
 * without a joined key").
 */
export function createMemoryStickyStore(options: { readonly clock: Clock; readonly maxCustomers?: number }): StickyStore {
  const maxCustomers = options.maxCustomers ?? defaultMaxStickyCustomers;
  /** merchant → customer key → customer. */
  const byMerchant = new Map<string, Map<string, Customer>>();
  /** Every customer once, keyed by its record (map order is insertion order: eviction takes from the front, moving a seen customer to the back once). */
  const customers = new Map<Customer, true>();
  const eviction = new OldestFirst(customers);
  const dedupe = new Map<string, number>();
  const forget = (customer: Customer): void => {
    customers.delete(customer);
    const ofMerchant = byMerchant.get(customer.merchantId);
    if (ofMerchant === undefined) return;
    ofMerchant.delete(customer.customerKey);
    if (ofMerchant.size === 0) byMerchant.delete(customer.merchantId);
  };
  const live = (merchantId: string, customerKey: string): Customer | undefined => {
    const customer = byMerchant.get(merchantId)?.get(customerKey);
    if (customer === undefined) return undefined;
    if (customer.expiresAtMs <= options.clock.now()) {
      forget(customer);
      return undefined;
    }
    customer.seen = true;
    return customer;
  };
  const added = (merchantId: string, customerKey: string): Customer => {
    const customer: Customer = { merchantId, customerKey, combo: undefined, counts: undefined, more: undefined, entries: 0, expiresAtMs: 0, seen: false };
    let ofMerchant = byMerchant.get(merchantId);
    if (ofMerchant === undefined) {
      ofMerchant = new Map();
      byMerchant.set(merchantId, ofMerchant);
    }
    ofMerchant.set(customerKey, customer);
    customers.set(customer, true);
    return customer;
  };
  const trimCustomers = (): void => {
    while (customers.size > maxCustomers) {
      const oldest = eviction.evict();
      if (oldest === undefined) return;
      const customer = oldest[0];
      if (customer.seen) {
        customer.seen = false;
        customers.set(customer, true);
      } else forget(customer);
    }
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
  // The combination's own map, not a copy: a synchronous caller reads it before any write (read() copies it).
  const readNow = (customer: StickyCustomer, combo: string): ReadonlyMap<string, number> => {
    const found = live(customer.merchantId, customer.customerKey);
    return (found === undefined ? undefined : countsOf(found, combo)) ?? noCounts;
  };
  return {
    readNow,
    async read(customer, combo) {
      return new Map(readNow(customer, combo));
    },
    async adjust(adjustment) {
      const { merchantId, customerKey } = adjustment.customer;
      const { combo, connector } = adjustment;
      let customer = live(merchantId, customerKey);
      if (!markOnce(`${merchantId}\u0000${customerKey}\u0000${adjustment.dedupeKey}`, adjustment.dedupeTtlSeconds)) {
        return { applied: false, count: (customer === undefined ? undefined : countsOf(customer, combo))?.get(connector) ?? 0 };
      }
      if (adjustment.delta < 0) {
        const counts = customer === undefined ? undefined : countsOf(customer, combo);
        const current = counts?.get(connector) ?? 0;
        if (customer === undefined || counts === undefined || current <= 0) return { applied: false, count: 0 };
        if (current > 1) counts.set(connector, current - 1);
        else {
          counts.delete(connector);
          customer.entries -= 1;
          if (counts.size === 0) dropCombo(customer, combo);
        }
        return { applied: true, count: current - 1 };
      }
      customer ??= added(merchantId, customerKey);
      const counts = countsFor(customer, combo);
      const count = (counts.get(connector) ?? 0) + 1;
      counts.set(connector, count);
      customer.expiresAtMs = options.clock.now() + adjustment.ttlSeconds * 1000;
      if (count === 1) {
        customer.entries += 1;
        if (customer.entries > adjustment.maxEntries) dropLowest(customer, combo, connector, Math.max(1, adjustment.maxEntries));
      }
      trimCustomers();
      return { applied: true, count };
    },
  };
}

/** Drops a customer's lowest counts until `keep` are left, never the one just counted (`combo`, `connector`). */
function dropLowest(customer: Customer, combo: string, connector: string, keep: number): void {
  const others: [string, string, number][] = [];
  const collect = (otherCombo: string, counts: Map<string, number>): void => {
    for (const [otherConnector, count] of counts) if (otherCombo !== combo || otherConnector !== connector) others.push([otherCombo, otherConnector, count]);
  };
  if (customer.combo !== undefined && customer.counts !== undefined) collect(customer.combo, customer.counts);
  if (customer.more !== undefined) for (const [otherCombo, counts] of customer.more) collect(otherCombo, counts);
  others.sort((a, b) => a[2] - b[2]);
  for (const [lowCombo, lowConnector] of others.slice(0, customer.entries - keep)) {
    const counts = countsOf(customer, lowCombo)!;
    counts.delete(lowConnector);
    customer.entries -= 1;
    if (counts.size === 0) dropCombo(customer, lowCombo);
  }
}
