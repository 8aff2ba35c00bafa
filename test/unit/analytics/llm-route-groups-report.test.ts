import { describe, expect, it } from 'vitest';
import { shapeLlmRouteGroupsReport } from '../../../src/analytics/llm-route-groups-report.js';
import { parseAnalyticsQuery } from '../../../src/analytics/parse-analytics-query.js';

const now = Date.UTC(2026, 0, 15, 12, 0, 0);
const minute = 60_000;
const parsed = parseAnalyticsQuery({ range: '15m' }, { merchantId: 'm1', nowMs: now, endpoint: 'llm/route-groups' });
if (!parsed.ok) throw new Error('fixture query rejected');
const query = parsed.query;
const b0 = now - 10 * minute;
const b1 = now - 9 * minute;

describe('shapeLlmRouteGroupsReport', () => {
  it('answers an empty report for a window without routed calls', () => {
    expect(shapeLlmRouteGroupsReport(query, { calls: [], decisions: [], eliminations: [] })).toEqual({
      merchant_id: 'm1',
      start_ms: now - 15 * minute,
      end_ms: now,
      bucket_ms: minute,
      route_group: null,
      groups: [],
    });
  });

  it('shares each bucket among its candidates, and flags a candidate eliminated at the last decision of a bucket', () => {
    const report = shapeLlmRouteGroupsReport(query, {
      calls: [
        { route_group: 'chat', bucket_ms: b0, provider: 'openai', model: 'flaky', calls: 3, successes: 3, ranked_first: 3 },
        { route_group: 'chat', bucket_ms: b1, provider: 'openai', model: 'flaky', calls: 1, successes: 0, ranked_first: 1 },
        // Numbers as 18.16 may send them, as strings.
        { route_group: 'chat', bucket_ms: String(b1), provider: 'openai', model: 'steady', calls: '3', successes: '3', ranked_first: '2' },
        { route_group: 'b-group', bucket_ms: b1, provider: 'mistral', model: 'org/with-slash', calls: 1, successes: 1, ranked_first: 1 },
      ],
      decisions: [
        { route_group: 'chat', bucket_ms: b0, route_approach: 'sr', decisions: 3, last_decision_ms: b0 + 30_000 },
        { route_group: 'chat', bucket_ms: b1, route_approach: 'sr', decisions: 1, last_decision_ms: b1 + 1_000 },
        { route_group: 'chat', bucket_ms: b1, route_approach: 'sr_downtime', decisions: 2, last_decision_ms: b1 + 3_000 },
        { route_group: 'b-group', bucket_ms: b1, route_approach: '', decisions: 1, last_decision_ms: b1 + 5_000 },
      ],
      eliminations: [
        { route_group: 'chat', bucket_ms: b1, candidate: 'openai/flaky', eliminated_decisions: 2, last_eliminated_ms: b1 + 3_000 },
        // Eliminated earlier in the bucket only: counted, but back by the bucket's last decision.
        { route_group: 'b-group', bucket_ms: b1, candidate: 'anthropic/never-called', eliminated_decisions: 1, last_eliminated_ms: b1 + 4_000 },
      ],
    });
    expect(report.groups.map((group) => group.route_group)).toEqual(['b-group', 'chat']);
    const chat = report.groups[1]!;
    expect(chat).toMatchObject({ calls: 7, successes: 6, errors: 1, success_rate: 0.8571, decisions: 6, approaches: { sr: 4, sr_downtime: 2 } });
    expect(chat.series).toEqual([
      { bucket_ms: b0, calls: 3, successes: 3, errors: 0, success_rate: 1, decisions: 3, approaches: { sr: 3 } },
      { bucket_ms: b1, calls: 4, successes: 3, errors: 1, success_rate: 0.75, decisions: 3, approaches: { sr: 1, sr_downtime: 2 } },
    ]);
    expect(chat.candidates).toEqual([
      {
        provider: 'openai',
        model: 'flaky',
        calls: 4,
        share: 0.5714,
        ranked_first: 4,
        successes: 3,
        errors: 1,
        success_rate: 0.75,
        eliminated_decisions: 2,
        eliminated: true,
        series: [
          { bucket_ms: b0, calls: 3, share: 1, ranked_first: 3, successes: 3, errors: 0, success_rate: 1, eliminated_decisions: 0, eliminated: false },
          { bucket_ms: b1, calls: 1, share: 0.25, ranked_first: 1, successes: 0, errors: 1, success_rate: 0, eliminated_decisions: 2, eliminated: true },
        ],
      },
      {
        provider: 'openai',
        model: 'steady',
        calls: 3,
        share: 0.4286,
        ranked_first: 2,
        successes: 3,
        errors: 0,
        success_rate: 1,
        eliminated_decisions: 0,
        eliminated: false,
        series: [
          { bucket_ms: b1, calls: 3, share: 0.75, ranked_first: 2, successes: 3, errors: 0, success_rate: 1, eliminated_decisions: 0, eliminated: false },
        ],
      },
    ]);
    const other = report.groups[0]!;
    expect(other.approaches).toEqual({ unrecorded: 1 });
    expect(
      other.candidates.map((candidate) => [
        candidate.provider,
        candidate.model,
        candidate.calls,
        candidate.success_rate,
        candidate.eliminated_decisions,
        candidate.eliminated,
      ]),
    ).toEqual([
      ['mistral', 'org/with-slash', 1, 1, 0, false],
      ['anthropic', 'never-called', 0, null, 1, false],
    ]);
  });
});
