import type { HttpClient, Query } from './http-client';
import type {
  DecisionsReport,
  GatewayScoresReport,
  LlmEndUsersReport,
  LlmErrorsReport,
  LlmGuardsReport,
  LlmLatencyReport,
  LlmOverviewReport,
  LlmPromptCacheReport,
  LlmRouteGroupsReport,
  LlmUsageReport,
  LogSummariesReport,
  OverviewReport,
  PaymentAuditReport,
  RoutingStatsReport,
} from './server-types';

/** The look-back presets of the AnalyticsQuery schema. */
export const analyticsRanges = ['15m', '1h', '12h', '1d', '1w'] as const;
export type AnalyticsRange = (typeof analyticsRanges)[number];

/** The /analytics/* reads (api/routes/analytics.ts); the merchant is always the credential's. */
export function analyticsApi(http: HttpClient) {
  const read =
    <T>(endpoint: string) =>
    (query: Query, signal?: AbortSignal) =>
      http.request<T>('GET', `/analytics/${endpoint}`, { query, ...(signal !== undefined ? { signal } : {}) });
  return {
    overview: read<OverviewReport>('overview'),
    decisions: read<DecisionsReport>('decisions'),
    gatewayScores: read<GatewayScoresReport>('gateway-scores'),
    logSummaries: read<LogSummariesReport>('log-summaries'),
    paymentAudit: read<PaymentAuditReport>('payment-audit'),
    previewTrace: read<PaymentAuditReport>('preview-trace'),
    routingStats: read<RoutingStatsReport>('routing-stats'),
    llmOverview: read<LlmOverviewReport>('llm/overview'),
    llmUsage: read<LlmUsageReport>('llm/usage'),
    llmLatency: read<LlmLatencyReport>('llm/latency'),
    llmErrors: read<LlmErrorsReport>('llm/errors'),
    llmRouteGroups: read<LlmRouteGroupsReport>('llm/route-groups'),
    llmPromptCache: read<LlmPromptCacheReport>('llm/prompt-cache'),
    llmEndUsers: read<LlmEndUsersReport>('llm/end-users'),
    llmGuards: read<LlmGuardsReport>('llm/guards'),
  };
}
