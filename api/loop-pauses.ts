import { constants, createHistogram, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/** How long the event loop stalled and the collector paused, over one window (between two reads). */
export interface LoopPauses {
  readonly lagP99Seconds: number;
  readonly lagMaxSeconds: number;
  readonly gcPauses: number;
  readonly gcPauseSeconds: number;
  readonly gcPauseMaxSeconds: number;
  /**
   * Heap in use just after the latest full (mark-compact) collection, or undefined before the first:
   * the live set, without the garbage V8 lets pile up between collections, so a leak moves it and GC
   * timing does not. Not windowed: the latest value.
   */
  readonly liveHeapBytes: number | undefined;
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
  let liveHeapBytes: number | undefined;
  const isFullCollection = (entry: PerformanceEntry) =>
    (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
  const gcObserver = new PerformanceObserver((list) => {
    const entries = list.getEntries();
    for (const entry of entries) gc = { count: gc.count + 1, totalMs: gc.totalMs + entry.duration, maxMs: Math.max(gc.maxMs, entry.duration) };
    // Observers are told right after the collection, before much new allocation.
    if (entries.some(isFullCollection)) liveHeapBytes = getHeapStatistics().used_heap_size;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const seconds = (nanoseconds: number) => (Number.isFinite(nanoseconds) ? nanoseconds / 1e9 : 0);
  return {
    takeWindow() {
      const window = {
        lagP99Seconds: seconds(lag.percentile(99)),
        lagMaxSeconds: seconds(lag.max),
        gcPauses: gc.count,
        gcPauseSeconds: gc.totalMs / 1000,
        gcPauseMaxSeconds: gc.maxMs / 1000,
        liveHeapBytes,
      };
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
