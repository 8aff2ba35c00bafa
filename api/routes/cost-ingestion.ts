import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import type { CostIngestionService } from '../../src/costs/ingestion/cost-ingestion-service.js';
import { listedIngestions } from '../../src/costs/ingestion/cost-ingestion-service.js';
import { settlementFormats } from '../../src/costs/ingestion/settlement-formats.js';
import { ref } from '../http-schemas.js';
import { toCostIngestionWire } from '../wire/cost-ingestion-wire.js';
import { genericError } from '../wire/generic-error-envelope.js';

const tags = ['Cost Ingestion'];
const merchantIdParam = { type: 'string', minLength: 1, maxLength: 255 } as const;
const connectorParam = { type: 'string', minLength: 1, maxLength: 64 } as const;
export const reportParams = {
  type: 'object',
  required: ['merchantId', 'connector'],
  properties: { merchantId: merchantIdParam, connector: connectorParam },
} as const;
const merchantParams = { type: 'object', required: ['merchantId'], properties: { merchantId: merchantIdParam } } as const;
const ingestionParams = {
  type: 'object',
  required: ['merchantId', 'ingestionId'],
  properties: { merchantId: merchantIdParam, ingestionId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const errorBody = ref('GenericErrorEnvelope');
const guard = { auth: 'either', merchantFrom: { params: 'merchantId' } } as const;

type ReportRequest = { Params: { merchantId: string; connector: string }; Querystring: { account: string } };

/**
 * Settlement-report ingestion (the peer's cost-ingestion-uploads.mdx): the connectors that can be
 * ingested, the upload (CSV streamed to a spool, never buffered: `text/csv` bodies skip fastify's
 * body parser and its limit, and the use case caps them at `maxReportBytes`), the history and the
 * removal of an ingestion. The work is in src/costs/ingestion/.
 */
export async function costIngestionRoutes(app: FastifyInstance, deps: { readonly costIngestion: CostIngestionService }): Promise<void> {
  // The raw request stream is the body: the use case reads it chunk by chunk into the spool.
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));
  registerConnectorList(app);
  registerUpload(app, deps.costIngestion);
  registerHistory(app, deps.costIngestion);
}

function registerConnectorList(app: FastifyInstance): void {
  app.get(
    '/cost-ingestion/connectors',
    {
      schema: {
        tags,
        summary: 'Connectors whose settlement reports can be ingested, with the columns read',
        response: { 200: { type: 'array', items: ref('CostIngestionConnector') } },
      },
      config: { auth: 'either', merchantFrom: 'credential' },
    },
    async () =>
      [...settlementFormats.values()].map((format) => ({ id: format.connector, pull: format.pull, columns: format.columns.map((column) => ({ ...column })) })),
  );
}

function registerUpload(app: FastifyInstance, service: CostIngestionService): void {
  app.post<ReportRequest>(
    '/merchant-account/:merchantId/connectors/:connector/report',
    {
      schema: {
        tags,
        summary: `Upload a settlement report (text/csv, at most ${Math.floor(service.maxReportBytes / 1_048_576)} MiB); processed in the background`,
        params: reportParams,
        querystring: ref('CostAccountQuery'),
        response: { 202: ref('CostIngestionAccepted'), 400: errorBody, 404: errorBody, 413: errorBody, 415: errorBody },
      },
      config: guard,
    },
    async (request, reply) => {
      const { merchantId, connector } = request.params;
      if (request.headers['content-type']?.split(';')[0]?.trim() !== 'text/csv')
        return reply.code(415).send(genericError('TE_03', 'A settlement report is sent as Content-Type: text/csv'));
      const outcome = await service.upload({ merchantId, connector, account: request.query.account, body: request.body as Readable });
      if (outcome.kind === 'unknown-connector') return reply.code(404).send(genericError('TE_04', `Connector ${connector} does not support report ingestion`));
      if (outcome.kind === 'too-large') return reply.code(413).send(genericError('TE_03', `The report is larger than ${outcome.maxBytes} bytes`));
      if (outcome.kind === 'empty') return reply.code(400).send(genericError('TE_03', 'The report is empty'));
      request.log.info({ merchantId, connector, ingestionId: outcome.id, existing: outcome.existing }, 'settlement report accepted');
      return reply.code(202).send({ id: outcome.id, status: outcome.status });
    },
  );
}

function registerHistory(app: FastifyInstance, service: CostIngestionService): void {
  app.get<{ Params: { merchantId: string } }>(
    '/merchant-account/:merchantId/cost-ingestions',
    {
      schema: {
        tags,
        summary: `Settlement-report ingestions, newest first (at most ${listedIngestions})`,
        params: merchantParams,
        response: { 200: { type: 'array', items: ref('CostIngestion') } },
      },
      config: guard,
    },
    async (request) => (await service.history(request.params.merchantId)).slice(0, listedIngestions).map(toCostIngestionWire),
  );

  app.delete<{ Params: { merchantId: string; ingestionId: string } }>(
    '/merchant-account/:merchantId/cost-ingestions/:ingestionId',
    {
      schema: {
        tags,
        summary: 'Remove an ingestion: its rows, its record, and its share of the fitted cost model',
        params: ingestionParams,
        response: { 204: { type: 'null', description: 'Removed' }, 404: errorBody, 409: errorBody },
      },
      config: guard,
    },
    async (request, reply) => {
      const { merchantId, ingestionId } = request.params;
      const outcome = await service.remove(merchantId, ingestionId);
      if (outcome === 'missing') return reply.code(404).send(genericError('TE_04', 'Ingestion not found'));
      if (outcome === 'processing') return reply.code(409).send(genericError('TE_03', 'Cannot delete an ingestion still processing'));
      request.log.info({ merchantId, ingestionId }, 'cost ingestion removed');
      return reply.code(204).send();
    },
  );
}
