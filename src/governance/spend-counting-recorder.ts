import type { EventEnvelope } from '../events/event-envelope.js';
import type { LlmCallRecorder } from '../generation/llm-call-record.js';
import { llmCallPublisher } from '../generation/publish-llm-calls.js';
import type { Logger } from '../logging/logger.js';
import type { EventBus } from '../ports/event-bus.js';
import type { UsageStore } from '../ports/state-store.js';
import { countSpend } from './count-spend.js';
import type { PendingSpend } from './pending-spend.js';
import type { Clock } from '../time/clock.js';

/**
 * The service's model-call recorder: every call an `llm.call` event on the bus, and a call made
 * with an API key counted against that key's limits as it ends (before its request can release its
 * budget reservation). A count that fails now is reconciled by the sr-windows worker from the
 * event; the store counts each event id once, so the spend is counted once either way. The count
 * waits until the bus has taken the event: a replica killed in between leaves a record that the
 * worker counts, never a count without a record (the spend counter and the analytics agree).
 */
export function spendCountingRecorder(bus: EventBus, usage: UsageStore, pending: PendingSpend, logger?: Logger, clock?: Clock): LlmCallRecorder {
  const countNow = (event: EventEnvelope<'llm.call'>, published: Promise<void>): void => {
    if (event.payload.apiKeyId === null || event.payload.apiKeyId === undefined) return;
    const counted = published
      .then(() => countSpend(usage, event))
      .catch((error: unknown) => logger?.warn({ err: error, eventId: event.id }, 'spend not counted now; the sr-windows worker reconciles it'));
    // The request releases its budget reservation only after this count has landed.
    if (event.payload.requestId !== null) pending.track(event.payload.requestId, counted);
  };
  // The event's time is the minute its tokens count in: the same clock the key limits read (one clock per app).
  return llmCallPublisher(bus, { ...(logger !== undefined ? { logger } : {}), ...(clock !== undefined ? { now: () => clock.now() } : {}), onEvent: countNow });
}
