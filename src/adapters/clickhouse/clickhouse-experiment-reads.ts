import { failureMarkers, successStatuses } from '../../analytics/status-families.js';
import type {
  ExperimentAnalytics,
  ExperimentArmFacts,
  ExperimentArmOutcomes,
  ExperimentQuery,
  ExperimentTransactionFact,
} from '../../ports/analytics/experiment-reports.js';
import type { SqlValue } from './bind-sql.js';
import { experimentArmOutcomesSql, experimentArmsSql, experimentTotalSql, experimentTransactionsSql } from './sql/experiment-sql.js';

type Read = <T>(sql: string, params: Readonly<Record<string, SqlValue>>) => Promise<T[]>;

/** Flow types the experiment reads join (see src/analytics/map-event-to-rows.ts). */
const decisionFlow = 'decide_gateway_decision';
const feedbackFlow = 'update_gateway_score_update';

type ArmRow = Readonly<Record<string, string | number | null>>;

/** The experiment reads over any ClickHouse executor (server or chDB), same SQL for both. */
export function clickHouseExperimentReads(database: string, read: Read): ExperimentAnalytics {
  const params = (query: ExperimentQuery): Record<string, SqlValue> => ({
    database,
    merchant_id: query.merchantId,
    experiment_id: query.experimentId,
    start_ms: query.startMs,
    end_ms: query.endMs,
    start_s: Math.floor(query.startMs / 1000),
    end_s: Math.floor(query.endMs / 1000),
    decision_flow: decisionFlow,
    feedback_flow: feedbackFlow,
    endpoint: query.endpoint ?? '',
    success_statuses: successStatuses,
    failure_markers: failureMarkers,
  });
  return {
    async experimentArms(query) {
      const rows = await read<ArmRow>(experimentArmsSql, params(query));
      return rows.map(armFactsOf);
    },
    async experimentArmOutcomes(query) {
      const rows = await read<ArmRow>(experimentArmOutcomesSql, params(query));
      return rows.map(armOutcomesOf);
    },
    async experimentTransactions(query) {
      const bound = params(query);
      const [total, transactions] = await Promise.all([
        read<{ total: number | string }>(experimentTotalSql, bound),
        read<ExperimentTransactionFact>(experimentTransactionsSql, { ...bound, limit: query.limit, offset: query.offset }),
      ]);
      return {
        total: Number(total[0]?.total ?? 0),
        transactions: transactions.map((row) => ({ ...row, created_at_ms: Number(row.created_at_ms) })),
      };
    },
  };
}

/** A count or sum of the row as a number (0 when absent or not finite). */
function numberOf(row: ArmRow, key: string): number {
  const value = Number(row[key] ?? 0);
  return Number.isFinite(value) ? value : 0;
}

function armOutcomesOf(row: ArmRow): ExperimentArmOutcomes {
  return {
    arm: row['arm'] === 'variant' ? 'variant' : 'control',
    assigned: numberOf(row, 'assigned'),
    resolved: numberOf(row, 'resolved'),
    successes: numberOf(row, 'successes'),
  };
}

/** Numbers as numbers (an empty avg is nan on both engines: null here). */
function armFactsOf(row: ArmRow): ExperimentArmFacts {
  const n = (key: string) => numberOf(row, key);
  const latency = Number(row['avg_latency_ms']);
  return {
    ...armOutcomesOf(row),
    firstAttemptSuccesses: n('first_attempt_successes'),
    avgLatencyMs: Number.isFinite(latency) && latency > 0 ? latency : null,
    costPayments: n('cost_payments'),
    chosenCostBpsSum: n('chosen_cost_bps_sum'),
    costSavedBpsSum: n('cost_saved_bps_sum'),
    savedSuccessSum: n('saved_success_sum'),
    savedSuccessSquareSum: n('saved_success_sq_sum'),
    totalCostSaved: n('total_cost_saved'),
  };
}
