import type { FastifyInstance, FastifyRequest } from 'fastify';
import { experimentResults, experimentTransactions } from '../../src/experiments/experiment-results.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { ExperimentParams, ExperimentResultsQuery, ExperimentTransactionsQuery } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

const tags = ['Analytics'];

/** 1.4.x analytics take x-tenant-id: public; its absence is accepted, any other tenant refused. */
function checkTenant(request: FastifyRequest): void {
  const tenant = request.headers['x-tenant-id'];
  if (tenant !== undefined && tenant !== 'public') throw new SwitchyardError('SY_REQUEST_INVALID', { message: 'Tenant error: Invalid x-tenant-id' });
}

/**
 * A/B experiment analytics (the peer's `/analytics/experiment/*`): results with the verdict, and
 * the per-payment log. The merchant is the credential's; another merchant's experiment is 404.
 */
export async function analyticsExperimentRoutes(app: FastifyInstance, deps: AppDeps & { merchantOf: (request: FastifyRequest) => string }): Promise<void> {
  app.get<{ Params: ExperimentParams; Querystring: ExperimentResultsQuery }>(
    '/analytics/experiment/:experiment_id/results',
    {
      schema: {
        tags,
        summary: 'A/B experiment results: per-arm auth and EV, z-test, verdict and guardrail',
        params: ref('ExperimentParams'),
        querystring: ref('ExperimentResultsQuery'),
        response: { 200: ref('ExperimentResults') },
      },
      config: { flowType: 'analytics_experiment_results', auth: 'either', merchantFrom: 'credential' },
    },
    async (request) => {
      checkTenant(request);
      const query = request.query;
      return experimentResults(deps, deps.merchantOf(request), request.params.experiment_id, {
        ...(query.start_ms !== undefined ? { startMs: query.start_ms } : {}),
        ...(query.end_ms !== undefined ? { endMs: query.end_ms } : {}),
        ...(query.endpoint !== undefined ? { endpoint: query.endpoint } : {}),
        ...(query.min_sample_size !== undefined ? { minSampleSize: query.min_sample_size } : {}),
        ...(query.guardrail_threshold_pp !== undefined ? { guardrailThresholdPp: query.guardrail_threshold_pp } : {}),
        ...(query.evaluation_margin !== undefined ? { evaluationMargin: query.evaluation_margin } : {}),
      });
    },
  );
  app.get<{ Params: ExperimentParams; Querystring: ExperimentTransactionsQuery }>(
    '/analytics/experiment/:experiment_id/transactions',
    {
      schema: {
        tags,
        summary: 'A/B experiment payments: arm, gateway and outcome per payment, newest first (page_size capped at 100)',
        params: ref('ExperimentParams'),
        querystring: ref('ExperimentTransactionsQuery'),
        response: { 200: ref('ExperimentTransactions') },
      },
      config: { flowType: 'analytics_experiment_transactions', auth: 'either', merchantFrom: 'credential' },
    },
    async (request) => {
      checkTenant(request);
      const query = request.query;
      return experimentTransactions(deps, deps.merchantOf(request), request.params.experiment_id, {
        ...(query.start_ms !== undefined ? { startMs: query.start_ms } : {}),
        ...(query.endpoint !== undefined ? { endpoint: query.endpoint } : {}),
        page: query.page ?? 1,
        pageSize: query.page_size ?? 50,
      });
    },
  );
}
