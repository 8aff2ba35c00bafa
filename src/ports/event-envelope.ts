/*
 * The envelope the EventBus carries and the topic each event type travels on: the port's record
 * types (ARCHITECTURE.md: a port's record types belong to the port). Building events (createEvent)
 * and keying them (partitionKeyOf) stay in src/events/event-envelope.ts, which re-exports these.
 */
import type {
  ApiRequestedV1,
  AutopilotCalibratedV1,
  AuthAttemptedV1,
  DecisionCreatedV1,
  DecisionFailedV1,
  FeedbackReceivedV1,
  GuardAppliedV1,
  LlmCallV1,
  RuleEvaluatedV1,
  ScoreUpdatedV1,
  ToolExecutedV1,
} from '../generated/schema-types.js';

/** Payload type per event type, at the version we publish. Consumers check `version` first. */
export interface EventPayloads {
  'decision.created': DecisionCreatedV1;
  'decision.failed': DecisionFailedV1;
  'feedback.received': FeedbackReceivedV1;
  'score.updated': ScoreUpdatedV1;
  'api.requested': ApiRequestedV1;
  'rule.evaluated': RuleEvaluatedV1;
  'llm.call': LlmCallV1;
  'auth.attempted': AuthAttemptedV1;
  'autopilot.calibrated': AutopilotCalibratedV1;
  'tool.executed': ToolExecutedV1;
  'guard.applied': GuardAppliedV1;
}

export type EventType = keyof EventPayloads;

/** The wire envelope of every event (ARCHITECTURE.md, Event rules), discriminated by `type`. */
export type EventEnvelope<T extends EventType = EventType> = {
  [K in T]: {
    readonly id: string;
    readonly type: K;
    readonly version: number;
    readonly occurredAt: number;
    readonly merchantId: string;
    readonly payload: EventPayloads[K];
  };
}[T];

/** Which topic each event type travels on. Routing events share a topic so that, keyed by payment,
 * a payment's decision is always consumed before its feedback. */
export const topicOf = {
  'decision.created': 'routing',
  'decision.failed': 'routing',
  'feedback.received': 'routing',
  'score.updated': 'scores',
  'api.requested': 'api',
  // Keyed by payment (or merchant) like decisions; analytics is its only consumer.
  'rule.evaluated': 'routing',
  // Keyed by merchant: per-merchant order is all the LLM analytics (and future budgets) need.
  'llm.call': 'llm',
  // Audit trail, keyed by merchant; the analytics sink (the only consumer of 'api') stores it.
  // Sharing the topic keeps the set of topics (and of Kafka topics to create) unchanged.
  'auth.attempted': 'api',
  // A run record, keyed by merchant; like the audit trail, only the analytics sink reads it.
  'autopilot.calibrated': 'api',
  // Tool executions are audit trail too (keyed by merchant; only the analytics sink reads 'api').
  'tool.executed': 'api',
  // Guardrail outcomes (issue 38): evidence like the audit trail, keyed by merchant; only the analytics sink reads 'api'.
  'guard.applied': 'api',
} as const satisfies Record<EventType, string>;

export type Topic = (typeof topicOf)[EventType];
export const topics: readonly Topic[] = ['routing', 'scores', 'api', 'llm'];
