import type { FastifyInstance } from 'fastify';
import type { ResponsesUseCase } from '../../src/generation/gateway/create-response.js';
import { credentialMerchantOf } from '../plugins/authentication.js';
import { deletedResponseBody, inputItemsBody, openAiResponseBody } from '../wire/openai-response.js';
import { gatewayGuard, gatewayTags as tags } from './gateway-route-config.js';

export interface StoredResponseDeps {
  readonly responses: ResponsesUseCase;
}

/** A response id as the gateway makes them (`resp_` and hex); anything else cannot name one. */
const responseIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 6, maxLength: 128, pattern: '^resp_[A-Za-z0-9]+$' } },
} as const;

const inputItemsQuery = {
  type: 'object',
  properties: {
    after: { type: 'string', maxLength: 256 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    order: { enum: ['asc', 'desc'], default: 'desc' },
  },
} as const;

type IdParams = { Params: { id: string } };

/**
 * Stored responses of the Responses API, each only for its own merchant (another's id is 404, as
 * an unknown one): `GET /v1/responses/{id}`, `DELETE /v1/responses/{id}`,
 * `GET /v1/responses/{id}/input_items`.
 */
export async function storedResponseRoutes(app: FastifyInstance, deps: StoredResponseDeps): Promise<void> {
  app.get<IdParams>(
    '/v1/responses/:id',
    { schema: { tags, summary: 'A stored response (the create answer, as it was)', params: responseIdParams }, config: gatewayGuard },
    async (request) => openAiResponseBody(await deps.responses.get(credentialMerchantOf(request), request.params.id)),
  );

  app.delete<IdParams>(
    '/v1/responses/:id',
    {
      schema: { tags, summary: 'Deletes a stored response: later retrieves, input_items and previous_response_id find nothing', params: responseIdParams },
      config: gatewayGuard,
    },
    async (request) => {
      await deps.responses.delete(credentialMerchantOf(request), request.params.id);
      return deletedResponseBody(request.params.id);
    },
  );

  app.get<IdParams & { Querystring: { after?: string; limit?: number; order?: 'asc' | 'desc' } }>(
    '/v1/responses/:id/input_items',
    {
      schema: {
        tags,
        summary: "A page of a stored response's input items (newest first unless order=asc; `after` an item id)",
        params: responseIdParams,
        querystring: inputItemsQuery,
      },
      config: gatewayGuard,
    },
    async (request) => {
      const { after, limit, order } = request.query;
      const page = await deps.responses.inputItems(credentialMerchantOf(request), request.params.id, { after, limit: limit ?? 20, order: order ?? 'desc' });
      return inputItemsBody(page);
    },
  );
}
