import type { FastifyInstance } from 'fastify';
import { listAutopilotRuns } from '../../src/decision/autopilot/run-autopilot.js';
import type { AutopilotRuns, AutopilotRunsQuery } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

const tags = ['Merchant Account'];

const merchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

/**
 * The autopilot's run records (docs/autopilot.md): what each run read, changed and chose, newest
 * first. Read-only: the runs are made by the autopilot worker, never on request.
 */
export async function autopilotRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'state'>): Promise<void> {
  app.get<{ Params: { merchantId: string }; Querystring: AutopilotRunsQuery }>(
    '/merchant-account/:merchantId/autopilot/runs',
    {
      schema: {
        tags,
        summary: "The autopilot's last runs for the merchant, newest first",
        params: merchantIdParams,
        querystring: ref('AutopilotRunsQuery'),
        response: { 200: ref('AutopilotRuns') },
      },
      config: { flowType: 'merchant_account_autopilot_runs', auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request): Promise<AutopilotRuns> => {
      const { merchantId } = request.params;
      const runs = await listAutopilotRuns(deps.state.configs, merchantId, request.query.limit ?? 20);
      return { merchant_id: merchantId, runs: [...runs] };
    },
  );
}
