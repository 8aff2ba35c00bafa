import { Ajv, type ValidateFunction } from 'ajv';
import envelopeSchema from '../../schemas/events/envelope.v1.json' with { type: 'json' };
import paymentDimensions from '../../schemas/events/payment-dimensions.v1.json' with { type: 'json' };
import decisionCreated from '../../schemas/events/decision.created.v1.json' with { type: 'json' };
import decisionFailed from '../../schemas/events/decision.failed.v1.json' with { type: 'json' };
import feedbackReceived from '../../schemas/events/feedback.received.v1.json' with { type: 'json' };
import scoreUpdated from '../../schemas/events/score.updated.v1.json' with { type: 'json' };
import apiRequested from '../../schemas/events/api.requested.v1.json' with { type: 'json' };
import llmCall from '../../schemas/events/llm.call.v1.json' with { type: 'json' };
import ruleEvaluated from '../../schemas/events/rule.evaluated.v1.json' with { type: 'json' };
import authAttempted from '../../schemas/events/auth.attempted.v1.json' with { type: 'json' };
import autopilotCalibrated from '../../schemas/events/autopilot.calibrated.v1.json' with { type: 'json' };
import toolExecuted from '../../schemas/events/tool.executed.v1.json' with { type: 'json' };
import guardApplied from '../../schemas/events/guard.applied.v1.json' with { type: 'json' };
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { EventEnvelope, EventType } from './event-envelope.js';

const ajv = new Ajv({ allErrors: false });
ajv.addSchema(paymentDimensions);
const envelope = ajv.compile(envelopeSchema);

/** Payload schemas of version 1, one per event type. */
const version1 = {
  'decision.created': decisionCreated,
  'decision.failed': decisionFailed,
  'feedback.received': feedbackReceived,
  'score.updated': scoreUpdated,
  'api.requested': apiRequested,
  'rule.evaluated': ruleEvaluated,
  'llm.call': llmCall,
  'auth.attempted': authAttempted,
  'autopilot.calibrated': autopilotCalibrated,
  'tool.executed': toolExecuted,
  'guard.applied': guardApplied,
} satisfies Record<EventType, object>;

/**
 * Payload validators by type, then version; a version we do not know is rejected, not guessed at.
 * A map looked up by the event's own `type` string, not an object keyed by a `type@version` made
 * per event: that key was new on every publish, copied and hashed each time. Each validator is
 * compiled on its type's first event: compiling all eleven cost every process that loads this
 * module about 0.1 s of CPU, and most processes see a few types.
 */
const payloads: ReadonlyMap<string, ReadonlyMap<number, () => ValidateFunction>> = new Map(
  Object.entries(version1).map(([type, schema]) => [type, new Map([[1, compiledOnce(schema)]])]),
);

function compiledOnce(schema: object): () => ValidateFunction {
  let compiled: ValidateFunction | undefined;
  return () => {
    compiled ??= ajv.compile(schema);
    return compiled;
  };
}

/**
 * Checks an envelope and its payload against schemas/events. Called on publish (our own bug
 * surfaces at the producer) and on consume (a foreign or corrupted message never reaches a handler).
 */
export function validateEvent(value: unknown): asserts value is EventEnvelope {
  if (!envelope(value)) {
    throw new SwitchyardError('SY_EVENT_INVALID', { details: { errors: ajv.errorsText(envelope.errors) } });
  }
  const event = value as unknown as EventEnvelope;
  const check = payloads.get(event.type)?.get(event.version)?.();
  if (check === undefined) {
    throw new SwitchyardError('SY_EVENT_INVALID', { details: { type: event.type, version: event.version, errors: 'unknown version' } });
  }
  if (!check(event.payload)) {
    throw new SwitchyardError('SY_EVENT_INVALID', { details: { type: event.type, id: event.id, errors: ajv.errorsText(check.errors) } });
  }
}
