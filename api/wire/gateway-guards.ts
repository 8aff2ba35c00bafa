import type { FastifyReply, FastifyRequest } from 'fastify';
import { routeGroupsOf } from '../../src/generation/gateway/gateway-router.js';
import { guardRequestBody } from '../../src/generation/gateway/guard-request-body.js';
import type { NativeWire } from '../../src/generation/native-wire.js';
import { GuardrailBlocked } from '../../src/guardrails/guardrail-blocked.js';
import { guardrailHeader, type GuardrailResolver } from '../../src/guardrails/guardrail-resolver.js';
import type { GuardSession } from '../../src/guardrails/guard-session.js';
import type { GuardedCall } from '../../src/guardrails/publish-guard-outcomes.js';
import { type GuardChecks, runGuardChecks } from '../../src/guardrails/run-guard-checks.js';
import type { ConfigStore } from '../../src/ports/state-store.js';
import { type RouteGroup, routeGroupNamePattern } from '../../src/ports/state/route-group.js';
import { credentialMerchantOf, credentialOf } from '../plugins/authentication.js';

/**
 * Where a call's guard outcomes go once its response has been sent (the `guard.applied` events), with
 * the route group the request's model named, when it named one of the merchant's.
 */
export type GuardEvidence = (session: GuardSession, request: FastifyRequest, surface: string, routeGroup?: string) => void;

export interface GatewayGuardDeps {
  readonly guardrails: GuardrailResolver;
  readonly evidence?: GuardEvidence | undefined;
  /** The provider calls of the optional moderation and injection-judge guards (only awaited when a policy has them). */
  readonly checks?: GuardChecks | undefined;
  /**
   * The merchant's route groups (`llmRouteGroups`), so the evidence names the group a call was made in (a refused call included);
   * read from the store's held copy when it has one (the caching decorator's), as the router reads them.
   */
  readonly configs?: Pick<ConfigStore, 'get' | 'held'> | undefined;
}

/**
 * The input stage of a gateway request, before any provider call: the session of the caller's guards
 * (defaults, merchant, key, route group, `x-switchyard-guardrails`), the body with its texts guarded, and a
 * refusal (`GuardrailBlocked`, 400 in the route's own error shape, naming the guard) when a guard blocks.
 * The session's outcomes are handed to `evidence` once the response has gone (the stream's end included).
 */
export async function guardGatewayRequest<T>(
  deps: GatewayGuardDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  wire: NativeWire,
  body: T,
  model: string,
  options: { readonly checks?: boolean } = {},
): Promise<{ readonly session: GuardSession; readonly body: T }> {
  const scope = guardScopeOf(request, model);
  const evidence = deps.evidence;
  // Looked up beside the session (not after the answer), so the evidence is published as soon as the response has gone.
  const [session, routeGroup] = await Promise.all([
    deps.guardrails.sessionFor(scope),
    evidence !== undefined && deps.configs !== undefined && scope.merchantId !== '' ? routeGroupNamed(deps.configs, scope.merchantId, model) : undefined,
  ]);
  if (evidence !== undefined) {
    // Once the response has gone (a stream's end included): 'finish' when it was sent whole, 'close' when the client left first.
    let told = false;
    const tell = () => {
      if (told) return;
      told = true;
      evidence(session, request, wire, routeGroup);
    };
    reply.raw.once('finish', tell);
    reply.raw.once('close', tell);
  }
  const guarded = guardRequestBody(wire, body as Readonly<Record<string, unknown>>, session) as T;
  // Moderation and the judge are provider calls: awaited only when the caller's policy has them.
  if (session.policy.checksAsync && options.checks !== false && session.blocked === undefined) {
    await runGuardChecks(session, deps.checks, { merchantId: scope.merchantId, apiKeyId: scope.apiKeyId, requestId: String(request.id) });
  }
  const blocked = session.blocked;
  if (blocked !== undefined) throw new GuardrailBlocked(blocked);
  return { session, body: guarded };
}

/** Evidence that publishes a gateway call's outcomes (`guard.applied`) with the request's merchant, key and id, and the route group its model named. */
export function publishedGuardEvidence(publish: (session: GuardSession, call: GuardedCall) => void): GuardEvidence {
  return (session, request, surface, routeGroup) => {
    const scope = guardScopeOf(request, undefined);
    publish(session, { merchantId: scope.merchantId, surface, requestId: request.id, apiKeyId: scope.apiKeyId, routeGroup });
  };
}

/**
 * `model` when it names one of the merchant's route groups, without a promise while the store holds them;
 * a failed look-up leaves the evidence without one rather than failing the call.
 */
export function routeGroupNamed(
  configs: Pick<ConfigStore, 'get' | 'held'>,
  merchantId: string,
  model: string,
): string | undefined | Promise<string | undefined> {
  // `provider/model` and other names no group can have need no look-up.
  if (!routeGroupNamePattern.test(model)) return undefined;
  const named = (groups: readonly RouteGroup[]) => (groups.some((group) => group.name === model) ? model : undefined);
  try {
    const groups = routeGroupsOf(configs, merchantId);
    return groups instanceof Promise ? groups.then(named, () => undefined) : named(groups);
  } catch {
    return undefined;
  }
}

/** The guard scope of a request: its credential's merchant and key, the model it names, its guardrail header. */
export function guardScopeOf(request: FastifyRequest, model: string | undefined) {
  const credential = credentialOf(request);
  const header = request.headers[guardrailHeader];
  return {
    merchantId: credentialMerchantOf(request),
    apiKeyId: credential.kind === 'api_key' ? credential.keyId : undefined,
    model,
    header: Array.isArray(header) ? header.join(',') : header,
  };
}
