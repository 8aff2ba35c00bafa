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

type VolumeCommitmentRouteDeps = Pick<AppDeps, 'state' | 'analytics' | 'clock' | 'volumeCommitmentIntervalSeconds'>;

/** The forecaster's dependencies, read per request: a process without analytics answers 503, not at startup. */
function forecastDepsOf(app: FastifyInstance, deps: VolumeCommitmentRouteDeps): () => VolumeForecastDeps {
  return () => {
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
}

/** One read-only view under `/merchant-account/:merchantId/volume-commitment`. */
interface ViewRoute<Q> {
  /** Below the commitment path; '' for the path itself. */
  readonly path: string;
  readonly summary: string;
  /** Schema names (http-schemas.ts). */
  readonly response: string;
  readonly querystring?: string;
  readonly flowType: string;
  readonly handler: (merchantId: string, query: Q) => Promise<unknown>;
}

function registerView<Q>(app: FastifyInstance, route: ViewRoute<Q>): void {
  app.get<{ Params: { merchantId: string }; Querystring: Q }>(
    `/merchant-account/:merchantId/volume-commitment${route.path === '' ? '' : `/${route.path}`}`,
    {
      schema: {
        tags,
        summary: route.summary,
        params: merchantIdParams,
        ...(route.querystring === undefined ? {} : { querystring: ref(route.querystring) }),
        response: { 200: ref(route.response) },
      },
      config: { flowType: route.flowType, auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request) => route.handler(request.params.merchantId, request.query as Q),
  );
}

/**
 * Volume commitments (docs/volume-commitments.md): the run endpoint the peer's scheduler calls
 * (here the forecaster runs on the job queue; this runs one merchant now) and the read-only views.
 */
export async function volumeCommitmentRoutes(app: FastifyInstance, deps: VolumeCommitmentRouteDeps): Promise<void> {
  const forecastDeps = forecastDepsOf(app, deps);
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
  registerViews(app, forecastDeps);
}

function registerViews(app: FastifyInstance, forecastDeps: () => VolumeForecastDeps): void {
  registerView<Record<string, never>>(app, {
    path: '',
    summary: "Where every one of the merchant's volume commitments stands (the pacing card of the dashboard)",
    response: 'VolumeCommitmentView',
    flowType: 'merchant_account_volume_commitment',
    handler: async (merchantId): Promise<VolumeCommitmentView> => pacingView(forecastDeps(), merchantId),
  });
  registerView<VolumeCommitmentDashboardQuery>(app, {
    path: 'dashboard',
    summary: "Pacing, per-day series and audit of the merchant's volume commitments",
    response: 'VolumeCommitmentDashboard',
    querystring: 'VolumeCommitmentDashboardQuery',
    flowType: 'merchant_account_volume_commitment_dashboard',
    handler: async (merchantId, query): Promise<VolumeCommitmentDashboard> =>
      dashboardView(forecastDeps(), merchantId, {
        ...(query.run_id === undefined ? {} : { runId: query.run_id }),
        ...(query.per_day === undefined ? {} : { perDay: query.per_day }),
      }),
  });
  registerView<Record<string, never>>(app, {
    path: 'projection',
    summary: 'What volume-commitment steering would do this cycle if it were on now (computed, never stored)',
    response: 'VolumeCommitmentView',
    flowType: 'merchant_account_volume_commitment_projection',
    handler: async (merchantId): Promise<VolumeCommitmentView> => projectionView(forecastDeps(), merchantId),
  });
  registerView<VolumeCommitmentDashboardQuery>(app, {
    path: 'impact',
    summary: "Each committed PSP's traffic in the previous cycle against this one, split by who sent it",
    response: 'VolumeCommitmentImpact',
    querystring: 'VolumeCommitmentDashboardQuery',
    flowType: 'merchant_account_volume_commitment_impact',
    handler: async (merchantId, query): Promise<VolumeCommitmentImpact> =>
      impactView(forecastDeps(), merchantId, query.run_id === undefined ? {} : { runId: query.run_id }),
  });
  registerView<Record<string, never>>(app, {
    path: 'samples',
    summary: 'Demo volume contracts ready for the contract builder',
    response: 'VolumeCommitmentSamples',
    flowType: 'merchant_account_volume_commitment_samples',
    handler: async (merchantId): Promise<VolumeCommitmentSamples> => samplesView(merchantId),
  });
}
