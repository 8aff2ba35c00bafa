import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../../src/auth/auth-service.js';
import { toApiKeyCreated, toApiKeyListItem, toApiKeyRevoked } from '../../src/auth/auth-views.js';
import type { ApiKeyCreateRequest } from '../../src/generated/schema-types.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { ref } from '../http-schemas.js';
import { assertOwnMerchant } from '../plugins/authentication.js';
import { genericError } from '../wire/generic-error-envelope.js';

export interface ApiKeyRouteDeps {
  readonly auth: AuthService;
  readonly state: StateStore;
}

const tags = ['API Keys'];

const merchantIdParams = {
  type: 'object',
  required: ['merchant_id'],
  properties: { merchant_id: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

const keyIdParams = {
  type: 'object',
  required: ['key_id'],
  properties: { key_id: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

/**
 * API Keys: create, list and revoke a merchant's keys, with decision-engine 1.4.x's shapes.
 * Stricter than decision-engine, which checks neither who asks nor whether the key exists: the
 * merchant must be the credential's own, and revoking an unknown key is a 404, not a 500.
 */
export async function apiKeyRoutes(app: FastifyInstance, deps: ApiKeyRouteDeps): Promise<void> {
  app.post<{ Body: ApiKeyCreateRequest }>(
    '/api-key/create',
    {
      schema: { tags, summary: "Mint a key for the credential's merchant; the raw key is shown only here", body: ref('ApiKeyCreateRequest'), response: { 200: ref('ApiKeyCreated') } },
      // The guard has already made merchant_id the credential's merchant, which therefore exists.
      config: { auth: 'either', merchantFrom: { body: ['merchant_id'] } },
    },
    async (request) => {
      const created = await deps.auth.createApiKey(request.body.merchant_id, request.body.description ?? null);
      request.log.info({ merchantId: created.record.merchantId, keyId: created.record.keyId }, 'api key created');
      return toApiKeyCreated(created);
    },
  );

  app.get<{ Params: { merchant_id: string } }>(
    '/api-key/list/:merchant_id',
    {
      schema: { tags, summary: "A merchant's keys, active and revoked, never the raw key", params: merchantIdParams, response: { 200: { type: 'array', items: ref('ApiKeyListItem') } } },
      config: { auth: 'either', merchantFrom: { params: 'merchant_id' } },
    },
    async (request) => (await deps.auth.listApiKeys(request.params.merchant_id)).map(toApiKeyListItem),
  );

  app.delete<{ Params: { key_id: string } }>(
    '/api-key/:key_id',
    {
      schema: { tags, summary: 'Revoke a key at once on every replica', params: keyIdParams, response: { 200: ref('ApiKeyRevoked') } },
      config: { auth: 'either', merchantFrom: 'resource' },
    },
    async (request, reply) => {
      const { key_id: keyId } = request.params;
      const record = await deps.state.apiKeys.findById(keyId);
      if (record === undefined) return reply.code(404).send(genericError('TE_04', 'API key not found'));
      assertOwnMerchant(request, record.merchantId);
      const result = await deps.auth.revokeApiKey(keyId);
      if (result.kind !== 'ok') return reply.code(404).send(genericError('TE_04', 'API key not found'));
      // Keys are never cached (src/adapters/cache/cached-state-store.ts): the next request on any replica reads the revocation.
      request.log.info({ merchantId: record.merchantId, keyId }, 'api key revoked');
      return toApiKeyRevoked(keyId);
    },
  );
}
