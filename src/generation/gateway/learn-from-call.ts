import type { EventEnvelope } from '../../events/event-envelope.js';
import type { ConfigStore, ScoreStore } from '../../ports/state-store.js';
import type { RoutingDefaults } from '../../decision/routing-defaults.js';
import { candidateLatencyWindowKey, candidateWindowKey, defaultLatencyTargetMs, learnsLatency } from './route-group.js';

/**
 * Failures that say nothing about the candidate (the caller's mistake, a cancelled call): they do
 * not enter its window. Everything else that failed counts against it.
 */
const notTheCandidatesFault = new Set(['InvalidRequestError', 'Cancelled', 'UserConfirmationRequiredError']);

export type LearnOutcome = 'recorded' | 'duplicate' | 'not-routed' | 'not-counted' | 'unknown-group';

/**
 * The learning router's feedback: a routed call's outcome pushed onto its candidate's success-rate
 * window, idempotently by event id, as payment score feedback is (same ScoreStore, same window rule);
 * and, for a group that ranks by latency, whether it was fast onto the candidate's speed window.
 */
export async function learnFromCall(
  event: EventEnvelope<'llm.call'>,
  deps: { readonly scores: ScoreStore; readonly configs: ConfigStore; readonly defaults: RoutingDefaults },
): Promise<LearnOutcome> {
  const { routeGroup, provider, model, outcome, errorClass } = event.payload;
  if (routeGroup === null || routeGroup === undefined || event.payload.operation === 'evaluation') return 'not-routed';
  if (outcome === 'error' && notTheCandidatesFault.has(errorClass ?? '')) return 'not-counted';
  const groups = await deps.configs.get(event.merchantId, 'llmRouteGroups');
  const group = groups?.find((candidate) => candidate.name === routeGroup);
  if (group === undefined) return 'unknown-group';
  const result = await deps.scores.recordOutcome({
    windowKey: candidateWindowKey(event.merchantId, routeGroup, provider, model),
    outcome: outcome === 'success' ? 1 : 0,
    bucketSize: group.bucketSize,
    dedupeKey: `llm:${event.id}`,
    dedupeTtlSeconds: deps.defaults.feedbackDedupeTtlSeconds,
    windowTtlSeconds: deps.defaults.windowTtlSeconds,
  });
  // Speed, when the group ranks by it: a successful call within the target is fast (errors say nothing of speed).
  if (learnsLatency(group) && outcome === 'success') {
    await deps.scores.recordOutcome({
      windowKey: candidateLatencyWindowKey(event.merchantId, routeGroup, provider, model),
      outcome: event.payload.latencyMs <= (group.objectives?.latencyTargetMs ?? defaultLatencyTargetMs) ? 1 : 0,
      bucketSize: group.bucketSize,
      dedupeKey: `llm:${event.id}:fast`,
      dedupeTtlSeconds: deps.defaults.feedbackDedupeTtlSeconds,
      windowTtlSeconds: deps.defaults.windowTtlSeconds,
    });
  }
  return result.applied ? 'recorded' : 'duplicate';
}
