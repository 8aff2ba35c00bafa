import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { BatchResultsQuery, BatchSubmitRequest } from '../../src/generated/schema-types.js';
import type { BatchService } from '../../src/generation/batch/batch-service.js';
import type { BatchView } from '../../src/generation/batch/batch-view.js';
import { ref } from '../http-schemas.js';
import { credentialMerchantOf, credentialOf, isOwnMerchant } from '../plugins/authentication.js';

export interface BatchRouteDeps {
  readonly batches: BatchService;
}

const tags = ['Batches'];

const batchIdParams = {
  type: 'object',
  required: ['batchId'],
  properties: { batchId: { type: 'string', minLength: 1, maxLength: 128 } },
} as const;

type BatchParams = { Params: { batchId: string } };

function notFound(batchId: string): SwitchyardError {
  return new SwitchyardError('SY_BATCH_NOT_FOUND', { message: 'Batch not found', details: { batchId } });
}

/** The batch, when it is the credential's merchant's. */
async function ownBatch(deps: BatchRouteDeps, request: FastifyRequest, batchId: string): Promise<BatchView> {
  const view = await deps.batches.status(batchId);
  // Another merchant's batch is answered as an unknown one: the id says nothing about its owner.
  if (view === undefined || !isOwnMerchant(request, view.merchantId)) throw notFound(batchId);
  return view;
}

function registerSubmitBatch(app: FastifyInstance, deps: BatchRouteDeps): void {
  app.post<{ Body: BatchSubmitRequest }>(
    '/api/batches',
    {
      schema: {
        tags,
        summary: "Submit prompts sharing options as a batch for the credential's merchant; one job per prompt",
        description:
          'Options are checked before anything is enqueued (400 naming the option). Items run on the generation workers under per-provider concurrency and rate limits; retryable failures are retried with exponential backoff, others go to the dead letter.',
        body: ref('BatchSubmitRequest'),
        response: { 202: ref('Batch') },
      },
      // A submission counts as one request for rpm/max_concurrent; its items' calls count tokens and spend as they run.
      config: { auth: 'either', merchantFrom: 'credential', keyLimits: { kind: 'llm' } },
    },
    async (request, reply) => {
      const credential = credentialOf(request);
      const view = await deps.batches.submit({
        merchantId: credentialMerchantOf(request),
        ...(credential.kind === 'session' ? { userId: credential.claims.userId } : { apiKeyId: credential.keyId }),
        prompts: request.body.prompts,
        ...(request.body.options !== undefined ? { options: request.body.options } : {}),
      });
      return reply
        .code(202)
        .header('location', `/api/batches/${encodeURIComponent(view.batchId)}`)
        .send(view);
    },
  );
}

function registerBatchStatus(app: FastifyInstance, deps: BatchRouteDeps): void {
  app.get<BatchParams>(
    '/api/batches/:batchId',
    {
      schema: {
        tags,
        summary: "A batch's progress: items pending, succeeded, failed (dead letter) and cancelled",
        params: batchIdParams,
        response: { 200: ref('Batch') },
      },
      config: { auth: 'either', merchantFrom: 'resource' },
    },
    async (request) => ownBatch(deps, request, request.params.batchId),
  );
}

function registerBatchResults(app: FastifyInstance, deps: BatchRouteDeps): void {
  app.get<BatchParams & { Querystring: BatchResultsQuery }>(
    '/api/batches/:batchId/results',
    {
      schema: {
        tags,
        summary: "A page of a batch's items in index order, each with its answer or dead-letter entry",
        params: batchIdParams,
        querystring: ref('BatchResultsQuery'),
        response: { 200: ref('BatchResults') },
      },
      config: { auth: 'either', merchantFrom: 'resource' },
    },
    async (request) => {
      const { batchId } = request.params;
      await ownBatch(deps, request, batchId);
      const page = await deps.batches.results(batchId, { offset: request.query.offset ?? 0, limit: request.query.limit ?? 100 });
      if (page === undefined) throw notFound(batchId);
      return page;
    },
  );
}

function registerCancelBatch(app: FastifyInstance, deps: BatchRouteDeps): void {
  app.post<BatchParams>(
    '/api/batches/:batchId/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a batch: items not started are dropped, running ones finish; cancelling again changes nothing',
        params: batchIdParams,
        response: { 200: ref('Batch') },
      },
      config: { auth: 'either', merchantFrom: 'resource' },
    },
    async (request) => {
      const { batchId } = request.params;
      await ownBatch(deps, request, batchId);
      const view = await deps.batches.cancel(batchId);
      if (view === undefined) throw notFound(batchId);
      request.log.info({ batchId, merchantId: view.merchantId }, 'batch cancel requested');
      return view;
    },
  );
}

/**
 * Batch generation jobs: submit prompts that share options (one queued job each), read progress
 * and paged results, cancel. A batch belongs to the merchant whose credential submitted it;
 * another merchant's credential gets 403, an unknown id 404 (as the API-key routes answer).
 */
export async function batchRoutes(app: FastifyInstance, deps: BatchRouteDeps): Promise<void> {
  registerSubmitBatch(app, deps);
  registerBatchStatus(app, deps);
  registerBatchResults(app, deps);
  registerCancelBatch(app, deps);
}
