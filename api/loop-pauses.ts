import { createHistogram, PerformanceObserver } from 'node:perf_hooks';

/** How long the event loop stalled and the collector paused, over one window (between two reads). */
export interface LoopPauses {
  readonly lagP99Seconds: number;
  readonly lagMaxSeconds: number;
  readonly gcPauses: number;
  readonly gcPauseSeconds: number;
  readonly gcPauseMaxSeconds: number;
}

export interface LoopPauseMonitor {
  /** The figures since the previous call (or the start), and a new window from now. */
  takeWindow(): LoopPauses;
  stop(): void;
}

const tickMs = 10;

/**
 * Watches the event loop with a 10 ms tick of its own (how late each tick runs is how long the
 * loop was busy; perf_hooks' monitorEventLoopDelay reported a 60 ms stall as ~9 ms on Node 24)
 * and the garbage collector's pauses. A latency tail with a calm loop is elsewhere; a stalled
 * loop shows here.
 */
export function startLoopPauseMonitor(): LoopPauseMonitor {
  const lag = createHistogram();
  let lastTick = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    lag.record(Math.max(1, Math.round((now - lastTick - tickMs) * 1e6)));
    lastTick = now;
  }, tickMs);
  ticker.unref();
  let gc = { count: 0, totalMs: 0, maxMs: 0 };
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gc = { count: gc.count + 1, totalMs: gc.totalMs + entry.duration, maxMs: Math.max(gc.maxMs, entry.duration) };
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const seconds = (nanoseconds: number) => (Number.isFinite(nanoseconds) ? nanoseconds / 1e9 : 0);
  return {
    takeWindow() {
      const window = { lagP99Seconds: seconds(lag.percentile(99)), lagMaxSeconds: seconds(lag.max), gcPauses: gc.count, gcPauseSeconds: gc.totalMs / 1000, gcPauseMaxSeconds: gc.maxMs / 1000 };
      lag.reset();
      gc = { count: 0, totalMs: 0, maxMs: 0 };
      return window;
    },
    stop() {
      clearInterval(ticker);
      gcObserver.disconnect();
    },
  };
}
