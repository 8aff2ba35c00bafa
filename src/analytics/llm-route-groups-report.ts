import type { LlmRouteApproachCounts, LlmRouteCandidateReport, LlmRouteGroupReport, LlmRouteGroupsReport } from '../generated/schema-types.js';
import { candidateId } from '../ports/state/route-group.js';
import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import { num, rate, windowOf, type Numeric } from './llm-reports.js';

/** Response body of GET /analytics/llm/route-groups (schemas/http/analytics/llm-route-groups-report.json). */
export type { LlmRouteGroupsReport };

/** A candidate's calls in a group and bucket (one row of llmRouteCallsSql). */
export interface RouteCallFact {
  readonly route_group: string;
  readonly bucket_ms: Numeric;
  readonly provider: string;
  readonly model: string;
  readonly calls: Numeric;
  readonly successes: Numeric;
  readonly ranked_first: Numeric;
}

/** A group's decisions of one approach in a bucket (one row of llmRouteDecisionsSql). */
export interface RouteDecisionFact {
  readonly route_group: string;
  readonly bucket_ms: Numeric;
  readonly route_approach: string;
  readonly decisions: Numeric;
  readonly last_decision_ms: Numeric;
}

/** The decisions of a group and bucket that found a candidate eliminated (one row of llmRouteEliminationsSql). */
export interface RouteEliminationFact {
  readonly route_group: string;
  readonly bucket_ms: Numeric;
  /** `provider/model`, as the `llm.call` event names it. */
  readonly candidate: string;
  readonly eliminated_decisions: Numeric;
  readonly last_eliminated_ms: Numeric;
}

/** What the approach of a call recorded before approaches were recorded is reported as. */
const unrecordedApproach = 'unrecorded';

interface GroupBucket {
  calls: number;
  successes: number;
  decisions: number;
  approaches: Record<string, number>;
  lastDecisionMs: number;
}

interface CandidateBucket {
  calls: number;
  successes: number;
  rankedFirst: number;
  eliminatedDecisions: number;
  lastEliminatedMs: number;
}

interface Candidate {
  readonly provider: string;
  readonly model: string;
  readonly buckets: Map<number, CandidateBucket>;
}

interface Group {
  readonly buckets: Map<number, GroupBucket>;
  readonly candidates: Map<string, Candidate>;
}

function splitCandidate(id: string): { provider: string; model: string } {
  // Provider names never hold a '/'; model ids may (`meta-llama/…`).
  const at = id.indexOf('/');
  return at < 0 ? { provider: id, model: '' } : { provider: id.slice(0, at), model: id.slice(at + 1) };
}

function orNullRate(part: number, whole: number): number | null {
  return whole === 0 ? null : rate(part, whole);
}

