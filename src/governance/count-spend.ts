import type { EventEnvelope } from '../events/event-envelope.js';
import type { UsageStore } from '../ports/state-store.js';

/**
 * Counts a keyed model call's tokens and cost against its API key, from its `llm.call` event: the
 * very cost the analytics report (priced from the registry when the record was made), so the
 * spend enforcement reads and the spend analytics show cannot disagree. Called twice per event by
 * design (by the service as the call ends, and by the sr-windows worker from the spine, which
 * reconciles calls of a replica that died first); the store counts each event id once.
 */
export async function countSpend(usage: UsageStore, event: EventEnvelope<'llm.call'>): Promise<'counted' | 'already-counted' | 'not-keyed' | 'cache-hit'> {
  const keyId = event.payload.apiKeyId;
  if (keyId === null || keyId === undefined) return 'not-keyed';
  // An answer from the response cache spent nothing upstream: it costs 0 and its tokens were no
  // provider's, so neither the budget nor `tpm` counts it (the request itself counted for `rpm`).
  if (event.payload.cacheHit === true) return 'cache-hit';
  const spend = { eventId: event.id, tokens: event.payload.inputTokens + event.payload.outputTokens, costUsd: event.payload.costUsd, atMs: event.occurredAt };
  const endUser = event.payload.endUser;
  const counted = await usage.recordSpend(keyId, spend, endUser === null || endUser === undefined ? undefined : endUser);
  return counted ? 'counted' : 'already-counted';
}
