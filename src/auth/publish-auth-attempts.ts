import { createEvent, type EventPayloads } from '../events/event-envelope.js';
import { unattributedMerchant } from '../generation/publish-llm-calls.js';
import type { Logger } from '../logging/logger.js';
import type { EventBus } from '../ports/event-bus.js';
import type { AuthAttempt, AuthAttemptRecorder } from './auth-attempt.js';

/** Cuts a client-supplied string (user agent, email) to what the event schema allows. */
function cut(value: string | undefined | null, max: number): string | null {
  if (value === undefined || value === null) return null;
  return value.length > max ? value.slice(0, max) : value;
}

/** The `auth.attempted` payload of an attempt: every field present, null where absent; no secret. */
export function authAttemptPayload(attempt: AuthAttempt): EventPayloads['auth.attempted'] {
  const { origin } = attempt;
  return {
    credential: attempt.credential,
    outcome: attempt.outcome,
    reason: attempt.reason,
    // 320: the longest valid email address (RFC 3696 errata); a longer "email" is an attack, cut.
    subject: cut(attempt.subject, 320),
    userId: attempt.userId,
    keyId: attempt.keyId,
    sourceAddress: cut(origin.sourceAddress, 64) ?? 'unknown',
    requestId: origin.requestId ?? null,
    route: origin.route ?? null,
    userAgent: cut(origin.userAgent, 256),
    ...(attempt.action !== undefined ? { action: cut(attempt.action, 256) } : {}),
  };
}

export interface AuthAttemptPublisherOptions {
  readonly now?: () => number;
  readonly logger?: Logger;
}

/**
 * A recorder that publishes every attempt as an `auth.attempted` event (topic `api`, keyed by
 * merchant). Fire-and-forget like `llmCallPublisher`: an authentication answer never waits on the
 * bus, and a refused publish is logged with the event id, never thrown into the request.
 * An attempt that belongs to no merchant is published under `_unattributed`, which no
 * credential can read through /analytics (merchant creation refuses that id).
 */
export function authAttemptPublisher(bus: EventBus, options: AuthAttemptPublisherOptions = {}): AuthAttemptRecorder {
  const now = options.now ?? Date.now;
  return (attempt) => {
    const event = createEvent('auth.attempted', attempt.merchantId ?? unattributedMerchant, authAttemptPayload(attempt), now());
    bus.publish([event]).catch((error: unknown) => {
      options.logger?.error({ err: error, eventId: event.id, credential: attempt.credential }, 'auth.attempted event could not be published');
    });
  };
}
