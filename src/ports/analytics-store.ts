import type { CommitmentDayVolume, CommitmentVolumeQuery } from './analytics/commitment-volume.js';
import type { EventEnvelope } from './event-envelope.js';
import type { ReportingCurrencySetting } from './state/reporting-currency.js';
import type { ParsedAnalyticsQuery } from './analytics/analytics-query.js';
import type {
  DecisionsReport,
  GatewayScoresReport,
  LogSummariesReport,
  OverviewReport,
  PaymentAuditReport,
  RoutingStatsReport,
} from './analytics/analytics-reports.js';
import type { AnalyticsRows } from './analytics/analytics-rows.js';
import type { RoutingEventsQuery } from './analytics/routing-events.js';
import type { SegmentTraffic, SegmentTrafficQuery } from './analytics/segment-traffic.js';
import type { ExperimentAnalytics } from './analytics/experiment-reports.js';
import type { LoggedDecisionFact, LoggedDecisionQuery } from './analytics/decision-log.js';
import type {
  CostSavingsReport,
  LlmEndUsersReport,
  LlmGuardsReport,
  LlmErrorsReport,
  LlmLatencyReport,
  LlmOverviewReport,
  LlmPromptCacheReport,
  LlmRouteGroupsReport,
  LlmUsageReport,
  RoutingEventsReport,
} from '../generated/schema-types.js';

/**
 * Analytics rows written by the analytics-sink worker and read by /analytics/*. One SQL dialect
 * serves ClickHouse server (18.16) and chDB (26.x); the DDL is schemas/clickhouse/.
 *
 * Idempotence is the contract that lets the sink retry: every row carries its event id, and every
 * read de-duplicates by it (ReplacingMergeTree keyed on the event id, read with FINAL), so a batch
 * inserted twice, or replayed after a worker restart, never counts twice, whatever the merge timing.
 *
 * Every read is scoped to `query.merchantId` (the credential's merchant) and to the query window,
 * and returns the decision-engine 1.4.x response body for its endpoint.
 *
 * @remarks Failures of the engine surface as SwitchyardError `SY_ANALYTICS_UNAVAILABLE` (with
 * `isRetryable` when the engine could not be reached). There is no write-path buffering here: the
 * sink batches and retries. No in-memory fallback exists, as in the reference.
 */
export interface AnalyticsStore extends ExperimentAnalytics {
  /** Applies schemas/clickhouse migrations in order, each once (recorded in `schema_migrations`); safe on every start. */
  migrate(): Promise<void>;

  /** Writes a batch of rows. Safe to retry: re-inserted rows are de-duplicated by event id on read. */
  insert(batch: AnalyticsRows): Promise<void>;

  /** GET /analytics/overview: KPI counts, route hits, top scores, errors and rules. */
  overview(query: ParsedAnalyticsQuery): Promise<OverviewReport>;
  /** GET /analytics/decisions: decision tiles, per-bucket counts by approach, approach totals. */
  decisions(query: ParsedAnalyticsQuery): Promise<DecisionsReport>;
  /** GET /analytics/gateway-scores: latest score per (PMT, PM, gateway) and the score series. */
  gatewayScores(query: ParsedAnalyticsQuery): Promise<GatewayScoresReport>;
  /** GET /analytics/log-summaries: grouped errors and a page of error samples, newest first. */
  logSummaries(query: ParsedAnalyticsQuery): Promise<LogSummariesReport>;
  /** GET /analytics/payment-audit: per-payment summaries of dynamic flows and one timeline. */
  paymentAudit(query: ParsedAnalyticsQuery): Promise<PaymentAuditReport>;
  /** GET /analytics/preview-trace: as payment-audit, over rule-evaluation (preview) flows. */
  previewTrace(query: ParsedAnalyticsQuery): Promise<PaymentAuditReport>;
  /** GET /analytics/routing-stats: gateway share, top rules, score trend and the filter values seen. */
  routingStats(query: ParsedAnalyticsQuery): Promise<RoutingStatsReport>;

