import type { FastifyInstance } from 'fastify';
import { checkMapping, sampleHeader } from '../../src/costs/ingestion/column-mapping.js';
import { costCoverage } from '../../src/costs/ingestion/cost-coverage.js';
import type { CostIngestionService } from '../../src/costs/ingestion/cost-ingestion-service.js';
import { settlementFormats } from '../../src/costs/ingestion/settlement-formats.js';
import type { CostClustersQuery, CostColumnMapping, FeeOverrideRequest } from '../../src/generated/schema-types.js';
import { listCostClusters, maxClusterLimit } from '../../src/costs/ingestion/list-cost-clusters.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { ref } from '../http-schemas.js';
import { toConnectorFeeWire, toCostClusterWire, toCostCoverageWire } from '../wire/cost-ingestion-wire.js';
import { genericError } from '../wire/generic-error-envelope.js';
import { reportParams } from './cost-ingestion.js';

const tags = ['Cost Ingestion'];
const merchantParams = { type: 'object', required: ['merchantId'], properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 } } } as const;
const errorBody = ref('GenericErrorEnvelope');
const guard = { auth: 'either', merchantFrom: { params: 'merchantId' } } as const;
const mappingUrl = '/merchant-account/:merchantId/connectors/:connector/report/column-mapping';
const overrideUrl = '/merchant-account/:merchantId/connectors/:connector/fee-override';

type SourceRequest = { Params: { merchantId: string; connector: string }; Querystring: { account: string } };
const unknownConnector = (connector: string) => genericError('TE_04', `Connector ${connector} does not support report ingestion`);

/** Column mappings per (connector, account), cost coverage, connector fees and their overrides (the peer's cost-ingestion-fees.mdx). */
export async function costIngestionSettingsRoutes(
  app: FastifyInstance,
  deps: { readonly costIngestion: CostIngestionService; readonly state: StateStore },
): Promise<void> {
  registerMappingReads(app, deps.costIngestion);
  registerMappingWrite(app, deps.costIngestion);
  registerCostModelReads(app, deps.state);
  registerFeeOverrides(app, deps.costIngestion);
}

const sourceSchema = { tags, params: reportParams, querystring: ref('CostAccountQuery') };

/** GET and DELETE of a settlement source's column mapping. */
function registerMappingReads(app: FastifyInstance, service: CostIngestionService): void {
  app.get<SourceRequest>(
    mappingUrl,
    {
      schema: {
        ...sourceSchema,
        summary: 'The saved column mapping of a settlement source (empty when none)',
        response: { 200: ref('CostColumnMapping'), 404: errorBody },
      },
      config: guard,
    },
    async (request, reply) => {
      const { merchantId, connector } = request.params;
      if (!settlementFormats.has(connector)) return reply.code(404).send(unknownConnector(connector));
      return { columns: await service.mapping(merchantId, connector, request.query.account) };
    },
  );

  app.delete<SourceRequest>(
    mappingUrl,
    {
      schema: {
        ...sourceSchema,
        summary: 'Clear the column mapping of a settlement source',
        response: { 204: { type: 'null', description: 'Cleared' }, 404: errorBody },
      },
      config: guard,
    },
    async (request, reply) => {
      const { merchantId, connector } = request.params;
      if (!settlementFormats.has(connector)) return reply.code(404).send(unknownConnector(connector));
      await service.setMapping(merchantId, connector, request.query.account, {});
      return reply.code(204).send();
    },
  );
}

