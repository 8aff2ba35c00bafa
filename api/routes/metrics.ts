import type { FastifyInstance } from 'fastify';
import type { EventBus } from '../../src/ports/event-bus.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { startLoopPauseMonitor } from '../loop-pauses.js';
import type { StickyRoutingCounters } from '../../src/decision/sticky/sticky-counters.js';
import { routeConfigOf } from '../route-config.js';

/**
 * Metrics: Prometheus text at GET /metrics. Counts requests by route and status, and exposes the
 * event bus's delivery health (a filling spool must be visible to alerting, not only in logs).
 *
 * @remarks Public, like /health: it carries counters only, never merchant data or credentials.
 */
export async function metricsRoutes(app: FastifyInstance, deps: { bus: EventBus; state: StateStore; stickyCounters?: StickyRoutingCounters }): Promise<void> {
  const requests = new Map<string, number>();
  app.addHook('onResponse', (request, reply, done) => {
    const key = `${request.method} ${routeConfigOf(request).url ?? 'unmatched'}\u0000${reply.statusCode}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    done();
  });

  // Reset at each scrape, as Prometheus' Node client does.
  const pauses = startLoopPauseMonitor();
  app.addHook('onClose', async () => pauses.stop());

  app.get('/metrics', { schema: { tags: ['Health'], summary: 'Prometheus metrics' }, config: { auth: 'none' } }, async (_request, reply) => {
    const bus = deps.bus.health();
    const memory = process.memoryUsage();
    const loop = pauses.takeWindow();
    const lines = [
      '# HELP switchyard_http_requests_total HTTP requests by route and status.',
      '# TYPE switchyard_http_requests_total counter',
      ...[...requests].map(([key, count]) => {
        const [route, status] = key.split('\u0000') as [string, string];
        return `switchyard_http_requests_total{route="${route.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}",status="${status}"} ${count}`;
      }),
      ...metric('switchyard_events_published_total', 'counter', 'Events the bus has accepted (Kafka: acknowledged by the broker).', bus.published),
      ...metric('switchyard_event_spool_depth', 'gauge', 'Events waiting in the disk spool while the broker is unreachable.', bus.spooled),
      ...metric(
        'switchyard_event_spool_full',
        'gauge',
        '1 while the bus is at its bound: the spool (Kafka) refuses new events; the embedded bus makes publishers wait, then refuses.',
        bus.spoolFull ? 1 : 0,
      ),
      ...metric('switchyard_events_refused_total', 'counter', 'Events refused because the spool (Kafka) or the embedded bus was full.', bus.refused),
      ...metric(
        'switchyard_event_bus_retained_events',
        'gauge',
        'Events held in process memory until every consumer group has committed them (embedded bus; 0 with Kafka).',
        bus.retained,
      ),
      ...metric('switchyard_event_bus_connected', 'gauge', '1 while the bus reaches its broker.', bus.connected ? 1 : 0),
      ...metric('switchyard_state_store_available', 'gauge', '1 while the state store answers.', deps.state.isAvailable() ? 1 : 0),
      // Event loop, GC and memory under the names Prometheus' own Node clients use, so a soak or an alert can watch them.
      ...metric('nodejs_eventloop_lag_p99_seconds', 'gauge', '99th percentile of the event-loop delay since the last scrape.', loop.lagP99Seconds),
      ...metric('nodejs_eventloop_lag_max_seconds', 'gauge', 'Longest event-loop delay since the last scrape.', loop.lagMaxSeconds),
      ...metric('nodejs_gc_pauses_since_scrape', 'gauge', 'Garbage collections since the last scrape.', loop.gcPauses),
      ...metric('nodejs_gc_pause_seconds_since_scrape', 'gauge', 'Time spent in garbage-collection pauses since the last scrape.', loop.gcPauseSeconds),
      ...metric('nodejs_gc_pause_max_seconds', 'gauge', 'Longest garbage-collection pause since the last scrape.', loop.gcPauseMaxSeconds),
      ...metric('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', memory.rss),
      ...metric('nodejs_heap_size_used_bytes', 'gauge', 'V8 heap in use, in bytes.', memory.heapUsed),
      ...(loop.liveHeapBytes === undefined
        ? []
        : metric('switchyard_heap_live_bytes', 'gauge', 'V8 heap in use just after the latest full collection (the live set), in bytes.', loop.liveHeapBytes)),
      ...metric('nodejs_external_memory_bytes', 'gauge', 'Memory of C++ objects bound to JavaScript (buffers), in bytes.', memory.external),
      ...(deps.stickyCounters === undefined ? [] : stickyMetrics(deps.stickyCounters)),
    ];
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(`${lines.join('\n')}\n`);
  });
}

/** One metric without labels in Prometheus' text format: its HELP, TYPE and sample lines. */
function metric(name: string, type: 'counter' | 'gauge', help: string, value: number): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`];
}

/** Sticky routing's counters (docs/sticky-routing.md): decisions by outcome, and the pins that moved a payment. */
function stickyMetrics(counters: StickyRoutingCounters): string[] {
  return [
    '# HELP switchyard_sticky_routing_decisions_total Decisions with sticky routing on for a named customer, by what the lookup did.',
    '# TYPE switchyard_sticky_routing_decisions_total counter',
    ...[...counters.decisions()].map(([outcome, count]) => `switchyard_sticky_routing_decisions_total{outcome="${outcome}"} ${count}`),
    ...metric('switchyard_sticky_routing_overrides_total', 'counter', 'Sticky pins that replaced the gateway the decision had.', counters.overrides()),
  ];
}
