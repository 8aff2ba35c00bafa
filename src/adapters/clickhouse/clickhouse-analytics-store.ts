import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AnalyticsStore } from '../../ports/analytics-store.js';
import type { ParsedAnalyticsQuery } from '../../ports/analytics/analytics-query.js';
import type {
  ApprovalGatewayFact,
  ApprovalPointFact,
  DeclineReasonFact,
  AuditResultFact,
  AuditTotalsFact,
  BucketCountFact,
  CountFact,
  ErrorFact,
  FilterValuesFact,
  LogSampleFact,
  ScorePointFact,
  SnapshotFact,
  TimelineFact,
} from '../../analytics/analytics-facts.js';
import { analyticsFlows, outcomeFreeStatuses, routeHitFlows } from '../../analytics/analytics-flows.js';
import type { AnalyticsRows } from '../../ports/analytics/analytics-rows.js';
import type { PaymentAuditReport } from '../../ports/analytics/analytics-reports.js';
import { shapeDecisionsReport } from '../../analytics/shape-decisions-report.js';
import { logSummariesErrorLimit, shapeLogSummariesReport } from '../../analytics/shape-log-summaries-report.js';
import { overviewTopLimit, shapeOverviewReport } from '../../analytics/shape-overview-report.js';
import { declineReasonLimit } from '../../analytics/shape-approval.js';
import { approvalGatewaysSql, approvalSeriesSql, declineReasonsSql } from './sql/approval-sql.js';
import { auditTimelineLimit, shapePaymentAuditReport } from '../../analytics/shape-payment-audit-report.js';
import { routingStatsRuleLimit, shapeRoutingStatsReport } from '../../analytics/shape-routing-stats-report.js';
import { shapeGatewayScoresReport } from '../../analytics/shape-score-reports.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import { isLlmCallApi } from '../../ports/llm-call-api.js';
import { systemClock, type Clock } from '../../time/clock.js';
import { columnNames } from './analytics-insert-columns.js';
import { analyticsTables, rowsByTable } from './analytics-tables.js';
import { bindSql, type SqlValue } from './bind-sql.js';
import type { ClickHouseExecutor } from './clickhouse-executor.js';
import { clickHouseExperimentReads } from './clickhouse-experiment-reads.js';
import { costSavingsReads } from './cost-savings-reads.js';
import { llmGuardReads } from './llm-guard-reads.js';
import { applyClickHouseMigrations, defaultMigrationsDir, loadClickHouseMigrations } from './clickhouse-migrator.js';
import { domainFilterParams } from './domain-filter-params.js';
import { segmentTrafficReads } from './segment-traffic-reads.js';
import { commitmentVolumeReads } from './commitment-volume-reads.js';
import { routingEventsReads } from './routing-events-reads.js';
import { encodeTabSeparated, type InsertColumn } from './encode-tab-separated.js';
import { approachCountsSql, decisionTotalsSql, flowCountsSql, ruleCountsSql } from './sql/count-sql.js';
import { errorGroupsSql, errorSamplesSql, errorTotalSql } from './sql/error-sql.js';
import { filterValuesSql } from './sql/filter-values-sql.js';
import { auditResultsSql, auditTimelineSql, auditTotalsSql } from './sql/payment-audit-sql.js';
import { dropPartitionOnClusterSql, dropPartitionSql, partitionsSql } from './sql/retention-sql.js';
import { clusterLocalTable } from './cluster-migration-sql.js';
import { decisionSeriesSql, gatewayShareSql, scoreSeriesSql } from './sql/series-sql.js';
import { latestSnapshotsSql } from './sql/snapshot-sql.js';
import { llmApisSql, llmCacheSql, llmErrorsSql, llmLatencySql, llmProvidersSql, llmTotalsSql, llmUsageSql } from './sql/llm-sql.js';
import { cacheTotalsOf, num, overviewPromptCacheOf, promptCacheTotalsOf, rate, totalsOf, windowOf, type Numeric } from '../../analytics/llm-reports.js';
import { llmPromptCacheTotalsSql, llmPromptCacheUsageSql } from './sql/llm-prompt-cache-sql.js';
import { llmEndUsersSql } from './sql/llm-end-users-sql.js';
import { endUsersReportOf, llmEndUserLimit, type EndUserFact } from '../../analytics/llm-end-users-report.js';
import { shapeLlmRouteGroupsReport, type RouteCallFact, type RouteDecisionFact, type RouteEliminationFact } from '../../analytics/llm-route-groups-report.js';
import { llmRouteCallsSql, llmRouteDecisionsSql, llmRouteEliminationsSql } from './sql/llm-route-groups-sql.js';
import { loggedDecisionsSql } from './sql/counterfactual-sql.js';
import type { LoggedDecisionFact } from '../../ports/analytics/decision-log.js';

