import type { RouteGroup as RouteGroupBody } from '../../generated/schema-types.js';
import type { WindowRead } from '../../ports/state-store.js';
import { applyVolumeHedging } from '../../decision/hedging.js';
import type { RandomSource } from '../../decision/random-source.js';
import { scoreFromWindow } from '../../decision/score-from-window.js';
import { normalizeProviderName, type ProviderName } from '../provider-name.js';
import { routeRuleProblems, toRouteRules } from './route-rules.js';
import { affinityVerdict, type AffinityOutcome } from './cache-affinity.js';
import type { AffinityHolder } from '../../ports/state-store.js';
import { candidateId, routeGroupNamePattern, type RouteGroup } from '../../ports/state/route-group.js';

// The stored shape and its name rule belong to the state-store port; re-exported for the route-group routes and CLI.
export { routeGroupNamePattern };
export type { Objectives, RouteGroup } from '../../ports/state/route-group.js';

export const defaultLatencyTargetMs = 2000;

/** True when latency enters the ranking, so each call's speed is learned too. */
export function learnsLatency(group: RouteGroup): boolean {
  return (group.objectives?.latencyWeight ?? 0) > 0;
}

/** The window of a candidate's speed: 1 for a successful call within the group's target, 0 for a slower one. */
export function candidateLatencyWindowKey(merchantId: string, group: string, provider: string, model: string): string {
  return `${candidateWindowKey(merchantId, group, provider, model)}:fast`;
}

/** What the registry says of a candidate model, when it knows it. */
export interface CandidateFacts {
  readonly capabilities: readonly string[];
  readonly averagePrice: number | undefined;
}

/**
 * Checks a route group body against what the schema cannot: provider names, the registry's
 * capabilities and prices for the models it knows, duplicates. Returns the problems, each naming
 * its field; [] when the group is valid.
 */
export function routeGroupProblems(body: RouteGroupBody, factsOf: (provider: string, model: string) => CandidateFacts | undefined): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  problems.push(...routeRuleProblems(body.rules));
  body.candidates.forEach((candidate, index) => {
    const provider = normalizeProviderName(candidate.provider);
    if (provider === undefined || provider === 'auto') problems.push(`candidates[${index}].provider names no provider kind: "${candidate.provider}"`);
    const id = candidateId(provider ?? candidate.provider, candidate.model);
    if (seen.has(id)) problems.push(`candidates[${index}] repeats ${id}`);
    seen.add(id);
    const facts = factsOf(candidate.provider, candidate.model);
    if (facts === undefined) return;
    if (body.capability !== undefined && !facts.capabilities.includes(body.capability))
      problems.push(`candidates[${index}] (${id}) lacks the capability "${body.capability}"`);
    if (body.maxPrice !== undefined && facts.averagePrice !== undefined && facts.averagePrice > body.maxPrice)
      problems.push(`candidates[${index}] (${id}) costs ${facts.averagePrice} per 1K tokens, above maxPrice ${body.maxPrice}`);
  });
  return problems;
}

/** The stored form of a valid body (call after `routeGroupProblems` returned []). */
export function toRouteGroup(name: string, body: RouteGroupBody): RouteGroup {
  return {
    name,
    candidates: body.candidates.map((candidate) => ({
      provider: normalizeProviderName(candidate.provider) as ProviderName,
      model: candidate.model,
      weight: candidate.weight ?? 1,
      ...(candidate.credential !== undefined ? { credential: candidate.credential } : {}),
    })),
    ...(body.capability !== undefined ? { capability: body.capability } : {}),
    ...(body.maxPrice !== undefined ? { maxPrice: body.maxPrice } : {}),
    bucketSize: body.bucketSize ?? 20,
    eliminationThreshold: body.eliminationThreshold ?? 0.5,
    explorePercent: body.explorePercent ?? 5,
    maxHops: body.maxHops ?? 3,
    ...(body.rules !== undefined && body.rules.length > 0 ? { rules: toRouteRules(body.rules) } : {}),
    ...(body.cacheAffinity === false ? { cacheAffinity: false } : {}),
    ...(body.objectives !== undefined
      ? {
          objectives: {
            latencyWeight: body.objectives.latencyWeight ?? 0,
            costWeight: body.objectives.costWeight ?? 0,
            latencyTargetMs: body.objectives.latencyTargetMs ?? defaultLatencyTargetMs,
          },
        }
      : {}),
  };
}

/** The success-rate window key of a candidate of a merchant's group (the payment side keys by gateway). */
export function candidateWindowKey(merchantId: string, group: string, provider: string, model: string): string {
  return `llm:${merchantId}:${group}:${provider}/${model}`;
}

export interface RankedCandidate {
  readonly provider: ProviderName;
  readonly model: string;
  /** The merchant's credential that pays this candidate's calls, when the group names one. */
  readonly credential?: string;
  readonly score: number;
  readonly eliminated: boolean;
}

export interface Ranking {
  readonly candidates: readonly RankedCandidate[];
  /**
   * `sr` (best success rate first), `sr_downtime` (some candidates eliminated), `explore` (hedged)
   * or `affinity` (the conversation's cache holder put first).
   */
  readonly approach: 'sr' | 'sr_downtime' | 'explore' | 'affinity';
  /** Every candidate below the threshold (`provider/model`, group order), including any cut by `maxHops`. */
  readonly eliminated: readonly string[];
  /** What cache affinity did, when the request carried an affinity key (absent: it carried none). */
  readonly affinity?: AffinityOutcome;
}

