import { createEvent } from '../events/event-envelope.js';
import type { Logger } from '../logging/logger.js';
import type { EventBus } from '../ports/event-bus.js';
import type { GuardSession } from './guard-session.js';

/** Whose call a session guarded, as its `guard.applied` events say. */
export interface GuardedCall {
  readonly merchantId: string;
  /** The gateway's wire or the toolkit's surface. */
  readonly surface: string;
  readonly requestId?: string | undefined;
  readonly apiKeyId?: string | undefined;
  /** The gateway route group the call was routed in, when it was. */
  readonly routeGroup?: string | undefined;
}

/** Events of calls made outside any merchant (a library call in a process that publishes): kept, not dropped. */
const unattributedMerchant = '_unattributed';

/**
 * Publishes a call's guard outcomes as `guard.applied` events (one per guard and stage that found
 * something; nothing for a call no guard had anything to say about). Fire-and-forget like the other audit
 * events: a call never waits on the bus, and a refused publish is logged with the event ids, never thrown.
 * The payload names the guard, stage, action and counts: never the text, never the vault.
 */
export function guardOutcomePublisher(bus: EventBus, options: { readonly now?: () => number; readonly logger?: Logger } = {}) {
  const now = options.now ?? Date.now;
  return (session: GuardSession, call: GuardedCall): void => {
    const outcomes = session.outcomes;
    if (outcomes.length === 0) return;
    const blocked = session.blocked;
    const at = now();
    const events = outcomes.map((outcome) =>
      createEvent(
        'guard.applied',
        call.merchantId === '' ? unattributedMerchant : call.merchantId,
        {
          guard: outcome.guard,
          stage: outcome.stage,
          action: outcome.action,
          count: outcome.count,
          score: outcome.score ?? null,
          blocked: blocked !== undefined && blocked.guard === outcome.guard && blocked.stage === outcome.stage,
          surface: call.surface,
          requestId: call.requestId ?? null,
          apiKeyId: call.apiKeyId ?? null,
          ...(call.routeGroup !== undefined ? { routeGroup: call.routeGroup } : {}),
        },
        at,
      ),
    );
    bus.publish(events).catch((error: unknown) => {
      options.logger?.error({ err: error, eventIds: events.map((event) => event.id) }, 'guard.applied events could not be published');
    });
  };
}
