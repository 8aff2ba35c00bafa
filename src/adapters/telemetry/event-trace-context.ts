import { context, propagation, ProxyTracerProvider, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Link } from '@opentelemetry/api';
import { topicOf, type EventEnvelope } from '../../ports/event-envelope.js';

/**
 * W3C trace context (`traceparent`, `tracestate`) carried beside an event, not in it: the envelope
 * keeps its schema (schemas/events/envelope.v1.json) and its bytes, and the Kafka bus writes the
 * context as record headers. Held by event object (the in-process bus hands consumers the very
 * object published; the Kafka consumer attaches what the record's headers said).
 */
const carried = new WeakMap<EventEnvelope, Readonly<Record<string, string>>>();

/**
 * Captures the current trace context (the HTTP request's span, a job's) for `events` at publish.
 * Without a registered propagator (OpenTelemetry not started) nothing is captured.
 */
export function captureTraceContext(events: readonly EventEnvelope[]): void {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (carrier['traceparent'] === undefined) return;
  for (const event of events) if (!carried.has(event)) carried.set(event, carrier);
}

/** The trace headers an event was published with, if any (Kafka record headers). */
export function traceHeadersOf(event: EventEnvelope): Readonly<Record<string, string>> | undefined {
  return carried.get(event);
}

/** Record headers as the trace context of a consumed event (only `traceparent` / `tracestate`). */
export function attachTraceHeaders(event: EventEnvelope, headers: ReadonlyMap<Buffer, Buffer> | undefined): void {
  if (headers === undefined || headers.size === 0) return;
  const carrier: Record<string, string> = {};
  for (const [key, value] of headers) {
    const name = key.toString('utf8').toLowerCase();
    if (name === 'traceparent' || name === 'tracestate') carrier[name] = value.toString('utf8');
  }
  if (carrier['traceparent'] !== undefined) carried.set(event, carrier);
}

export interface ConsumeSpanAttributes {
  readonly system: 'kafka' | 'in-process';
  readonly group: string;
}

const tracerName = 'switchyard-events';

/**
 * Whether a tracer provider is registered (OpenTelemetry started). The global provider is a proxy
 * until one is set; anything else is a provider someone registered.
 */
function tracing(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer(tracerName) !== undefined;
}

/** `process {topic}`, or `process` for events of several topics (one Kafka consumer on several topics). */
function topicOfAll(events: readonly EventEnvelope[]): string | undefined {
  const topics = new Set(events.map((event) => topicOf[event.type]));
  return topics.size === 1 ? [...topics][0] : undefined;
}

/**
 * Runs a consumer's handler for one batch inside `process {topic}` CONSUMER spans (messaging
 * semantic conventions), one per trace the batch's events came from, each the child of that
 * trace's publisher context and linked to the batch's other spans: a batch (the analytics sink
 * inserts hundreds of rows at once) serves many requests, and each request and what its events
 * caused downstream (the analytics insert of an `llm.call`, the success-rate update of a
 * decision) stay one trace. Events without a trace context share one root span. The topic is the
 * bus's (`llm`, `routing`, …, no Kafka prefix). No-op spans when OpenTelemetry is off.
 */
export function processInEventTrace<T>(events: readonly EventEnvelope[], attributes: ConsumeSpanAttributes, handle: () => Promise<T>): Promise<T> {
  // Without a tracer provider every span below is a no-op: the batch goes straight to its handler
  // (no span objects, attribute maps and contexts per batch on the embedded bus's hot path).
  if (events.length === 0 || !tracing()) return handle();
  const byTrace = new Map<string, { readonly headers: Readonly<Record<string, string>> | undefined; readonly events: EventEnvelope[] }>();
  for (const event of events) {
    const headers = carried.get(event);
    const key = headers?.['traceparent'] ?? '';
    const group = byTrace.get(key) ?? { headers, events: [] };
    group.events.push(event);
    byTrace.set(key, group);
  }
  const tracer = trace.getTracer(tracerName);
  const spans = [...byTrace.values()].map(({ headers, events: traced }) => {
    const parent = headers === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, headers);
    const topic = topicOfAll(traced);
    const span = tracer.startSpan(
      topic === undefined ? 'process' : `process ${topic}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': attributes.system === 'kafka' ? 'kafka' : 'switchyard.in_process',
          'messaging.operation.type': 'process',
          'messaging.operation.name': 'process',
          ...(topic !== undefined ? { 'messaging.destination.name': topic } : {}),
          'messaging.consumer.group.name': attributes.group,
          'messaging.batch.message_count': traced.length,
          'switchyard.batch.message_count': events.length,
        },
      },
      parent,
    );
    return { span, parent };
  });
  // Each span is linked to the others: they are one piece of work.
  if (spans.length > 1)
    for (const { span } of spans) span.addLinks(spans.filter((other) => other.span !== span).map((other): Link => ({ context: other.span.spanContext() })));
  const first = spans[0]!;
  return context.with(trace.setSpan(first.parent, first.span), async () => {
    try {
      return await handle();
    } catch (error) {
      for (const { span } of spans) {
        span.setAttribute('error.type', error instanceof Error ? error.name : '_OTHER');
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      throw error;
    } finally {
      for (const { span } of spans) span.end();
    }
  });
}
