import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AnalyticsEndpoint } from '../../src/ports/analytics/analytics-query.js';
import { analyticsQueryError, parseAnalyticsQuery } from '../../src/analytics/parse-analytics-query.js';
import { readCostSavings } from '../../src/analytics/read-cost-savings.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { AnalyticsStore } from '../../src/ports/analytics-store.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

type Read = keyof Pick<
  AnalyticsStore,
  | 'overview'
  | 'decisions'
  | 'gatewayScores'
  | 'logSummaries'
  | 'paymentAudit'
  | 'previewTrace'
  | 'routingStats'
  | 'llmOverview'
  | 'llmUsage'
  | 'llmLatency'
  | 'llmErrors'
  | 'llmRouteGroups'
  | 'llmPromptCache'
  | 'llmEndUsers'
  | 'llmGuards'
  | 'costSavings'
>;

/**
 * `response`: the `$id` of the 200 body's schema (serialises the answer and documents it in
 * OpenAPI). The other payment reads have none: their 1.4.x shapes are kept as the reference answers them;
 * the overview's schema declares its 1.4.x fields and the approval fields added beside them.
 */
const endpoints: readonly { readonly endpoint: AnalyticsEndpoint; readonly read: Read; readonly summary: string; readonly response?: string }[] = [
  {
    endpoint: 'overview',
    read: 'overview',
    summary: 'KPI counts, route hits, top scores, errors and rules; payment approval overall and per gateway, over time, and decline reasons',
    response: 'OverviewReport',
  },
  { endpoint: 'decisions', read: 'decisions', summary: 'Decision counts by routing approach over time' },
  { endpoint: 'gateway-scores', read: 'gatewayScores', summary: 'Latest gateway scores and their series' },
  { endpoint: 'log-summaries', read: 'logSummaries', summary: 'Grouped errors and error samples' },
  { endpoint: 'payment-audit', read: 'paymentAudit', summary: 'Per-payment audit of decisions and feedback' },
  { endpoint: 'preview-trace', read: 'previewTrace', summary: 'Traces of rule previews' },
  { endpoint: 'routing-stats', read: 'routingStats', summary: 'Gateway share, top rules and score trend' },
  { endpoint: 'llm/overview', read: 'llmOverview', summary: 'Model calls: count, tokens, cost (USD), error rate, per provider', response: 'LlmOverviewReport' },
  { endpoint: 'llm/usage', read: 'llmUsage', summary: 'Model calls, tokens and cost per time bucket, provider and model', response: 'LlmUsageReport' },
  { endpoint: 'llm/latency', read: 'llmLatency', summary: 'Latency p50/p95/p99 and time to first token per provider and model', response: 'LlmLatencyReport' },
  { endpoint: 'llm/errors', read: 'llmErrors', summary: 'Failed model calls by error class, provider and model', response: 'LlmErrorsReport' },
  {
    endpoint: 'llm/route-groups',
    read: 'llmRouteGroups',
    summary: 'Route groups over time: per candidate calls, share of the group, success rate and eliminations (`route_group` picks one group)',
    response: 'LlmRouteGroupsReport',
  },
  {
    endpoint: 'llm/prompt-cache',
    read: 'llmPromptCache',
    summary:
      'Prompt caching per API key and model: cache-read and cache-write tokens, cache hit rate (cache-read / input tokens), cost and what caching saved (USD)',
    response: 'LlmPromptCacheReport',
  },
  {
    endpoint: 'llm/end-users',
    read: 'llmEndUsers',
    summary: "Spend per end user of the merchant's keys: calls, errors, cache hits, tokens and cost (USD) per end user and API key, the dearest first",
    response: 'LlmEndUsersReport',
  },
  {
    endpoint: 'llm/guards',
    read: 'llmGuards',
    summary:
      'Guardrail outcomes (blocked, masked, logged) per guard, stage and action, per API key and over time; `api_key_id`, `route_group` and `api` narrow it. Counts only, never the matched text',
    response: 'LlmGuardsReport',
  },
  {
    endpoint: 'cost-savings',
    read: 'costSavings',
    summary:
      "Money cost-aware (multi-objective) routing saved against the SR head, per currency, with its trend; converted to the merchant's reporting currency when one is set",
    response: 'CostSavingsReport',
  },
];

/**
 * Analytics: the read-only endpoints over the AnalyticsStore (seven payment reads, cost savings,
 * six model-call reads). The merchant is always the credential's (a `merchant_id` parameter naming another
 * merchant is refused by the auth guard).
 */
export async function analyticsRoutes(app: FastifyInstance, deps: AppDeps & { merchantOf: (request: FastifyRequest) => string }): Promise<void> {
  for (const { endpoint, read, summary, response } of endpoints) {
    const handler = async (request: FastifyRequest) => {
      const tenant = request.headers['x-tenant-id'];
      // 1.4.x requires x-tenant-id: public; we accept its absence but refuse any other tenant.
      if (tenant !== undefined && tenant !== 'public') {
        throw new SwitchyardError('SY_REQUEST_INVALID', { message: 'Tenant error: Invalid x-tenant-id' });
      }
      const parsed = parseAnalyticsQuery(request.query as Record<string, unknown>, { merchantId: deps.merchantOf(request), nowMs: deps.clock.now(), endpoint });
      if (!parsed.ok) throw analyticsQueryError(parsed.issues);
      if (deps.analytics === undefined) throw new SwitchyardError('SY_ANALYTICS_UNAVAILABLE', { message: 'Failed while connecting to database' });
      // Cost savings also convert to the merchant's reporting currency when one is set.
      if (read === 'costSavings') return readCostSavings({ analytics: deps.analytics, configs: deps.state.configs }, parsed.query);
      return deps.analytics[read](parsed.query);
    };
    const urls = endpoint === 'overview' ? ['/analytics/overview', '/analytics'] : [`/analytics/${endpoint}`];
    for (const url of urls) {
      app.get(
        url,
        {
          schema: {
            tags: ['Analytics'],
            summary,
            querystring: ref('AnalyticsQuery'),
            ...(response !== undefined ? { response: { 200: ref(response) } } : {}),
            hide: url === '/analytics',
          },
          config: { flowType: `analytics_${endpoint.replaceAll(/[-/]/g, '_')}`, auth: 'either', merchantFrom: 'credential' },
        },
        handler,
      );
    }
  }
}