  /** GET /analytics/llm/overview: model calls, tokens, cost, error rate, per provider. */
  llmOverview(query: ParsedAnalyticsQuery): Promise<LlmOverviewReport>;
  /** GET /analytics/llm/usage: calls, tokens and cost per time bucket, provider and model. */
  llmUsage(query: ParsedAnalyticsQuery): Promise<LlmUsageReport>;
  /** GET /analytics/llm/latency: latency and time-to-first-token percentiles per provider and model. */
  llmLatency(query: ParsedAnalyticsQuery): Promise<LlmLatencyReport>;
  /** GET /analytics/llm/errors: failed calls by error class, provider and model. */
  llmErrors(query: ParsedAnalyticsQuery): Promise<LlmErrorsReport>;
  /**
   * GET /analytics/llm/prompt-cache: the provider calls' prompt-cache use (cache-read and cache-write
   * tokens, hit rate, real cost and what caching saved), in total and per API key and model.
   */
  llmPromptCache(query: ParsedAnalyticsQuery): Promise<LlmPromptCacheReport>;
  /**
   * GET /analytics/llm/end-users: the calls that named an end user, per end user and API key (calls,
   * errors, cache hits, tokens, spend), the dearest first.
   */
  llmEndUsers(query: ParsedAnalyticsQuery): Promise<LlmEndUsersReport>;
  /**
   * GET /analytics/llm/guards: guardrail outcomes (guard.applied) in total, per guard, stage and action,
   * per API key and guard, and per time bucket; counts only, never the matched text.
   */
  llmGuards(query: ParsedAnalyticsQuery): Promise<LlmGuardsReport>;
  /**
   * GET /analytics/llm/route-groups: per route group (or only `query.routeGroup`) and candidate,
   * calls, share, success rate and eliminations over time, from the decision each call recorded.
   */
  llmRouteGroups(query: ParsedAnalyticsQuery): Promise<LlmRouteGroupsReport>;

  /**
   * GET /analytics/cost-savings: what the cost-aware (multi-objective) post-step saved against the
   * SR head's cost (decision.created `multiObjective` marks), in one currency, with its trend; with
   * `reporting`, also every currency converted to the merchant's reporting currency at its rates.
   */
  costSavings(query: ParsedAnalyticsQuery, reporting?: ReportingCurrencySetting): Promise<CostSavingsReport>;

  /**
   * GET /analytics/routing-events: success-rate leader changes per (payment method type, payment
   * method), derived from the score snapshots, and the autopilot's applied calibrations, newest first.
   */
  routingEvents(query: RoutingEventsQuery): Promise<RoutingEventsReport>;

  /**
   * Decision volume and distinct gateways per routing segment (payment-method type and method, plus
   * `query.dimensions`) of one merchant in `[sinceMs, untilMs)`: the autopilot's input.
   */
  segmentTraffic(query: SegmentTrafficQuery): Promise<SegmentTraffic[]>;

  /** Merchants with at least one decision in `[sinceMs, untilMs)` (the autopilot's candidates), sorted. */
  merchantsWithDecisions(sinceMs: number, untilMs: number): Promise<string[]>;

  /**
   * What each named PSP of one merchant was sent per contract day in `[sinceMs, untilMs)`, and how
   * much of it steering moved there: the volume-commitment forecaster's and dashboard's read.
   */
  commitmentVolume(query: CommitmentVolumeQuery): Promise<CommitmentDayVolume[]>;

  /**
   * POST /analytics/counterfactual: the merchant's decisions that logged their policy (migration 0007)
   * in [fromMs, toMs), oldest first, each with the last feedback for its payment and decided gateway.
   */
  loggedDecisions(query: LoggedDecisionQuery): Promise<readonly LoggedDecisionFact[]>;

  /**
   * Retention: drops every daily partition (UTC days) strictly before the day containing `dayMs`.
   * Partition drops are cheap and final, unlike row deletes. Returns how many partitions went.
   */
  dropPartitionsBefore(dayMs: number): Promise<number>;

  /** Pings the engine; false when it cannot answer. */
  ping(): Promise<boolean>;

  /** Releases the engine connection (or stops the chDB worker thread). */
  close(): Promise<void>;
}

/**
 * Takes events for analytics off the calling thread: the receiver maps, batches and inserts them
 * (embedded mode: chDB's worker thread), so the API's event loop neither maps nor holds them.
 *
 * `accept` resolves once the events are in the receiver's hands, before they are inserted; a failed
 * insert is retried there until it succeeds. Holding is bounded: past the bound `accept` waits for
 * inserts. `flush` resolves when everything accepted so far is inserted (rejects if an insert fails,
 * the events staying held for the next try).
 *
 * @remarks Only for an in-process bus, whose events die with the process anyway: a bus that keeps
 * events across a crash (Kafka) must commit only after the insert, so its sink uses
 * {@link AnalyticsStore.insert}.
 */
export interface AnalyticsHandoff {
  accept(events: readonly EventEnvelope[]): Promise<void>;
  flush(): Promise<void>;
}
