import type { FastifyInstance } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type {
  VolumeCommitmentDashboard,
  VolumeCommitmentDashboardQuery,
  VolumeCommitmentImpact,
  VolumeCommitmentSamples,
  VolumeCommitmentView,
  VolumeForecastRunQuery,
  VolumeForecastRunReport,
} from '../../src/generated/schema-types.js';
import { runVolumeForecast, type VolumeForecastDeps } from '../../src/volume-commitment/run-volume-forecast.js';
import { dashboardView, impactView, pacingView, projectionView, samplesView } from '../../src/volume-commitment/volume-commitment-views.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

const tags = ['Merchant Account'];

const merchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

/** The forecaster's cadence when the composition root names none (the config default). */
const defaultIntervalSeconds = 300;

/**
 * Volume commitments (docs/volume-commitments.md): the run endpoint the peer's scheduler calls
 * (here the forecaster runs on the job queue; this runs one merchant now) and the read-only views.
 */
export async function volumeCommitmentRoutes(
  app: FastifyInstance,
  deps: Pick<AppDeps, 'state' | 'analytics' | 'clock' | 'volumeCommitmentIntervalSeconds'>,
): Promise<void> {
  const forecastDeps = (): VolumeForecastDeps => {
    const analytics = deps.analytics;
    if (analytics === undefined) {
      throw new SwitchyardError('SY_VOLUME_FORECAST_UNAVAILABLE', { message: 'volume commitment is not configured in this process' });
    }
    return {
      routingRules: deps.state.routingRules,
      configs: deps.state.configs,
      analytics,
      clock: deps.clock,
      logger: app.log,
      defaultIntervalSeconds: deps.volumeCommitmentIntervalSeconds ?? defaultIntervalSeconds,
    };
  };

  app.post<{ Querystring: VolumeForecastRunQuery }>(
    '/volume-commitment/run-forecast',
    {
      schema: {
        tags,
        summary: "Re-measure the merchant's commitments and publish its steering plan now",
        querystring: ref('VolumeForecastRunQuery'),
        response: { 200: ref('VolumeForecastRunReport') },
      },
      config: { flowType: 'volume_commitment_run_forecast', auth: 'either', merchantFrom: { query: 'merchant_id' } },
    },
    async (request): Promise<VolumeForecastRunReport> => {
      const merchantId = request.query.merchant_id;
      // The sweep of every merchant is the scheduler's (the job queue's), never a merchant credential's.
      if (merchantId === undefined) {
        throw new SwitchyardError('SY_AUTH_FORBIDDEN_MERCHANT', { message: 'running a forecast for every merchant needs the admin secret' });
      }
      return runVolumeForecast(forecastDeps(), merchantId);
    },
  );

  const view = <Q>(
    path: string,
    summary: string,
    response: string,
    flowType: string,
    querystring: string | undefined,
    handler: (merchantId: string, query: Q) => Promise<unknown>,
  ) =>
    app.get<{ Params: { merchantId: string }; Querystring: Q }>(
      `/merchant-account/:merchantId/volume-commitment${path === '' ? '' : `/${path}`}`,
      {
        schema: {
          tags,
          summary,
          params: merchantIdParams,
          ...(querystring === undefined ? {} : { querystring: ref(querystring) }),
          response: { 200: ref(response) },
        },
        config: { flowType, auth: 'either', merchantFrom: { params: 'merchantId' } },
      },
      async (request) => handler(request.params.merchantId, request.query as Q),
    );

  view<Record<string, never>>(
    '',
    "Where every one of the merchant's volume commitments stands (the pacing card of the dashboard)",
    'VolumeCommitmentView',
    'merchant_account_volume_commitment',
    undefined,
    async (merchantId): Promise<VolumeCommitmentView> => pacingView(forecastDeps(), merchantId),
  );
  view<VolumeCommitmentDashboardQuery>(
    'dashboard',
    "Pacing, per-day series and audit of the merchant's volume commitments",
    'VolumeCommitmentDashboard',
    'merchant_account_volume_commitment_dashboard',
    'VolumeCommitmentDashboardQuery',
    async (merchantId, query): Promise<VolumeCommitmentDashboard> =>
      dashboardView(forecastDeps(), merchantId, {
        ...(query.run_id === undefined ? {} : { runId: query.run_id }),
        ...(query.per_day === undefined ? {} : { perDay: query.per_day }),
      }),
  );
  view<Record<string, never>>(
    'projection',
    'What volume-commitment steering would do this cycle if it were on now (computed, never stored)',
    'VolumeCommitmentView',
    'merchant_account_volume_commitment_projection',
    undefined,
    async (merchantId): Promise<VolumeCommitmentView> => projectionView(forecastDeps(), merchantId),
  );
  view<VolumeCommitmentDashboardQuery>(
    'impact',
    "Each committed PSP's traffic in the previous cycle against this one, split by who sent it",
    'VolumeCommitmentImpact',
    'merchant_account_volume_commitment_impact',
    'VolumeCommitmentDashboardQuery',
    async (merchantId, query): Promise<VolumeCommitmentImpact> =>
      impactView(forecastDeps(), merchantId, query.run_id === undefined ? {} : { runId: query.run_id }),
  );
  view<Record<string, never>>(
    'samples',
    'Demo volume contracts ready for the contract builder',
    'VolumeCommitmentSamples',
    'merchant_account_volume_commitment_samples',
    undefined,
    async (merchantId): Promise<VolumeCommitmentSamples> => samplesView(merchantId),
  );
}
