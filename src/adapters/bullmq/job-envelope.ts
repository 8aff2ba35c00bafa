import { captureJobTraceContext, jobTraceContextOf, type JobTraceContext } from '../telemetry/job-trace-context.js';

/**
 * A job's data as the BullMQ adapter stores it in Redis: the domain's data, and beside it the W3C
 * trace context of the code that enqueued it as plain strings (absent when OpenTelemetry is off or
 * nothing was being traced). The domain's data keeps its shape; the processor sees only `data`.
 */
export interface JobEnvelope<T> {
  readonly data: T;
  readonly traceparent?: string;
  readonly tracestate?: string;
}

const envelopeKeys = new Set(['data', 'traceparent', 'tracestate']);

/** Wraps data in envelopes carrying the trace context current now (captured once, for every job of one enqueue). */
export function envelopesUnderCurrentTrace<T>(): (data: T) => JobEnvelope<T> {
  const trace = captureJobTraceContext();
  return (data) => ({ data, ...trace });
}

/**
 * What a stored job carries. A job stored before envelopes (its data the domain's own object, as
 * the adapter wrote it until then) is read as that data with no trace context: an envelope is an
 * object with a `data` key and no key but `data`, `traceparent` and `tracestate`.
 */
export function openEnvelope(stored: unknown): { readonly data: unknown; readonly trace: JobTraceContext | undefined } {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored) || !Object.hasOwn(stored, 'data')) return { data: stored, trace: undefined };
  if (!Object.keys(stored).every((key) => envelopeKeys.has(key))) return { data: stored, trace: undefined };
  const envelope = stored as JobEnvelope<unknown>;
  return { data: envelope.data, trace: jobTraceContextOf(envelope) };
}
