import type { LlmGuardsReport } from '../generated/schema-types.js';
import type { ParsedAnalyticsQuery } from '../ports/analytics/analytics-query.js';
import type { LlmCallApi } from '../ports/llm-call-api.js';
import { num, windowOf, type Numeric } from './llm-reports.js';

/** Most guard, stage and action rows one report lists (the most outcomes first). */
export const llmGuardRowLimit = 200;
/** Most key and guard rows one report lists. */
export const llmGuardKeyLimit = 500;

/**
 * The `surface` values of guard.applied (schemas/events/guard.applied.v1.json) each API's calls carry,
 * so the `api` filter of /analytics/llm/* means the same calls here as over llm.call: the gateway
 * names its wire, the toolkit its transport. Embeddings are not guarded, so no surface stands for them.
 */
const surfacesOfApi: Readonly<Record<LlmCallApi, readonly string[]>> = {
  chat_completions: ['openai-chat'],
  responses: ['openai-responses'],
  messages: ['anthropic-messages'],
  embeddings: ['embeddings'],
  toolkit: ['http', 'sse', 'websocket'],
  batch: ['batch'],
};

/** The read's filters as llm-guards-sql.ts binds them ('' and [] = no filter). */
export function guardFiltersOf(query: ParsedAnalyticsQuery): { api_key_id: string; route_group: string; surfaces: readonly string[] } {
  return { api_key_id: query.apiKeyId ?? '', route_group: query.routeGroup ?? '', surfaces: query.api === null ? [] : surfacesOfApi[query.api] };
}

type Row = Readonly<Record<string, Numeric>>;

/** The four reads' rows as the engines return them (llm-guards-sql.ts). */
export interface GuardFacts {
  readonly totals: Row | undefined;
  readonly guards: readonly (Row & { readonly guard: string; readonly stage: string; readonly action: string })[];
  readonly keys: readonly (Row & { readonly api_key_id: string; readonly guard: string })[];
  readonly series: readonly Row[];
}

const actionCountsOf = (row: Row | undefined) => ({ blocked: num(row?.['blocked']), masked: num(row?.['masked']), logged: num(row?.['logged']) });

/** GET /analytics/llm/guards: the rows as the reads ordered them; a missing score (-1) is null. */
export function guardsReportOf(query: ParsedAnalyticsQuery, facts: GuardFacts): LlmGuardsReport {
  const { totals } = facts;
  return {
    ...windowOf(query),
    bucket_ms: query.bucketMs,
    totals: {
      outcomes: num(totals?.['outcomes']),
      calls: num(totals?.['calls']),
      found: num(totals?.['found']),
      ...actionCountsOf(totals),
      refused_calls: num(totals?.['refused_calls']),
    },
    guards: facts.guards.map((row) => {
      const score = num(row['max_score']);
      return {
        guard: row.guard,
        stage: row.stage,
        action: row.action,
        outcomes: num(row['outcomes']),
        found: num(row['found']),
        refused_calls: num(row['refused_calls']),
        max_score: score < 0 ? null : Math.round(score * 10_000) / 10_000,
      };
    }),
    keys: facts.keys.map((row) => ({
      api_key_id: row.api_key_id === '' ? null : row.api_key_id,
      guard: row.guard,
      outcomes: num(row['outcomes']),
      found: num(row['found']),
      ...actionCountsOf(row),
      refused_calls: num(row['refused_calls']),
    })),
    series: facts.series.map((row) => ({ bucket_ms: num(row['bucket_ms']), outcomes: num(row['outcomes']), ...actionCountsOf(row) })),
  };
}
