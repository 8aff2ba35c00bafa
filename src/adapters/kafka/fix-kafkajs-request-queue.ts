import { createRequire } from 'node:module';

/** The part of kafkajs's internal RequestQueue (src/network/requestQueue/index.js, 2.2.4) the fix touches. */
interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs's CHECK_PENDING_REQUESTS_INTERVAL: how soon queued requests are looked at again, in ms. */
const checkPendingRequestsIntervalMs = 10;
let applied = false;

/**
 * Stops kafkajs 2.2.4 (its last release) from keeping a 1 ms timer loop alive on every broker
 * connection. `RequestQueue.scheduleCheckPendingRequests` always arms a timer for
 * `throttledUntil - Date.now()` ms; unthrottled, `throttledUntil` is -1, so the delay is a large
 * negative number that Node runs after 1 ms, and the callback arms the next one. That costs about 2 %
 * of a core per idle producer (measured, bench/kafka-client-bench.mjs notes) and is what Node 24
 * reports once per process as `TimeoutNegativeWarning` (tulios/kafkajs#1751; fixes proposed in
 * #1755/#1768, never released).
 *
 * The replacement arms a timer only when requests are waiting in the queue (at the end of a
 * client-side throttle, else after 10 ms, as before). With nothing queued no timer is needed: a
 * request enqueued later arms one itself (`push`), and every completed or timed-out request checks
 * the queue (`fulfillRequest`, the request timeout). Idempotent; a kafkajs whose queue does not look
 * like 2.2.4's is left alone.
 */
export function fixKafkajsRequestQueue(): void {
  if (applied) return;
  applied = true;
  const RequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as { prototype?: Partial<RequestQueueInternals> };
  if (typeof RequestQueue.prototype?.scheduleCheckPendingRequests !== 'function') return;
  RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    const throttledForMs = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttledForMs > 0 ? throttledForMs : checkPendingRequestsIntervalMs,
    );
  };
}
