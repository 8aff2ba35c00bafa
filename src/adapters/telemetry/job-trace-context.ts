import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * The W3C trace context of the code that enqueued a job, as plain strings: job data crosses
 * processes as JSON (BullMQ stores it in Redis), so no OpenTelemetry object is kept in it.
 */
export interface JobTraceContext {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/**
 * The current trace context (the HTTP request's span when a request enqueues), or undefined when
 * there is none to carry: no span is active, or OpenTelemetry is not started (no propagator).
 */
export function captureJobTraceContext(): JobTraceContext | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const traceparent = carrier['traceparent'];
  if (traceparent === undefined) return undefined;
  const tracestate = carrier['tracestate'];
  return tracestate === undefined || tracestate === '' ? { traceparent } : { traceparent, tracestate };
}

/** Only well-formed strings are taken back from stored job data (anything else reads as no context). */
export function jobTraceContextOf(value: { readonly traceparent?: unknown; readonly tracestate?: unknown }): JobTraceContext | undefined {
  if (typeof value.traceparent !== 'string' || value.traceparent === '') return undefined;
  return typeof value.tracestate === 'string' && value.tracestate !== ''
    ? { traceparent: value.traceparent, tracestate: value.tracestate }
    : { traceparent: value.traceparent };
}

export interface JobSpanAttributes {
  readonly system: 'bullmq' | 'in-process';
  readonly queue: string;
  readonly jobId: string;
  readonly attempt: number;
}

/**
 * Runs one delivery of a job inside a `process {queue}` CONSUMER span (messaging semantic
 * conventions) whose parent is the context the job was enqueued under: a batch submit and each of
 * its items (the item's GenAI span, the `llm.call` record it publishes and that record's analytics
 * insert) are one trace, in process and across BullMQ workers alike. Every attempt is a span of its
 * own under the same parent. A job enqueued without a trace context (a schedule's tick, a worker's
 * resume) starts a trace of its own. No-op spans when OpenTelemetry is off.
 */
export function processInJobTrace<T>(carried: JobTraceContext | undefined, attributes: JobSpanAttributes, handle: () => Promise<T>): Promise<T> {
  const parent = carried === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, { ...carried });
  const span = trace.getTracer('switchyard-jobs').startSpan(
    `process ${attributes.queue}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': attributes.system === 'bullmq' ? 'bullmq' : 'switchyard.in_process',
        'messaging.operation.type': 'process',
        'messaging.operation.name': 'process',
        'messaging.destination.name': attributes.queue,
        'messaging.message.id': attributes.jobId,
        'switchyard.job.attempt': attributes.attempt,
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
