import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixKafkajsRequestQueue } from '../../../../src/adapters/kafka/fix-kafkajs-request-queue.js';

interface QueueState {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checks: number;
  checkPendingRequests(): void;
}

const RequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as {
  prototype: { scheduleCheckPendingRequests(this: QueueState): void };
};

function queue(pending: unknown[], throttledUntil = -1): QueueState {
  return {
    pending,
    throttledUntil,
    throttleCheckTimeoutId: null,
    checks: 0,
    checkPendingRequests() {
      this.checks++;
    },
  };
}

describe('fixKafkajsRequestQueue', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('arms no timer when no request is queued, throttled or not', () => {
    fixKafkajsRequestQueue();
    vi.useFakeTimers();
    for (const state of [queue([]), queue([], Date.now() + 5_000)]) {
      RequestQueue.prototype.scheduleCheckPendingRequests.call(state);
      expect(state.throttleCheckTimeoutId).toBeNull();
    }
    expect(vi.getTimerCount()).toBe(0);
  });

  it('checks queued requests after 10 ms, or when a client-side throttle ends', () => {
    fixKafkajsRequestQueue();
    vi.useFakeTimers();
    const queued = queue(['request']);
    RequestQueue.prototype.scheduleCheckPendingRequests.call(queued);
    vi.advanceTimersByTime(9);
    expect(queued.checks).toBe(0);
    vi.advanceTimersByTime(1);
    expect(queued.checks).toBe(1);
    expect(queued.throttleCheckTimeoutId).toBeNull();

    const throttled = queue(['request'], Date.now() + 250);
    RequestQueue.prototype.scheduleCheckPendingRequests.call(throttled);
    RequestQueue.prototype.scheduleCheckPendingRequests.call(throttled); // one timer at a time
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(250);
    expect(throttled.checks).toBe(1);
  });
});
