import type { StickyStore } from '../../ports/state/sticky-store.js';
import type { RedisContext } from './redis-context.js';

/**
 * The distributed `StickyStore`: one hash per customer (`{stk:<merchant>:<customer>}counts`, field
 * `<combo>:<connector>` → net count), written by adjust-sticky-count.lua so a count and its dedupe
 * marker move together, read with one HGETALL (a customer keeps at most `maxEntries` fields).
 */
export function createRedisStickyStore(context: RedisContext): StickyStore {
  return {
    read: (customer, combo) =>
      context.call('sticky.read', async (redis) => {
        const fields = await redis.hgetall(context.keys.stickyCounts(customer.merchantId, customer.customerKey));
        const prefix = `${combo}:`;
        const counts = new Map<string, number>();
        for (const field in fields) {
          if (!field.startsWith(prefix)) continue;
          const count = Number(fields[field]);
          if (count > 0) counts.set(decodeURIComponent(field.slice(prefix.length)), count);
        }
        return counts;
      }),
    adjust: (adjustment) =>
      context.call('sticky.adjust', async (redis) => {
        const { customer } = adjustment;
        const [applied, count] = await redis.adjustStickyCount(
          context.keys.stickyCounts(customer.merchantId, customer.customerKey),
          context.keys.stickyDedupe(customer.merchantId, customer.customerKey, adjustment.dedupeKey),
          `${adjustment.combo}:${encodeURIComponent(adjustment.connector)}`,
          adjustment.delta,
          Math.max(1, Math.ceil(adjustment.ttlSeconds)),
          Math.max(1, adjustment.maxEntries),
          Math.max(1, Math.ceil(adjustment.dedupeTtlSeconds)),
        );
        return { applied: applied === 1, count };
      }),
  };
}