function registerMappingWrite(app: FastifyInstance, service: CostIngestionService): void {
  app.put<SourceRequest & { Body: CostColumnMapping }>(
    mappingUrl,
    {
      schema: {
        ...sourceSchema,
        summary: 'Save the column mapping later uploads of this source are read with',
        body: ref('CostColumnMapping'),
        response: { 204: { type: 'null', description: 'Saved' }, 400: errorBody, 404: errorBody },
      },
      config: guard,
    },
    async (request, reply) => {
      const { merchantId, connector } = request.params;
      const format = settlementFormats.get(connector);
      if (format === undefined) return reply.code(404).send(unknownConnector(connector));
      const sample = request.body.sample === undefined ? undefined : await sampleHeader(request.body.sample);
      if (sample?.ok === false) return reply.code(400).send(genericError('TE_03', `Invalid column mapping: ${sample.problem}`));
      const check = checkMapping(format, request.body.columns, sample?.header);
      if (!check.ok) return reply.code(400).send(genericError('TE_03', `Invalid column mapping: ${check.problems.join('; ')}`));
      await service.setMapping(merchantId, connector, request.query.account, check.columns);
      request.log.info({ merchantId, connector, columns: Object.keys(check.columns).length }, 'cost column mapping saved');
      return reply.code(204).send();
    },
  );
}

function registerCostModelReads(app: FastifyInstance, state: StateStore): void {
  app.get<{ Params: { merchantId: string } }>(
    '/merchant-account/:merchantId/cost-coverage',
    {
      schema: {
        tags,
        summary: "What share of the merchant's volume has a trustworthy fee model",
        params: merchantParams,
        response: { 200: ref('CostCoverage') },
      },
      config: guard,
    },
    async (request) => toCostCoverageWire(costCoverage(await state.configs.get(request.params.merchantId, 'costModel'))),
  );

  app.get<{ Params: { merchantId: string }; Querystring: CostClustersQuery }>(
    '/merchant-account/:merchantId/cost-clusters',
    {
      schema: {
        tags,
        summary: `The fitted clusters, most settled volume first (at most ${maxClusterLimit}): fitted fee, cluster override, fee served`,
        params: merchantParams,
        querystring: ref('CostClustersQuery'),
        response: { 200: { type: 'array', items: ref('CostCluster') } },
      },
      config: guard,
    },
    async (request) => {
      const { card_network, issuer_country, ic_category, ...rest } = request.query;
      const clusters = listCostClusters(await state.configs.get(request.params.merchantId, 'costModel'), {
        ...rest,
        ...(card_network !== undefined ? { cardNetwork: card_network } : {}),
        ...(issuer_country !== undefined ? { issuerCountry: issuer_country } : {}),
        ...(ic_category !== undefined ? { icCategory: ic_category } : {}),
      });
      return clusters.map(toCostClusterWire);
    },
  );

  app.get<{ Params: { merchantId: string } }>(
    '/merchant-account/:merchantId/connector-fees',
    {
      schema: {
        tags,
        summary: 'Per connector account: blended fitted fee, manual override, the one served',
        params: merchantParams,
        response: { 200: { type: 'array', items: ref('ConnectorFee') } },
      },
      config: guard,
    },
    async (request) => ((await state.configs.get(request.params.merchantId, 'costModel'))?.connectors ?? []).map(toConnectorFeeWire),
  );
}

function registerFeeOverrides(app: FastifyInstance, service: CostIngestionService): void {
  const overrideParams = { ...reportParams };
  app.put<{ Params: { merchantId: string; connector: string }; Body: FeeOverrideRequest }>(
    overrideUrl,
    {
      schema: {
        tags,
        summary: 'Serve a manual fee for the connector instead of the fitted one',
        params: overrideParams,
        body: ref('FeeOverrideRequest'),
        response: { 204: { type: 'null', description: 'Set' } },
      },
      config: guard,
    },
    async (request, reply) => {
      const { merchantId, connector } = request.params;
      await service.setFeeOverride(merchantId, connector, { pctBps: request.body.pct_bps, fixed: request.body.fixed });
      return reply.code(204).send();
    },
  );

  app.delete<{ Params: { merchantId: string; connector: string } }>(
    overrideUrl,
    {
      schema: {
        tags,
        summary: 'Serve the fitted fee for the connector again',
        params: overrideParams,
        response: { 204: { type: 'null', description: 'Cleared' } },
      },
      config: guard,
    },
    async (request, reply) => {
      await service.setFeeOverride(request.params.merchantId, request.params.connector, undefined);
      return reply.code(204).send();
    },
  );
}
