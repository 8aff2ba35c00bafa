import type { EventEnvelope } from '../src/events/event-envelope.js';
import { countSpend } from '../src/governance/count-spend.js';
import type { LlmCallRecorder } from '../src/generation/llm-call-record.js';
import { llmCallPublisher } from '../src/generation/publish-llm-calls.js';
import type { Logger } from '../src/logging/logger.js';
import type { EventBus } from '../src/ports/event-bus.js';
import type { PendingSpend } from '../src/governance/pending-spend.js';
import type { UsageStore } from '../src/ports/state-store.js';

/**
 * The service's model-call recorder: every call an `llm.call` event on the bus, and a call made
 * with an API key counted against that key's limits as it ends (before its request can release its
 * budget reservation). A count that fails now is reconciled by the sr-windows worker from the event.
 */
export function serviceCallRecorder(bus: EventBus, usage: UsageStore, pending: PendingSpend, logger?: Logger): LlmCallRecorder {
  const countNow = (event: EventEnvelope<'llm.call'>): void => {
    if (event.payload.apiKeyId === null || event.payload.apiKeyId === undefined) return;
    const counted = countSpend(usage, event).catch((error: unknown) => logger?.warn({ err: error, eventId: event.id }, 'spend not counted now; the sr-windows worker reconciles it'));
    // The request releases its budget reservation only after this count has landed.
    if (event.payload.requestId !== null) pending.track(event.payload.requestId, counted);
  };
  return llmCallPublisher(bus, { ...(logger !== undefined ? { logger } : {}), onEvent: countNow });
}
