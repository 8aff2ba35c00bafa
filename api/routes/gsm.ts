import type { FastifyInstance } from 'fastify';
import { defaultGsmMap } from '../../src/feedback/gsm/default-gsm-map.js';
import { gsmOptionRows } from '../../src/feedback/gsm/gsm-options.js';
import { deleteGsmRules, type GsmRulesView, readGsmRules, writeGsmRules } from '../../src/feedback/gsm/merchant-gsm-rules.js';
import type { GsmOptionRow, GsmRules, GsmRulesRequest } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

const tags = ['Gateway Status Map'];

const merchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

type MerchantParams = { Params: { merchantId: string } };

const wireOf = (merchantId: string, view: GsmRulesView): GsmRules => ({
  merchant_id: merchantId,
  rules: [...view.rules],
  excusedClasses: [...view.excusedClasses],
});

/**
 * Gateway status map (docs/gsm.md): the shipped map as decision-engine lists it (GET /gsm/options),
 * and each merchant's override rules and excused classes (/merchant-account/{id}/gsm-rules), which
 * score feedback's `errorInfo` is classified with.
 */
export async function gsmRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'state'>): Promise<void> {
  let options: GsmOptionRow[] | undefined;
  app.get(
    '/gsm/options',
    {
      schema: { tags, summary: 'Every rule of the shipped gateway status map', response: { 200: ref('GsmOptions') } },
      config: { flowType: 'gsm_options', auth: 'either', merchantFrom: 'credential' },
    },
    async () => {
      options ??= gsmOptionRows(defaultGsmMap());
      return { rules: options };
    },
  );

  const route = { tags, params: merchantIdParams, response: { 200: ref('GsmRules') } };
  const config = (flowType: string) => ({ flowType, auth: 'either' as const, merchantFrom: { params: 'merchantId' } });

  app.get<MerchantParams>(
    '/merchant-account/:merchantId/gsm-rules',
    { schema: { ...route, summary: "The merchant's status-map overrides and excused classes" }, config: config('gsm_rules_get') },
    async (request) => wireOf(request.params.merchantId, await readGsmRules(deps.state, request.params.merchantId)),
  );

  app.put<MerchantParams & { Body: GsmRulesRequest }>(
    '/merchant-account/:merchantId/gsm-rules',
    {
      schema: { ...route, summary: "Replace the merchant's status-map overrides (and excused classes)", body: ref('GsmRulesRequest') },
      config: config('gsm_rules_put'),
    },
    async (request) => {
      const { merchantId } = request.params;
      const view = await writeGsmRules(deps.state, merchantId, request.body);
      request.log.info({ merchantId, rules: view.rules.length }, 'gsm rules written');
      return wireOf(merchantId, view);
    },
  );

  app.delete<MerchantParams>(
    '/merchant-account/:merchantId/gsm-rules',
    { schema: { ...route, summary: "Drop the merchant's status-map overrides (the shipped map applies)" }, config: config('gsm_rules_delete') },
    async (request) => wireOf(request.params.merchantId, await deleteGsmRules(deps.state, request.params.merchantId)),
  );
}