function byKey<T>(map: ReadonlyMap<number, T>): [number, T][] {
  return [...map.entries()].sort(([a], [b]) => a - b);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * GET /analytics/llm/route-groups from the three reads' rows: per group its calls, decisions and
 * approaches, and per candidate its calls, share of the group's calls, success rate and
 * eliminations, in total and per bucket. A candidate is `eliminated` in a bucket (or the window)
 * when the group's last decision there found it below the threshold, so a series shows when it
 * was demoted and when it came back.
 */
export function shapeLlmRouteGroupsReport(
  query: ParsedAnalyticsQuery,
  facts: { readonly calls: readonly RouteCallFact[]; readonly decisions: readonly RouteDecisionFact[]; readonly eliminations: readonly RouteEliminationFact[] },
): LlmRouteGroupsReport {
  const groups = new Map<string, Group>();
  const groupOf = (name: string): Group => {
    let group = groups.get(name);
    if (group === undefined) {
      group = { buckets: new Map(), candidates: new Map() };
      groups.set(name, group);
    }
    return group;
  };
  const groupBucket = (group: Group, bucketMs: number): GroupBucket => {
    let bucket = group.buckets.get(bucketMs);
    if (bucket === undefined) {
      bucket = { calls: 0, successes: 0, decisions: 0, approaches: {}, lastDecisionMs: -1 };
      group.buckets.set(bucketMs, bucket);
    }
    return bucket;
  };
  const candidateBucket = (group: Group, provider: string, model: string, bucketMs: number): CandidateBucket => {
    const id = candidateId(provider, model);
    let candidate = group.candidates.get(id);
    if (candidate === undefined) {
      candidate = { provider, model, buckets: new Map() };
      group.candidates.set(id, candidate);
    }
    let bucket = candidate.buckets.get(bucketMs);
    if (bucket === undefined) {
      bucket = { calls: 0, successes: 0, rankedFirst: 0, eliminatedDecisions: 0, lastEliminatedMs: -1 };
      candidate.buckets.set(bucketMs, bucket);
    }
    return bucket;
  };

  for (const fact of facts.calls) {
    const group = groupOf(fact.route_group);
    const bucketMs = num(fact.bucket_ms);
    const totals = groupBucket(group, bucketMs);
    const calls = num(fact.calls);
    const successes = num(fact.successes);
    totals.calls += calls;
    totals.successes += successes;
    const candidate = candidateBucket(group, fact.provider, fact.model, bucketMs);
    candidate.calls += calls;
    candidate.successes += successes;
    candidate.rankedFirst += num(fact.ranked_first);
  }
  for (const fact of facts.decisions) {
    const bucket = groupBucket(groupOf(fact.route_group), num(fact.bucket_ms));
    const approach = fact.route_approach === '' ? unrecordedApproach : fact.route_approach;
    const decisions = num(fact.decisions);
    bucket.decisions += decisions;
    bucket.approaches[approach] = (bucket.approaches[approach] ?? 0) + decisions;
    bucket.lastDecisionMs = Math.max(bucket.lastDecisionMs, num(fact.last_decision_ms));
  }
  for (const fact of facts.eliminations) {
    const { provider, model } = splitCandidate(fact.candidate);
    const bucket = candidateBucket(groupOf(fact.route_group), provider, model, num(fact.bucket_ms));
    bucket.eliminatedDecisions += num(fact.eliminated_decisions);
    bucket.lastEliminatedMs = Math.max(bucket.lastEliminatedMs, num(fact.last_eliminated_ms));
  }

  return {
    ...windowOf(query),
    bucket_ms: query.bucketMs,
    route_group: query.routeGroup,
    groups: [...groups.entries()].sort(([a], [b]) => compareText(a, b)).map(([name, group]) => shapeGroup(name, group)),
  };
}

function shapeGroup(name: string, group: Group): LlmRouteGroupReport {
  const buckets = byKey(group.buckets);
  const sum = (pick: (bucket: GroupBucket) => number) => buckets.reduce((total, [, bucket]) => total + pick(bucket), 0);
  const calls = sum((bucket) => bucket.calls);
  const successes = sum((bucket) => bucket.successes);
  const approaches: LlmRouteApproachCounts = {};
  for (const [, bucket] of buckets)
    for (const [approach, count] of Object.entries(bucket.approaches)) approaches[approach] = (approaches[approach] ?? 0) + count;
  const lastDecisionMs = Math.max(-1, ...buckets.map(([, bucket]) => bucket.lastDecisionMs));
  const candidates = [...group.candidates.values()].map((candidate) => shapeCandidate(candidate, group, calls, lastDecisionMs));
  candidates.sort((a, b) => b.calls - a.calls || compareText(a.provider, b.provider) || compareText(a.model, b.model));
  return {
    route_group: name,
    calls,
    successes,
    errors: calls - successes,
    success_rate: orNullRate(successes, calls),
    decisions: sum((bucket) => bucket.decisions),
    approaches,
    candidates,
    series: buckets.map(([bucketMs, bucket]) => ({
      bucket_ms: bucketMs,
      calls: bucket.calls,
      successes: bucket.successes,
      errors: bucket.calls - bucket.successes,
      success_rate: orNullRate(bucket.successes, bucket.calls),
      decisions: bucket.decisions,
      approaches: { ...bucket.approaches },
    })),
  };
}

function shapeCandidate(candidate: Candidate, group: Group, groupCalls: number, lastDecisionMs: number): LlmRouteCandidateReport {
  const buckets = byKey(candidate.buckets);
  const sum = (pick: (bucket: CandidateBucket) => number) => buckets.reduce((total, [, bucket]) => total + pick(bucket), 0);
  const calls = sum((bucket) => bucket.calls);
  const successes = sum((bucket) => bucket.successes);
  const lastEliminatedMs = Math.max(-1, ...buckets.map(([, bucket]) => bucket.lastEliminatedMs));
  return {
    provider: candidate.provider,
    model: candidate.model,
    calls,
    share: rate(calls, groupCalls),
    ranked_first: sum((bucket) => bucket.rankedFirst),
    successes,
    errors: calls - successes,
    success_rate: orNullRate(successes, calls),
    eliminated_decisions: sum((bucket) => bucket.eliminatedDecisions),
    eliminated: lastEliminatedMs >= 0 && lastEliminatedMs === lastDecisionMs,
    series: buckets.map(([bucketMs, bucket]) => {
      const totals = group.buckets.get(bucketMs);
      return {
        bucket_ms: bucketMs,
        calls: bucket.calls,
        share: rate(bucket.calls, totals?.calls ?? 0),
        ranked_first: bucket.rankedFirst,
        successes: bucket.successes,
        errors: bucket.calls - bucket.successes,
        success_rate: orNullRate(bucket.successes, bucket.calls),
        eliminated_decisions: bucket.eliminatedDecisions,
        eliminated: bucket.lastEliminatedMs >= 0 && bucket.lastEliminatedMs === (totals?.lastDecisionMs ?? -1),
      };
    }),
  };
}
