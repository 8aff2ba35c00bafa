import { createEvent, type EventEnvelope, type EventPayloads } from '../events/event-envelope.js';
import { derivedUuidV7, uuidV7 } from '../events/uuid-v7.js';
import type { Logger } from '../logging/logger.js';
import type { EventBus } from '../ports/event-bus.js';
import { callApiOf, type LlmCallRecord, type LlmCallRecorder } from './llm-call-record.js';

/**
 * The merchant of a record made outside any merchant's request (a library or CLI call in a
 * process that publishes). Kept, not dropped: nothing on the bus is lost silently.
 */
export const unattributedMerchant = '_unattributed';

/** The `llm.call` payload of a record: every field present, null where absent (no text, ever). */
export function llmCallPayload(record: LlmCallRecord): EventPayloads['llm.call'] {
  const { attribution } = record;
  return {
    provider: record.provider,
    model: record.model,
    operation: record.operation,
    surface: attribution.surface ?? 'library',
    inputTokens: record.inputTokens,
    outputTokens: record.outputTokens,
    costUsd: record.costUsd,
    cacheReadTokens: record.cacheReadTokens ?? null,
    cacheWriteTokens: record.cacheWriteTokens ?? null,
    cacheWrite1hTokens: record.cacheWrite1hTokens ?? null,
    reasoningTokens: record.reasoningTokens ?? null,
    promptCacheSavedUsd: record.promptCacheSavedUsd ?? null,
    latencyMs: record.latencyMs,
    timeToFirstTokenMs: record.timeToFirstTokenMs ?? null,
    outcome: record.outcome,
    errorClass: record.errorClass ?? null,
    fallbackHops: record.fallbackHops,
    userId: attribution.userId ?? null,
    requestId: attribution.requestId ?? null,
    batchId: attribution.batchId ?? null,
    jobId: attribution.jobId ?? null,
    apiKeyId: attribution.apiKeyId ?? null,
    billedTo: attribution.ownCredentialProviders?.includes(record.provider) === true ? 'merchant' : 'operator',
    endUser: attribution.endUser ?? null,
    routeGroup: attribution.routeGroup ?? null,
    routeApproach: attribution.routeApproach ?? null,
    eliminatedCandidates: attribution.eliminatedCandidates !== undefined ? [...attribution.eliminatedCandidates] : null,
    cacheHit: record.cacheHit === true ? true : null,
    savedCostUsd: record.cacheHit === true ? (record.savedCostUsd ?? null) : null,
    api: callApiOf(attribution) ?? null,
    ...(attribution.purpose !== undefined ? { purpose: attribution.purpose } : {}),
  };
}

/**
 * The event id of a record. A batch job's failed attempts get ids derived from the job and the
 * attempt (numbered by the queue), so a failure republished for the same attempt counts once. A
 * successful call is always a record of its own: a job that calls the provider again (its worker
 * killed, or its answer not stored, after the first call answered) has spent twice, and the
 * analytics and the key's spend counter must both see two calls (a shared id with two timestamps
 * was two rows in ClickHouse, whose key includes the time, but one count in the spend counter).
 */
export function llmCallEventId(record: LlmCallRecord, nowMs: number): string {
  const { batchId, jobId } = record.attribution;
  if (record.outcome !== 'error' || batchId === undefined || jobId === undefined || !/^[0-9a-f-]{36}$/i.test(batchId)) return uuidV7(nowMs);
  return derivedUuidV7(batchId, `llm.call|${jobId}|${record.operation}|${record.fallbackHops}|${record.outcome}|attempt ${record.attribution.jobAttempt ?? 0}`);
}

export interface LlmCallPublisherOptions {
  readonly now?: () => number;
  readonly logger?: Logger;
  /**
   * Told of each event as it is published, synchronously (the service counts a keyed call's spend
   * here, before the request that made it can end), with a promise that settles (never rejects)
   * once the bus has taken the event (on the broker or its spool). Must not throw.
   */
  readonly onEvent?: (event: EventEnvelope<'llm.call'>, published: Promise<void>) => void;
}

/**
 * A recorder that publishes every record as an `llm.call` event. Publishing is fire-and-forget
 * for the call (a generate never waits on the bus); the bus spools while Kafka is away, and a
 * refused publish is logged, never thrown into the call.
 */
export function llmCallPublisher(bus: EventBus, options: LlmCallPublisherOptions = {}): LlmCallRecorder {
  const now = options.now ?? Date.now;
  return (record) => {
    const at = now();
    const event = createEvent('llm.call', record.attribution.merchantId ?? unattributedMerchant, llmCallPayload(record), at, llmCallEventId(record, at));
    const published = bus.publish([event]).catch((error: unknown) => {
      options.logger?.error({ err: error, eventId: event.id, provider: record.provider }, 'llm.call event could not be published');
    });
    options.onEvent?.(event, published);
  };
}
