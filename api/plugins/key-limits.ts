import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Credential } from './authentication.js';
import { KeyAdmission, defaultLeaseTtlMs, type KeyAdmissionDeps, type LimitScope } from '../../src/governance/admit-key-request.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { routeConfigOf } from '../route-config.js';
import { requestEndUser } from '../wire/call-attribution.js';

export { defaultLeaseTtlMs };

/**
 * Which of a key's limits a route is under (its `config.keyLimits`). `llm` routes get all of them,
 * and `reserveUsd` prices the request for the budget; `payment` routes get `rpm` and
 * `max_concurrent` (they spend no tokens).
 */
export type KeyLimitsRoute =
  | { readonly kind: 'payment' }
  | { readonly kind: 'llm'; readonly reserveUsd?: (request: FastifyRequest) => number | Promise<number> };

declare module 'fastify' {
  interface FastifyContextConfig {
    keyLimits?: KeyLimitsRoute;
  }
}

export interface KeyLimitsOptions extends Omit<KeyAdmissionDeps, 'usage' | 'configs'> {
  readonly state: Pick<StateStore, 'usage' | 'configs'>;
}

/**
 * Per-key limits (issue 14, src/governance/admit-key-request.ts) on every route that declares
 * `keyLimits`: after authentication and validation, before the handler (so before any provider
 * call), the request is admitted or refused with 429 and `Retry-After`. Its lease is released
 * once its response is finished or its client has gone. Session credentials are not limited.
 * Returns the admission, for chat turns over WebSocket (api/plugins/chat-websocket.ts).
 */
export function registerKeyLimits(app: FastifyInstance, options: KeyLimitsOptions): KeyAdmission {
  const admission = new KeyAdmission({ ...options, usage: options.state.usage, configs: options.state.configs });
  // Synchronous for what it does not limit (sessions, routes without keyLimits): no promise per request.
  app.addHook('preHandler', (request, reply, done) => {
    const route = routeConfigOf(request).keyLimits;
    const credential = request.credential;
    if (route === undefined || credential === null || credential.kind !== 'api_key') return done();
    return admitKey(admission, request, reply, route, credential);
  });
  // The same admission (one spend counter, one settlement) for what is not a route: WebSocket chat turns.
  return admission;
}

/** Admits the key's request or refuses it (429); its lease goes back when the answer is finished or the client left. */
async function admitKey(
  admission: KeyAdmission,
  request: FastifyRequest,
  reply: FastifyReply,
  route: KeyLimitsRoute,
  credential: Extract<Credential, { kind: 'api_key' }>,
): Promise<void> {
  const reserve = route.kind === 'llm' ? route.reserveUsd : undefined;
  const scope: LimitScope = route.kind === 'payment' ? route : { kind: 'llm', ...(reserve !== undefined ? { reserveUsd: () => reserve(request) } : {}) };
  const lease = await admission.admit(
    { keyId: credential.keyId, merchantId: credential.merchantId, policy: credential.policy },
    scope,
    String(request.id),
    request.log,
    route.kind === 'llm' ? requestEndUser(request) : undefined,
  );
  if (lease === undefined) return;
  // 'finish' once the answer is written (streams included, which bypass fastify's hooks); 'close'
  // when the client left first.
  reply.raw.once('finish', lease.release);
  reply.raw.once('close', lease.release);
}
