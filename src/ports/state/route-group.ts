import type { ProviderName } from './provider-name.js';

/*
 * The stored shape of a route group (a merchant config, ConfigStore), with how its name and its
 * candidates are spelled: the gateway code (src/generation/gateway/) and the analytics reports
 * both read these, and they depend on nothing of theirs.
 */

/** A route group's name: what the config key, the `llm.call` records and the analytics filter carry. */
export const routeGroupNamePattern = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/** A candidate as the analytics and `llm.call` events name it. */
export function candidateId(provider: string, model: string): string {
  return `${provider}/${model}`;
}

/** A candidate of a stored route group. */
export interface RouteGroupCandidate {
  readonly provider: ProviderName;
  readonly model: string;
  readonly weight: number;
  /** The name of the merchant's stored credential of `provider` that pays its calls (absent: the default one, else the operator's). */
  readonly credential?: string;
}

/** A stored route group: its body, with its name and every default filled in. */
export interface RouteGroup {
  readonly name: string;
  readonly candidates: readonly RouteGroupCandidate[];
  readonly capability?: string;
  readonly maxPrice?: number;
  readonly bucketSize: number;
  readonly eliminationThreshold: number;
  readonly explorePercent: number;
  readonly maxHops: number;
  /** Restrictions before ranking (absent in groups stored before rules existed: none). */
  readonly rules?: readonly RouteRule[];
  /** False when the group ranks every request on its own, ignoring where a conversation's prompt is cached (absent: affinity on). */
  readonly cacheAffinity?: boolean;
  /** Multi-objective weights (absent: success rate only). */
  readonly objectives?: Objectives;
}

/** How much latency and cost take from a candidate's success-rate score (0: nothing, the default). */
export interface Objectives {
  readonly latencyWeight: number;
  readonly costWeight: number;
  /** A successful call within this many ms counts as fast. */
  readonly latencyTargetMs: number;
}

/**
 * A route group's restriction: when its condition holds (no condition: always), only candidates
 * that pass every one of its checks may serve the request.
 */
export interface RouteRule {
  readonly name: string;
  /** Condition: the prompt is estimated at this many tokens or more. */
  readonly promptTokensAtLeast?: number;
  /** Only these provider kinds (a merchant's data staying with given providers). */
  readonly onlyProviders?: readonly ProviderName[];
  /** Only models whose registry context window holds this many tokens (an unknown model does not). */
  readonly minContextWindow?: number;
}
