import { createEvent, type EventEnvelope } from '../src/events/event-envelope.js';
import { derivedUuidV7 } from '../src/events/uuid-v7.js';
import { applyFeedback, recordDecision } from '../src/feedback/apply-feedback.js';
import { learnFromCall } from '../src/generation/gateway/learn-from-call.js';
import { countSpend } from '../src/governance/count-spend.js';
import type { Logger } from '../src/logging/logger.js';
import type { EventBus } from '../src/ports/event-bus.js';
import type { StateStore } from '../src/ports/state-store.js';
import type { RoutingDefaults } from '../src/decision/routing-defaults.js';
import type { Clock } from '../src/time/clock.js';
import { handleOf, type WorkerHandle } from './worker-handle.js';

export interface SrWindowsDeps {
  readonly bus: EventBus;
  readonly state: StateStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly defaults: RoutingDefaults;
}

export const srWindowsGroup = 'sr-windows';

/**
 * The sr-windows worker: consumes decisions (stores what feedback will need) and feedback (updates
 * the success-rate window and elimination score, idempotently), then publishes a score snapshot;
 * and the gateway's model calls routed in a route group (their candidate's window learns the outcome)
 * and made with an API key (their spend is reconciled into the key's budget counters).
 * Events of one payment share a partition, so its decision is always handled before its feedback.
 */
export async function start(deps: SrWindowsDeps): Promise<WorkerHandle> {
  const log = deps.logger.child({ worker: srWindowsGroup });
  const subscription = await deps.bus.subscribe({
    group: srWindowsGroup,
    topics: ['routing', 'llm'],
    maxBatchSize: 64,
    handler: async (batch) => {
      const snapshots: EventEnvelope[] = [];
      // Decisions are recorded a run at a time, side by side (one Redis round trip for the run);
      // whatever follows a run (a feedback of one of its payments) waits until the run is stored.
      let decisions: EventEnvelope<'decision.created'>[] = [];
      const recordDecisions = async () => {
        await Promise.all(decisions.map((decision) => recordDecision(decision, { scores: deps.state.scores, defaults: deps.defaults })));
        decisions = [];
      };
      for (const event of batch) {
        if (event.type === 'decision.created') {
          decisions.push(event);
          continue;
        }
        await recordDecisions();
        if (event.type === 'llm.call') {
          // The learning router: a gateway call routed in a route group teaches that group's windows.
          const learned = await learnFromCall(event, { scores: deps.state.scores, configs: deps.state.configs, defaults: deps.defaults });
          if (learned === 'recorded')
            log.debug({ eventId: event.id, merchantId: event.merchantId, group: event.payload.routeGroup }, 'model call outcome learned');
          // Reconciliation: a keyed call's spend counts once, whether or not its replica counted it first.
          if ((await countSpend(deps.state.usage, event)) === 'counted')
            log.debug({ eventId: event.id, merchantId: event.merchantId }, 'model call spend reconciled from the spine');
        } else if (event.type === 'feedback.received') {
          const result = await applyFeedback(event, {
            scores: deps.state.scores,
            sticky: deps.state.sticky,
            configs: deps.state.configs,
            clock: deps.clock,
            defaults: deps.defaults,
          });
          log.debug({ eventId: event.id, merchantId: event.merchantId, result: result.kind }, 'feedback applied');
          if (result.kind === 'applied' || result.kind === 'duplicate') {
            // Derived id and the feedback's own time: a redelivered feedback republishes the very same
            // snapshot (analytics' key includes the time, so the apply time would make a second row).
            snapshots.push(createEvent('score.updated', event.merchantId, result.snapshot, event.occurredAt, derivedUuidV7(event.id, 'score.updated')));
          }
        }
      }
      await recordDecisions();
      if (snapshots.length > 0) await deps.bus.publish(snapshots);
    },
  });
  log.info({ group: srWindowsGroup }, 'worker started');
  return handleOf(srWindowsGroup, subscription);
}
