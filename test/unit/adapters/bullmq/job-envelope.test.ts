import { describe, expect, it } from 'vitest';
import { envelopesUnderCurrentTrace, openEnvelope } from '../../../../src/adapters/bullmq/job-envelope.js';

describe('BullMQ job envelope', () => {
  it('keeps the data as it is and carries no trace context when nothing is traced (OpenTelemetry off)', () => {
    const envelope = envelopesUnderCurrentTrace<{ batchId: string; index: number }>()({ batchId: 'b1', index: 3 });
    expect(envelope).toEqual({ data: { batchId: 'b1', index: 3 } });
    expect(openEnvelope(JSON.parse(JSON.stringify(envelope)))).toEqual({ data: { batchId: 'b1', index: 3 }, trace: undefined });
  });

  it('reads the trace context stored beside the data as plain strings', () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(openEnvelope({ data: { n: 1 }, traceparent, tracestate: 'vendor=1' })).toEqual({ data: { n: 1 }, trace: { traceparent, tracestate: 'vendor=1' } });
    expect(openEnvelope({ data: null, traceparent })).toEqual({ data: null, trace: { traceparent } });
    // Not a string: no context (never an exception in the worker).
    expect(openEnvelope({ data: 1, traceparent: 42 })).toEqual({ data: 1, trace: undefined });
  });

  it('reads a job stored before envelopes as its own data', () => {
    expect(openEnvelope({ batchId: 'b1', index: 0 })).toEqual({ data: { batchId: 'b1', index: 0 }, trace: undefined });
    expect(openEnvelope({})).toEqual({ data: {}, trace: undefined });
    // A `data` key beside keys of its own: the domain's object, not an envelope.
    expect(openEnvelope({ data: 'x', tag: 'y' })).toEqual({ data: { data: 'x', tag: 'y' }, trace: undefined });
    expect(openEnvelope('text')).toEqual({ data: 'text', trace: undefined });
    expect(openEnvelope([1])).toEqual({ data: [1], trace: undefined });
  });
});
