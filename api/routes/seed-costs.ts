import type { FastifyInstance } from 'fastify';
import { previewSeedCosts, readSeedCosts, resetSeedCosts, saveSeedCosts } from '../../src/costs/seed-costs-settings.js';
import type { SeedCostQuote, SeedCostSimulateRequest, SeedCostWireRow, SeedCostsSave } from '../../src/generated/schema-types.js';
import type { SeedCostRow, SeedCostTable } from '../../src/ports/state/seed-costs.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

const tags = ['Merchant Account'];

const merchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

const tableAnswer = { 200: { type: 'array', items: ref('SeedCostWireRow') } };
const guard = { auth: 'either', merchantFrom: { params: 'merchantId' } } as const;
type MerchantParams = { Params: { merchantId: string } };

const orUndefined = (value: string | null | undefined): string | undefined => value ?? undefined;

/** A wire row as the store keeps it (camelCase, absent wildcards). */
function rowOf(wire: SeedCostWireRow): SeedCostRow {
  const dimensions = {
    cardNetwork: orUndefined(wire.card_network),
    paymentMethodType: orUndefined(wire.payment_method_type),
    cardType: orUndefined(wire.card_type),
    transactionCurrency: orUndefined(wire.transaction_currency),
    cardIssuingCountry: orUndefined(wire.card_issuing_country),
    label: orUndefined(wire.label),
  };
  const row = Object.fromEntries(Object.entries(dimensions).filter(([, value]) => value !== undefined));
  return {
    psp: wire.psp,
    ...row,
    ...(wire.example_amount != null ? { exampleAmount: wire.example_amount } : {}),
    interchangeBps: wire.interchange_bps,
    schemeBps: wire.scheme_bps,
    markupBps: wire.markup_bps,
    fixed: wire.fixed,
    isDefault: wire.is_default === true,
  };
}

/** A stored row on the wire (every key present, null wildcards, the effective percentage computed). */
function wireOf(row: SeedCostRow): SeedCostWireRow {
  return {
    psp: row.psp,
    card_network: row.cardNetwork ?? null,
    payment_method_type: row.paymentMethodType ?? null,
    card_type: row.cardType ?? null,
    transaction_currency: row.transactionCurrency ?? null,
    card_issuing_country: row.cardIssuingCountry ?? null,
    interchange_bps: row.interchangeBps,
    scheme_bps: row.schemeBps,
    markup_bps: row.markupBps,
    fixed: row.fixed,
    label: row.label ?? null,
    example_amount: row.exampleAmount ?? null,
    is_default: row.isDefault,
    effective_pct_bps: row.interchangeBps + row.schemeBps + row.markupBps,
  };
}

const tableOnWire = (table: SeedCostTable): SeedCostWireRow[] => table.map(wireOf);

function registerSimulate(app: FastifyInstance, deps: Pick<AppDeps, 'state'>): void {
  app.post<MerchantParams & { Body: SeedCostSimulateRequest }>(
    '/merchant-account/:merchantId/seed-costs/simulate',
    {
      schema: {
        tags,
        summary: 'Price one scenario per PSP with the seed cost table',
        params: merchantIdParams,
        body: ref('SeedCostSimulateRequest'),
        response: { 200: { type: 'array', items: ref('SeedCostQuote') } },
      },
      config: { ...guard, minRole: 'member' },
    },
    async (request): Promise<SeedCostQuote[]> => {
      const body = request.body;
      const fields = {
        amount: body.amount,
        currency: body.transaction_currency,
        cardNetwork: body.card_network,
        funding: body.payment_method_type,
        program: body.card_type,
        issuerCountry: body.card_issuing_country,
      };
      const quotes = await previewSeedCosts(deps.state, request.params.merchantId, fields, body.psps ?? []);
      return quotes.map((quote) => ({
        psp: quote.psp,
        interchange_bps: quote.interchangeBps,
        scheme_bps: quote.schemeBps,
        markup_bps: quote.markupBps,
        fixed: quote.fixed,
        effective_pct_bps: quote.effectivePctBps,
        effective_cost_bps: quote.effectiveCostBps,
        cost_amount: quote.costAmount,
      }));
    },
  );
}

/**
 * Seed costs (contract rates) of decision-engine's current line: read the table in effect (the
 * default until the merchant saves one), replace it, reset it, and price a scenario with it
 * (src/costs/seed-costs-settings.ts).
 */
export async function seedCostRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'state'>): Promise<void> {
  app.get<MerchantParams>(
    '/merchant-account/:merchantId/seed-costs',
    { schema: { tags, summary: 'The seed cost table in effect', params: merchantIdParams, response: tableAnswer }, config: guard },
    async (request) => tableOnWire(await readSeedCosts(deps.state, request.params.merchantId)),
  );

  app.put<MerchantParams & { Body: SeedCostsSave }>(
    '/merchant-account/:merchantId/seed-costs',
    {
      schema: { tags, summary: "Replace the merchant's seed cost table", params: merchantIdParams, body: ref('SeedCostsSave'), response: tableAnswer },
      config: guard,
    },
    async (request) => {
      const { merchantId } = request.params;
      const table = await saveSeedCosts(deps.state, merchantId, request.body.rows.map(rowOf));
      request.log.info({ merchantId, rows: table.length }, 'seed cost table saved');
      return tableOnWire(table);
    },
  );

  app.delete<MerchantParams>(
    '/merchant-account/:merchantId/seed-costs',
    { schema: { tags, summary: 'Return to the default seed cost table', params: merchantIdParams, response: tableAnswer }, config: guard },
    async (request) => tableOnWire(await resetSeedCosts(deps.state, request.params.merchantId)),
  );

  registerSimulate(app, deps);
}