export interface ClickHouseAnalyticsStoreOptions {
  /** Database holding the analytics tables (config `clickhouseDatabase`); created by migrate(). */
  readonly database: string;
  /** Folder of NNNN_<name>.sql migrations; defaults to schemas/clickhouse/. */
  readonly migrationsDir?: string;
  /** Stamps `schema_migrations.applied_at`. */
  readonly clock?: Clock;
  /**
   * ClickHouse server cluster (config `clickhouseCluster`): migrations create replicated tables
   * under Distributed ones (`clusterMigrationStatements`), retention drops partitions ON CLUSTER.
   */
  readonly cluster?: string;
}

/** Error groups /analytics/llm/errors lists at most. */
const llmErrorGroupLimit = 100;

type NumericRow = Readonly<Record<string, Numeric>>;
type LabelledRow = NumericRow & { readonly provider: string; readonly model: string };

/** gateway-scores lists every (PMT, PM, gateway) combination; this only bounds a runaway merchant. */
const snapshotLimit = 1_000;

/** Every flow the overview counts, bound as one array. */
const overviewFlows: readonly string[] = [
  analyticsFlows.decision,
  analyticsFlows.ruleHit,
  ...analyticsFlows.snapshots,
  ...analyticsFlows.errors,
  ...routeHitFlows.map((flow) => flow.flowType),
];

/** Score feedback rows (both feedback routes, /update-gateway-score and the legacy /update-score, write this flow). */
const feedbackFlows: readonly string[] = ['update_gateway_score_update'];

/** The approval reads' extra inputs (sql/approval-sql.ts): the feedback flows and whether any dimension filter is set. */
function approvalParamsOf(params: Readonly<Record<string, SqlValue>>, query: ParsedAnalyticsQuery): Record<string, SqlValue> {
  const dimensionsSet = Object.values(query.dimensions).some((value) => value !== undefined && value !== '');
  return { ...params, feedback_flows: feedbackFlows, dimensions_set: dimensionsSet ? 1 : 0 };
}

const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The analytics store over any {@link ClickHouseExecutor}: ClickHouse server
 * (`createClickHouseServerExecutor`) or embedded chDB (`createChdbExecutor`). The SQL is the same
 * for both; values reach it only through `bindSql`.
 *
 * @throws SwitchyardError `SY_CONFIG_INVALID` when `database` is not a plain identifier.
 */
