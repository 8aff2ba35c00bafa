import type { FastifyInstance } from 'fastify';
import { clearReportingCurrency, readReportingCurrency, saveReportingCurrency } from '../../src/costs/reporting-currency-settings.js';
import type { ReportingCurrencySetting as WireSetting } from '../../src/generated/schema-types.js';
import type { ReportingCurrencySetting } from '../../src/ports/state/reporting-currency.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

const tags = ['Merchant Account'];
const merchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;
const answer = { 200: ref('ReportingCurrencySetting') };
// Body shape errors answer 422 in the JSON envelope (not 1.4.x's text): this route is ours, not the peer's.
const guard = { auth: 'either', merchantFrom: { params: 'merchantId' }, bodyErrors: 'json' } as const;
type MerchantParams = { Params: { merchantId: string } };

const none: WireSetting = { currency: null, rates: [] };

function wireOf(setting: ReportingCurrencySetting | undefined): WireSetting {
  if (setting === undefined) return none;
  return { currency: setting.currency, rates: setting.rates.map((rate) => ({ currency: rate.currency, rate: rate.rate, as_of: rate.asOf })) };
}

/**
 * The merchant's reporting currency and its exchange rates (src/costs/reporting-currency-settings.ts):
 * read, replace, clear. GET /analytics/cost-savings converts to it when set.
 */
export async function reportingCurrencyRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'state'>): Promise<void> {
  const url = '/merchant-account/:merchantId/reporting-currency';
  app.get<MerchantParams>(
    url,
    {
      schema: { tags, summary: 'The reporting currency and its exchange rates (currency null: none set)', params: merchantIdParams, response: answer },
      config: guard,
    },
    async (request) => wireOf(await readReportingCurrency(deps.state, request.params.merchantId)),
  );

  app.put<MerchantParams & { Body: WireSetting }>(
    url,
    {
      schema: {
        tags,
        summary: 'Set the reporting currency and the exchange rates to it (each above 0, with its as_of date); replaces the whole setting',
        params: merchantIdParams,
        body: ref('ReportingCurrencySetting'),
        response: answer,
      },
      config: guard,
    },
    async (request) => {
      const { merchantId } = request.params;
      const body = request.body;
      const setting = await saveReportingCurrency(deps.state, merchantId, {
        currency: body.currency,
        rates: body.rates.map((rate) => ({ currency: rate.currency, asOf: rate.as_of, ...(rate.rate !== undefined ? { rate: rate.rate } : {}) })),
      });
      request.log.info({ merchantId, currency: setting.currency, rates: setting.rates.length }, 'reporting currency saved');
      return wireOf(setting);
    },
  );

  app.delete<MerchantParams>(
    url,
    { schema: { tags, summary: 'Clear the reporting currency: money reports per currency only', params: merchantIdParams, response: answer }, config: guard },
    async (request) => {
      await clearReportingCurrency(deps.state, request.params.merchantId);
      return none;
    },
  );
}
