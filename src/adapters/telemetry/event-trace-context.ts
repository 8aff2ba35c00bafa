import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Link } from '@opentelemetry/api';
import type { EventEnvelope } from '../../ports/event-envelope.js';

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
  readonly topic: string;
  readonly group: string;
}

/**
 * Runs a consumer's handler for one batch inside a `process {topic}` CONSUMER span (messaging
 * semantic conventions): the child of the first event's trace context, linked to every event's, so
 * a request and what its events caused downstream (the analytics insert of an `llm.call`, the
 * success-rate update of a decision) are one trace. A no-op span when OpenTelemetry is off.
 */
export function processInEventTrace<T>(events: readonly EventEnvelope[], attributes: ConsumeSpanAttributes, handle: () => Promise<T>): Promise<T> {
  const contexts = events.flatMap((event) => {
    const headers = carried.get(event);
    return headers === undefined ? [] : [propagation.extract(ROOT_CONTEXT, headers)];
  });
  const links: Link[] = contexts.flatMap((linked) => {
    const spanContext = trace.getSpanContext(linked);
    return spanContext === undefined ? [] : [{ context: spanContext }];
  });
  const parent = contexts[0] ?? ROOT_CONTEXT;
  const span = trace.getTracer('switchyard-events').startSpan(
    `process ${attributes.topic}`,
    {
      kind: SpanKind.CONSUMER,
      links,
      attributes: {
        'messaging.system': attributes.system === 'kafka' ? 'kafka' : 'switchyard.in_process',
        'messaging.operation.type': 'process',
        'messaging.operation.name': 'process',
        'messaging.destination.name': attributes.topic,
        'messaging.consumer.group.name': attributes.group,
        'messaging.batch.message_count': events.length,
      },
    },
    parent,
  );
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await handle();
    } catch (error) {
      span.setAttribute('error.type', error instanceof Error ? error.name : '_OTHER');
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
