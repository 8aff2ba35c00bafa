import type { FastifyInstance } from 'fastify';
import { createHistogram, PerformanceObserver } from 'node:perf_hooks';
import type { EventBus } from '../../src/ports/event-bus.js';
import type { StateStore } from '../../src/ports/state-store.js';

/**
 * Metrics: Prometheus text at GET /metrics. Counts requests by route and status, and exposes the
 * event bus's delivery health (a filling spool must be visible to alerting, not only in logs).
 *
 * @remarks Public, like /health: it carries counters only, never merchant data or credentials.
 */
export async function metricsRoutes(app: FastifyInstance, deps: { bus: EventBus; state: StateStore }): Promise<void> {
  const requests = new Map<string, number>();
  app.addHook('onResponse', async (request, reply) => {
    const key = `${request.method} ${request.routeOptions.url ?? 'unmatched'}\u0000${reply.statusCode}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
  });

  // Event-loop delay and GC pauses between two scrapes (both reset at each scrape, as Prometheus'
  // Node client does): a latency tail with a calm loop is elsewhere, a stalled loop shows here.
  // Measured by a 10 ms timer of our own: how late each tick runs is how long the loop was busy.
  // (perf_hooks' monitorEventLoopDelay reported a 60 ms stall as ~9 ms on Node 24.)
  const loop = createHistogram();
  const tickMs = 10;
  let lastTick = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    loop.record(Math.max(1, Math.round((now - lastTick - tickMs) * 1e6)));
    lastTick = now;
  }, tickMs);
  ticker.unref();
  const gc = { count: 0, totalMs: 0, maxMs: 0 };
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  app.addHook('onClose', async () => {
    clearInterval(ticker);
    gcObserver.disconnect();
  });
  const seconds = (nanoseconds: number) => (Number.isFinite(nanoseconds) ? nanoseconds / 1e9 : 0);

  app.get('/metrics', { schema: { tags: ['Health'], summary: 'Prometheus metrics' }, config: { auth: 'none' } }, async (_request, reply) => {
    const bus = deps.bus.health();
    const memory = process.memoryUsage();
    const lines = [
      '# HELP switchyard_http_requests_total HTTP requests by route and status.',
      '# TYPE switchyard_http_requests_total counter',
      ...[...requests].map(([key, count]) => {
        const [route, status] = key.split('\u0000') as [string, string];
        return `switchyard_http_requests_total{route="${route.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}",status="${status}"} ${count}`;
      }),
      '# HELP switchyard_events_published_total Events the bus has accepted (Kafka: acknowledged by the broker).',
      '# TYPE switchyard_events_published_total counter',
      `switchyard_events_published_total ${bus.published}`,
      '# HELP switchyard_event_spool_depth Events waiting in the disk spool while the broker is unreachable.',
      '# TYPE switchyard_event_spool_depth gauge',
      `switchyard_event_spool_depth ${bus.spooled}`,
      '# HELP switchyard_event_spool_full 1 while the spool is at its bound and new events are refused.',
      '# TYPE switchyard_event_spool_full gauge',
      `switchyard_event_spool_full ${bus.spoolFull ? 1 : 0}`,
      '# HELP switchyard_events_refused_total Events refused because the spool was full.',
      '# TYPE switchyard_events_refused_total counter',
      `switchyard_events_refused_total ${bus.refused}`,
      '# HELP switchyard_event_bus_retained_events Events held in process memory until every consumer group has committed them (embedded bus; 0 with Kafka).',
      '# TYPE switchyard_event_bus_retained_events gauge',
      `switchyard_event_bus_retained_events ${bus.retained}`,
      '# HELP switchyard_event_bus_connected 1 while the bus reaches its broker.',
      '# TYPE switchyard_event_bus_connected gauge',
      `switchyard_event_bus_connected ${bus.connected ? 1 : 0}`,
      '# HELP switchyard_state_store_available 1 while the state store answers.',
      '# TYPE switchyard_state_store_available gauge',
      `switchyard_state_store_available ${deps.state.isAvailable() ? 1 : 0}`,
      // Memory, under the names Prometheus' own Node clients use, so a soak or an alert can watch for growth.
      '# HELP nodejs_eventloop_lag_p99_seconds 99th percentile of the event-loop delay since the last scrape.',
      '# TYPE nodejs_eventloop_lag_p99_seconds gauge',
      `nodejs_eventloop_lag_p99_seconds ${seconds(loop.percentile(99))}`,
      '# HELP nodejs_eventloop_lag_max_seconds Longest event-loop delay since the last scrape.',
      '# TYPE nodejs_eventloop_lag_max_seconds gauge',
      `nodejs_eventloop_lag_max_seconds ${seconds(loop.max)}`,
      '# HELP nodejs_gc_pauses_since_scrape Garbage collections since the last scrape.',
      '# TYPE nodejs_gc_pauses_since_scrape gauge',
      `nodejs_gc_pauses_since_scrape ${gc.count}`,
      '# HELP nodejs_gc_pause_seconds_since_scrape Time spent in garbage-collection pauses since the last scrape.',
      '# TYPE nodejs_gc_pause_seconds_since_scrape gauge',
      `nodejs_gc_pause_seconds_since_scrape ${gc.totalMs / 1000}`,
      '# HELP nodejs_gc_pause_max_seconds Longest garbage-collection pause since the last scrape.',
      '# TYPE nodejs_gc_pause_max_seconds gauge',
      `nodejs_gc_pause_max_seconds ${gc.maxMs / 1000}`,
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${memory.rss}`,
      '# HELP nodejs_heap_size_used_bytes V8 heap in use, in bytes.',
      '# TYPE nodejs_heap_size_used_bytes gauge',
      `nodejs_heap_size_used_bytes ${memory.heapUsed}`,
      '# HELP nodejs_external_memory_bytes Memory of C++ objects bound to JavaScript (buffers), in bytes.',
      '# TYPE nodejs_external_memory_bytes gauge',
      `nodejs_external_memory_bytes ${memory.external}`,
    ];
    loop.reset();
    gc.count = 0;
    gc.totalMs = 0;
    gc.maxMs = 0;
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(`${lines.join('\n')}\n`);
  });
}