export function createClickHouseAnalyticsStore(executor: ClickHouseExecutor, options: ClickHouseAnalyticsStoreOptions): AnalyticsStore {
  const { database } = options;
  if (!identifierPattern.test(database)) {
    throw new SwitchyardError('SY_CONFIG_INVALID', {
      message: 'The ClickHouse database name must match [A-Za-z_][A-Za-z0-9_]*',
      details: { option: 'clickhouseDatabase' },
    });
  }
  const clock = options.clock ?? systemClock;
  const read = <T>(sql: string, params: Readonly<Record<string, SqlValue>>): Promise<T[]> => executor.query<T>(bindSql(sql, params));
  const filters = (query: ParsedAnalyticsQuery, summaryKind?: string) => domainFilterParams(database, query, summaryKind);
  const offsetOf = (query: ParsedAnalyticsQuery) => (query.page - 1) * query.pageSize;

  async function audit(query: ParsedAnalyticsQuery, summaryKind: 'dynamic' | 'preview'): Promise<PaymentAuditReport> {
    const params = { ...filters(query, summaryKind), outcome_free_statuses: outcomeFreeStatuses };
    const [totals, results] = await Promise.all([
      read<AuditTotalsFact>(auditTotalsSql, params),
      read<AuditResultFact>(auditResultsSql, { ...params, limit: query.pageSize, offset: offsetOf(query) }),
    ]);
    const first = results[0];
    const timeline =
      first === undefined ? [] : await read<TimelineFact>(auditTimelineSql, { ...params, lookup_key: first.lookup_key, limit: auditTimelineLimit });
    return shapePaymentAuditReport(query, {
      totals: totals[0] ?? { total_results: 0, total_success: 0, total_failure: 0 },
      results,
      timeline,
    });
  }

  return {
    async migrate() {
      const migrations = await loadClickHouseMigrations(options.migrationsDir ?? defaultMigrationsDir);
      await applyClickHouseMigrations(executor, database, migrations, clock.now(), options.cluster);
    },

    async insert(batch: AnalyticsRows) {
      // Encoded one table after another (this thread), then sent together: one insert per table.
      const writes: { table: string; columns: readonly string[]; data: string }[] = [];
      for (const { table, columns, rows } of rowsByTable(database, batch)) {
        writes.push({ table, columns: columnNames(columns), data: await encodeInSlices(columns, rows) });
      }
      await Promise.all(writes.map((write) => executor.insertTabSeparated(write.table, write.columns, write.data)));
    },

    async overview(query) {
      const params = filters(query);
      const approvalParams = approvalParamsOf(params, query);
      const [flowCounts, topScores, topErrors, topRules, approvalGateways, approvalSeries, declineReasons] = await Promise.all([
        read<CountFact>(flowCountsSql, { ...params, flows: overviewFlows }),
        read<SnapshotFact>(latestSnapshotsSql, { ...params, limit: overviewTopLimit }),
        read<ErrorFact>(errorGroupsSql, { ...params, limit: overviewTopLimit }),
        read<CountFact>(ruleCountsSql, { ...params, limit: overviewTopLimit }),
        read<ApprovalGatewayFact>(approvalGatewaysSql, approvalParams),
        read<ApprovalPointFact>(approvalSeriesSql, approvalParams),
        read<DeclineReasonFact>(declineReasonsSql, { ...approvalParams, limit: declineReasonLimit }),
      ]);
      return shapeOverviewReport(query, { flowCounts, topScores, topErrors, topRules, approvalGateways, approvalSeries, declineReasons });
    },

    async decisions(query) {
      const params = filters(query);
      const [totals, series, approaches] = await Promise.all([
        read<{ decisions: number; failures: number }>(decisionTotalsSql, params),
        read<BucketCountFact>(decisionSeriesSql, params),
        read<CountFact>(approachCountsSql, params),
      ]);
      return shapeDecisionsReport(query, {
        decisions: totals[0]?.decisions ?? 0,
        failures: totals[0]?.failures ?? 0,
        series,
        approaches,
      });
    },

    async gatewayScores(query) {
      const params = filters(query);
      const [snapshots, series] = await Promise.all([
        read<SnapshotFact>(latestSnapshotsSql, { ...params, limit: snapshotLimit }),
        read<ScorePointFact>(scoreSeriesSql, params),
      ]);
      return shapeGatewayScoresReport(query, { snapshots, series });
    },

    async logSummaries(query) {
      const params = filters(query);
      const [total, errors, samples] = await Promise.all([
        read<{ count: number }>(errorTotalSql, params),
        read<ErrorFact>(errorGroupsSql, { ...params, limit: logSummariesErrorLimit }),
        read<LogSampleFact>(errorSamplesSql, { ...params, limit: query.pageSize, offset: offsetOf(query) }),
      ]);
      return shapeLogSummariesReport(query, { totalErrors: total[0]?.count ?? 0, errors, samples });
    },

    ...clickHouseExperimentReads(database, read),

    paymentAudit: (query) => audit(query, 'dynamic'),
    previewTrace: (query) => audit(query, 'preview'),

    async routingStats(query) {
      const params = filters(query);
      const [gatewayShare, topRules, trend, values] = await Promise.all([
        read<BucketCountFact>(gatewayShareSql, params),
        read<CountFact>(ruleCountsSql, { ...params, limit: routingStatsRuleLimit }),
        read<ScorePointFact>(scoreSeriesSql, params),
        read<FilterValuesFact>(filterValuesSql, params),
      ]);
      return shapeRoutingStatsReport(query, { gatewayShare, topRules, trend, filterValues: values[0] ?? {} });
    },

    async llmOverview(query) {
      const params = filters(query);
      const [totals, providers, apis, cache, promptCache] = await Promise.all([
        read<NumericRow>(llmTotalsSql, params),
        read<NumericRow & { provider: string }>(llmProvidersSql, params),
        read<NumericRow & { api: string }>(llmApisSql, params),
        read<NumericRow>(llmCacheSql, params),
        // The same query as /analytics/llm/prompt-cache's totals, so the two reports agree.
        read<NumericRow>(llmPromptCacheTotalsSql, params),
      ]);
      const row = totals[0];
      const sums = totalsOf(row);
      return {
        ...windowOf(query),
        ...sums,
        total_tokens: sums.input_tokens + sums.output_tokens,
        error_rate: rate(sums.errors, sums.calls),
        avg_latency_ms: Math.round(num(row?.['avg_latency_ms']) * 100) / 100,
        fallback_calls: num(row?.['fallback_calls']),
        providers: providers.map((provider) => ({ provider: provider.provider, ...totalsOf(provider) })),
        apis: apis.map((api) => ({ api: isLlmCallApi(api.api) ? api.api : null, ...totalsOf(api) })),
        ...cacheTotalsOf(cache[0], sums.calls),
        prompt_cache: overviewPromptCacheOf(promptCache[0]),
      };
    },

    async llmUsage(query) {
      const rows = await read<LabelledRow>(llmUsageSql, filters(query));
      return {
        ...windowOf(query),
        bucket_ms: query.bucketMs,
        series: rows.map((row) => ({ bucket_ms: num(row['bucket_ms']), provider: row.provider, model: row.model, ...totalsOf(row) })),
      };
    },

    async llmLatency(query) {
      const rows = await read<LabelledRow>(llmLatencySql, filters(query));
      return {
        ...windowOf(query),
        models: rows.map((row) => {
          const streams = num(row['streams']);
          const ttft = (key: string) => (streams === 0 ? null : num(row[key]));
          return {
            provider: row.provider,
            model: row.model,
            calls: num(row['calls']),
            p50_ms: num(row['p50_ms']),
            p95_ms: num(row['p95_ms']),
            p99_ms: num(row['p99_ms']),
            streams,
            ttft_p50_ms: ttft('ttft_p50_ms'),
            ttft_p95_ms: ttft('ttft_p95_ms'),
            ttft_p99_ms: ttft('ttft_p99_ms'),
          };
        }),
      };
    },

    async llmErrors(query) {
      const params = filters(query);
      const [totals, groups] = await Promise.all([
        read<NumericRow>(llmTotalsSql, params),
        read<LabelledRow & { error_class: string }>(llmErrorsSql, { ...params, limit: llmErrorGroupLimit }),
      ]);
      const sums = totalsOf(totals[0]);
      return {
        ...windowOf(query),
        total_errors: sums.errors,
        error_rate: rate(sums.errors, sums.calls),
        errors: groups.map((group) => ({ error_class: group.error_class, provider: group.provider, model: group.model, count: num(group['count']) })),
      };
    },

    async llmPromptCache(query) {
      const params = filters(query);
      const [totals, usage] = await Promise.all([
        read<NumericRow>(llmPromptCacheTotalsSql, params),
        read<LabelledRow & { api_key_id: string }>(llmPromptCacheUsageSql, params),
      ]);
      return {
        ...windowOf(query),
        ...promptCacheTotalsOf(totals[0]),
        usage: usage.map((row) => ({
          api_key_id: row.api_key_id === '' ? null : row.api_key_id,
          provider: row.provider,
          model: row.model,
          ...promptCacheTotalsOf(row),
        })),
      };
    },

    async llmEndUsers(query) {
      const rows = await read<EndUserFact>(llmEndUsersSql, { ...filters(query), limit: llmEndUserLimit });
      return endUsersReportOf(query, rows);
    },

    async llmRouteGroups(query) {
      const params = { ...filters(query), route_group: query.routeGroup ?? '' };
      const [calls, decisions, eliminations] = await Promise.all([
        read<RouteCallFact>(llmRouteCallsSql, params),
        read<RouteDecisionFact>(llmRouteDecisionsSql, params),
        read<RouteEliminationFact>(llmRouteEliminationsSql, params),
      ]);
      return shapeLlmRouteGroupsReport(query, { calls, decisions, eliminations });
    },

    ...segmentTrafficReads(read, database),
    ...commitmentVolumeReads(read, database),

    ...costSavingsReads(read, filters),
    ...llmGuardReads(read, filters),
    ...routingEventsReads(read, database),

    loggedDecisions: (query) =>
      read<LoggedDecisionFact>(loggedDecisionsSql, {
        database,
        merchant_id: query.merchantId,
        start_ms: query.fromMs,
        end_ms: query.toMs,
        feedback_end_ms: query.feedbackUntilMs,
        feedback_flow: 'update_gateway_score_update',
        limit: query.limit,
      }),

    async dropPartitionsBefore(dayMs) {
      const cutoff = utcDayNumber(dayMs);
      const { cluster } = options;
      // On a cluster the parts live in the replicated `_local` tables (this server's; ON CLUSTER drops everywhere).
      const tables = cluster === undefined ? [...analyticsTables] : analyticsTables.map(clusterLocalTable);
      const parts = await read<{ table: string; partition: string }>(partitionsSql, { database, tables });
      let dropped = 0;
      for (const { table, partition } of parts) {
        // Only our own YYYYMMDD partitions; anything else in the table is left alone.
        if (!/^\d{8}$/.test(partition) || Number(partition) >= cutoff) continue;
        const params = { database, table, partition: Number(partition) };
        await executor.command(cluster === undefined ? bindSql(dropPartitionSql, params) : bindSql(dropPartitionOnClusterSql, { ...params, cluster }));
        dropped++;
      }
      return dropped;
    },

    async ping() {
      try {
        await executor.query('SELECT 1 AS ok');
        return true;
      } catch (error) {
        if (SwitchyardError.isInstance(error) && error.code === 'SY_ANALYTICS_UNAVAILABLE') return false;
        throw error;
      }
    },

    close: () => executor.close(),
  };
}

/**
 * Rows encoded 2,000 at a time (about 1 MB of text, a few ms), yielding to the event loop in
 * between: a 20,000-event batch never holds up requests served by the same process (embedded mode).
 */
const encodeSliceRows = 2000;

async function encodeInSlices(columns: readonly InsertColumn[], rows: readonly object[]): Promise<string> {
  if (rows.length <= encodeSliceRows) return encodeTabSeparated(columns, rows);
  const parts: string[] = [];
  for (let index = 0; index < rows.length; index += encodeSliceRows) {
    if (index > 0) await yieldToEventLoop();
    parts.push(encodeTabSeparated(columns, rows.slice(index, index + encodeSliceRows)));
  }
  return parts.join('');
}

/** YYYYMMDD of the UTC day containing `ms`, as the partition key names it. */
export function utcDayNumber(ms: number): number {
  const date = new Date(ms);
  return date.getUTCFullYear() * 10_000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
}