/**
 * What a routed request's call records carry about its decision: the group, how it ranked, and
 * which candidates were eliminated then (GET /analytics/llm/route-groups counts them over time).
 */
export function routeAttribution(
  group: RouteGroup,
  ranking: Ranking,
): { readonly routeGroup: string; readonly routeApproach: Ranking['approach']; readonly eliminatedCandidates: readonly string[] } {
  return { routeGroup: group.name, routeApproach: ranking.approach, eliminatedCandidates: ranking.eliminated };
}

/** What the multi-objective step reads besides success: each candidate's speed window and price, in group order. */
export interface RankingSignals {
  readonly latencyWindows?: readonly (WindowRead | undefined)[];
  /** Average registry price (USD per 1K tokens); undefined where the registry does not price it. */
  readonly prices?: readonly (number | undefined)[];
  /**
   * The request's conversation cache (cache-affinity.ts): who holds it and each candidate's newest
   * outcomes, in group order; `'off'` when the group turned affinity off. Absent: no affinity key.
   */
  readonly affinity?: { readonly holder: AffinityHolder | undefined; readonly recent: readonly (WindowRead | undefined)[] } | 'off';
}

/**
 * Each candidate's multi-objective penalty: latencyWeight × (1 − its fast share; no history ⇒ fast)
 * plus costWeight × its price over the dearest candidate's (an unpriced one counts as the dearest).
 * 0 for every candidate when the group has no objectives, so success rate alone ranks.
 */
function objectivePenalties(group: RouteGroup, signals: RankingSignals): number[] {
  const objectives = group.objectives;
  if (objectives === undefined || (objectives.latencyWeight === 0 && objectives.costWeight === 0)) return group.candidates.map(() => 0);
  const known = (signals.prices ?? []).filter((price): price is number => price !== undefined);
  const dearest = known.length === 0 ? 0 : Math.max(...known);
  return group.candidates.map((_, index) => {
    const slowness = 1 - scoreFromWindow(signals.latencyWindows?.[index]);
    const price = signals.prices?.[index];
    const relativeCost = dearest === 0 ? 0 : price === undefined ? 1 : price / dearest;
    return objectives.latencyWeight * slowness + objectives.costWeight * relativeCost;
  });
}

/** Divisor of an eliminated candidate's score (the payment side demotes the same way, §3.5). */
const eliminationDivisor = 10;

/**
 * Ranks a group's candidates with the payment side's machinery: success rate from each window
 * (no history ⇒ 1), elimination below the threshold (demoted, never removed), volume hedging so a
 * demoted or lower-ranked candidate keeps being tried and can come back; ties by weight, then order.
 * Then cache affinity: a conversation's healthy cache holder goes first (no exploration moves a
 * warm conversation; new conversations are still explored), in a group that weighs cost only while
 * its score with its warm price is the best. The result is the failover order of one request, cut
 * to `maxHops`.
 */
export function rankCandidates(group: RouteGroup, windows: readonly (WindowRead | undefined)[], random: RandomSource, signals: RankingSignals = {}): Ranking {
  const rates = group.candidates.map((_, index) => scoreFromWindow(windows[index]));
  const eliminated = rates.map((rate) => rate < group.eliminationThreshold);
  const penalties = objectivePenalties(group, signals);
  const scores = rates.map((rate, index) => (eliminated[index] === true ? rate / eliminationDivisor : rate) - (penalties[index] ?? 0));
  // Scores before hedging: what a cost-weighing group compares a warm holder with.
  const weighed = [...scores];
  const explored = applyVolumeHedging(scores, group.explorePercent, random);
  const order = group.candidates
    .map((candidate, index) => ({ candidate, index, score: scores[index] as number }))
    .sort((a, b) => b.score - a.score || b.candidate.weight - a.candidate.weight || a.index - b.index);
  const healthy =
    signals.affinity === undefined
      ? undefined
      : signals.affinity === 'off'
        ? ({ follow: false, outcome: 'off' } as const)
        : affinityVerdict({
            holder: signals.affinity.holder,
            candidates: group.candidates.map((candidate) => candidateId(candidate.provider, candidate.model)),
            eliminated,
            recent: signals.affinity.recent,
          });
  // A group that weighs cost keeps a healthy holder first only while its score, its warm cache priced in, is the best.
  const costlier =
    healthy?.follow === true &&
    (group.objectives?.costWeight ?? 0) > 0 &&
    weighed.some((score, index) => index !== healthy.index && score > (weighed[healthy.index] as number));
  const verdict = costlier ? ({ follow: false, outcome: 'left_costlier' } as const) : healthy;
  if (verdict?.follow === true) {
    const at = order.findIndex((entry) => entry.index === verdict.index);
    order.unshift(...order.splice(at, 1));
  }
  return {
    candidates: order.slice(0, group.maxHops).map(({ candidate, index }) => ({
      provider: candidate.provider,
      model: candidate.model,
      ...(candidate.credential !== undefined ? { credential: candidate.credential } : {}),
      score: rates[index] as number,
      eliminated: eliminated[index] === true,
    })),
    approach: verdict?.follow === true ? 'affinity' : explored ? 'explore' : eliminated.some(Boolean) ? 'sr_downtime' : 'sr',
    eliminated: group.candidates.filter((_, index) => eliminated[index] === true).map((candidate) => candidateId(candidate.provider, candidate.model)),
    ...(verdict === undefined ? {} : { affinity: verdict.follow ? 'kept' : verdict.outcome }),
  };
}
