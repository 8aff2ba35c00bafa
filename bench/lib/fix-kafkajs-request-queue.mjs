// kafkajs 2.2.4 (its last release) keeps a 1 ms timer loop alive on every broker connection:
// RequestQueue.scheduleCheckPendingRequests arms `throttledUntil (-1) - Date.now()` ms, which Node
// runs after 1 ms (and reports as TimeoutNegativeWarning on Node 24), and the callback arms the next
// one (tulios/kafkajs#1751; fixes proposed in #1755/#1768, never released). The kafka client bench
// runs kafkajs with the proposed fix, as the EventBus adapter did while it used kafkajs: a timer only
// while requests are queued (at the end of a client-side throttle, else after 10 ms).
import { createRequire } from 'node:module';

export function fixKafkajsRequestQueue() {
  const RequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js');
  if (typeof RequestQueue.prototype?.scheduleCheckPendingRequests !== 'function') return;
  RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests() {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    const throttledForMs = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttledForMs > 0 ? throttledForMs : 10,
    );
  };
}
