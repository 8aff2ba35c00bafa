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

/** Payload validators by `type@version`; a version we do not know is rejected, not guessed at. */
const payloads: Readonly<Record<string, ValidateFunction>> = {
  'decision.created@1': ajv.compile(decisionCreated),
  'decision.failed@1': ajv.compile(decisionFailed),
  'feedback.received@1': ajv.compile(feedbackReceived),
  'score.updated@1': ajv.compile(scoreUpdated),
  'api.requested@1': ajv.compile(apiRequested),
  'rule.evaluated@1': ajv.compile(ruleEvaluated),
  'llm.call@1': ajv.compile(llmCall),
  'auth.attempted@1': ajv.compile(authAttempted),
  'autopilot.calibrated@1': ajv.compile(autopilotCalibrated),
  'tool.executed@1': ajv.compile(toolExecuted),
  'guard.applied@1': ajv.compile(guardApplied),
} satisfies Record<`${EventType}@1`, ValidateFunction>;

/**
 * Checks an envelope and its payload against schemas/events. Called on publish (our own bug
 * surfaces at the producer) and on consume (a foreign or corrupted message never reaches a handler).
 */
export function validateEvent(value: unknown): asserts value is EventEnvelope {
  if (!envelope(value)) {
    throw new SwitchyardError('SY_EVENT_INVALID', { details: { errors: ajv.errorsText(envelope.errors) } });
  }
  const event = value as unknown as EventEnvelope;
  const check = payloads[`${event.type}@${event.version}`];
  if (check === undefined) {
    throw new SwitchyardError('SY_EVENT_INVALID', { details: { type: event.type, version: event.version, errors: 'unknown version' } });
  }
  if (!check(event.payload)) {
    throw new SwitchyardError('SY_EVENT_INVALID', { details: { type: event.type, id: event.id, errors: ajv.errorsText(check.errors) } });
  }
}
