import { describe, expect, it } from 'vitest';
import { createEvent } from '../../../src/events/event-envelope.js';
import { validateEvent } from '../../../src/events/validate-event.js';

const failed = createEvent(
  'decision.failed',
  'm1',
  { paymentId: 'p1', requestId: 'r1', errorCode: 'NO_GATEWAY', errorMessage: 'none left', stage: 'request_failed' },
  1_700_000_000_000,
);

function refusal(event: unknown): unknown {
  try {
    validateEvent(event);
  } catch (error) {
    return error;
  }
  throw new Error('validateEvent accepted the event');
}

describe('validateEvent', () => {
  it('accepts an event of a known type and version', () => {
    expect(() => validateEvent(failed)).not.toThrow();
  });

  it('refuses a version it does not know, naming the type and version', () => {
    expect(refusal({ ...failed, version: 2 })).toMatchObject({
      code: 'SY_EVENT_INVALID',
      details: { type: 'decision.failed', version: 2, errors: 'unknown version' },
    });
  });

  it("checks the payload against its own type's schema", () => {
    expect(refusal({ ...failed, payload: { paymentId: 'p1' } })).toMatchObject({ code: 'SY_EVENT_INVALID', details: { type: 'decision.failed' } });
    // A valid decision.failed payload is not a valid api.requested one.
    expect(refusal({ ...failed, type: 'api.requested' })).toMatchObject({ code: 'SY_EVENT_INVALID', details: { type: 'api.requested' } });
  });

  it('refuses a type outside the envelope, prototype names included', () => {
    for (const type of ['decision.unknown', '__proto__', 'constructor']) expect(refusal({ ...failed, type })).toMatchObject({ code: 'SY_EVENT_INVALID' });
  });
});
