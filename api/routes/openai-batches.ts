import type { FastifyInstance } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { OpenAiBatchService } from '../../src/generation/batch/openai-batch-service.js';
import { credentialMerchantOf, credentialOf } from '../plugins/authentication.js';
import { openAiBatchObject } from '../wire/openai-batch.js';
import { openAiList } from '../wire/openai-file.js';
import type { OpenAiBatchCreateRequest } from '../../src/generated/schema-types.js';
import { ref } from '../http-schemas.js';
import { gatewayGuard } from './gateway-route-config.js';

export interface OpenAiBatchRouteDeps {
  readonly batches: OpenAiBatchService;
}

const tags = ['OpenAI Files and Batches'];

const batchIdParams = {
  type: 'object',
  required: ['batchId'],
  properties: { batchId: { type: 'string', minLength: 1, maxLength: 128 } },
} as const;

// Unknown parameters are ignored, as OpenAI ignores them (a `merchant_id` still must name the credential's merchant).
const listQuery = {
  type: 'object',
  properties: {
    after: { type: 'string', minLength: 1, maxLength: 128 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
} as const;

type BatchParams = { Params: { batchId: string } };

/**
 * OpenAI's Batch API (`/v1/batches`): create from an uploaded `batch` file, retrieve, cancel, list,
 * per merchant (another merchant's batch is answered 404 like an unknown one). Lines run on the
 * batch executor's queue, each through the gateway route its `url` names, under the API key that
 * created the batch (src/generation/batch/openai-batch-service.ts).
 */
export async function openAiBatchRoutes(app: FastifyInstance, deps: OpenAiBatchRouteDeps): Promise<void> {
  registerCreate(app, deps);
  registerRetrieveCancelList(app, deps);
}

function registerCreate(app: FastifyInstance, deps: OpenAiBatchRouteDeps): void {
  app.post<{ Body: OpenAiBatchCreateRequest }>(
    '/v1/batches',
    {
      schema: {
        tags,
        summary:
          'Create a batch from an uploaded `batch` file: every line must name the `endpoint` (/v1/chat/completions, /v1/responses or /v1/embeddings); `completion_window` is "24h". Lines run under the API key that creates the batch.',
        body: ref('OpenAiBatchCreateRequest'),
        response: { 200: ref('OpenAiBatch') },
      },
      // A create counts as one request for rpm/max_concurrent; its lines count tokens and spend as they run.
      config: { ...gatewayGuard, keyLimits: { kind: 'llm' } },
    },
    async (request) => {
      const credential = credentialOf(request);
      if (credential.kind !== 'api_key')
        throw new SwitchyardError('SY_BATCH_INVALID', {
          message: 'an OpenAI batch runs under an API key: create it with one (Authorization: Bearer DE_…)',
          details: { param: 'authorization' },
        });
      const { metadata } = request.body;
      const snapshot = await deps.batches.create({
        merchantId: credentialMerchantOf(request),
        apiKeyId: credential.keyId,
        inputFileId: request.body.input_file_id,
        endpoint: request.body.endpoint,
        completionWindow: request.body.completion_window,
        ...(metadata !== undefined && metadata !== null ? { metadata } : {}),
      });
      return openAiBatchObject(snapshot);
    },
  );
}

function registerRetrieveCancelList(app: FastifyInstance, deps: OpenAiBatchRouteDeps): void {
  app.get<BatchParams>(
    '/v1/batches/:batchId',
    {
      schema: {
        tags,
        summary: 'A batch of the merchant: status, request_counts, output and error file ids',
        params: batchIdParams,
        response: { 200: ref('OpenAiBatch') },
      },
      config: gatewayGuard,
    },
    async (request) => openAiBatchObject(await deps.batches.retrieve(credentialMerchantOf(request), request.params.batchId)),
  );
  app.post<BatchParams>(
    '/v1/batches/:batchId/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a batch: lines not started end cancelled, running ones finish (cancelling, then cancelled)',
        params: batchIdParams,
        response: { 200: ref('OpenAiBatch') },
      },
      config: gatewayGuard,
    },
    async (request) => {
      const snapshot = await deps.batches.cancel(credentialMerchantOf(request), request.params.batchId);
      request.log.info({ batchId: request.params.batchId }, 'openai batch cancel requested');
      return openAiBatchObject(snapshot);
    },
  );
  app.get<{ Querystring: { after?: string; limit: number } }>(
    '/v1/batches',
    {
      schema: { tags, summary: "The merchant's batches, newest first (OpenAI's cursor pages: `after`, `limit`)", querystring: listQuery },
      config: gatewayGuard,
    },
    async (request) => {
      const page = await deps.batches.list(credentialMerchantOf(request), request.query);
      return openAiList(page.data.map(openAiBatchObject), page.hasMore);
    },
  );
}
