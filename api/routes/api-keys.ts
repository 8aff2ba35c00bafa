import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { AuthService } from '../../src/auth/auth-service.js';
import { policyView, toApiKeyCreated, toApiKeyListItem, toApiKeyRevoked } from '../../src/auth/auth-views.js';
import type { ApiKeyCreateRequest, KeyPolicyRequest } from '../../src/generated/schema-types.js';
import { toWireLimits, type KeyPolicy } from '../../src/governance/key-policy.js';
import { listKeysWithUsage, type KeyWithUsage } from '../../src/governance/list-keys-with-usage.js';
import { parseKeyPolicy } from '../../src/governance/parse-key-policy.js';
import type { ApiKeyRecord, StateStore } from '../../src/ports/state-store.js';
import { ref } from '../http-schemas.js';
import { isOwnMerchant } from '../plugins/authentication.js';
import { genericError } from '../wire/generic-error-envelope.js';

export interface ApiKeyRouteDeps {
  readonly auth: AuthService;
  readonly state: StateStore;
  readonly now: () => number;
}

/** The limits, cache and MCP tool allow-list of a body; a problem is a 400 naming the field at fault. */
function policyOf(body: { readonly limits?: unknown; readonly cache?: unknown; readonly mcp?: unknown } | undefined): KeyPolicy {
  const parsed = parseKeyPolicy(body?.limits, body?.cache, body?.mcp);
  if (!parsed.ok) throw new SwitchyardError('SY_REQUEST_INVALID', { message: `Invalid request: ${parsed.problem}` });
  return parsed.policy;
}

const keyNotFound = genericError('TE_04', 'API key not found');

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

type MerchantParams = { Params: { merchant_id: string } };
type KeyParams = { Params: { key_id: string } };

/** The key, when it exists and is the credential's merchant's: another merchant's key is answered as an unknown id. */
async function ownKey(deps: ApiKeyRouteDeps, request: FastifyRequest, keyId: string): Promise<ApiKeyRecord | undefined> {
  const record = await deps.state.apiKeys.findById(keyId);
  return record !== undefined && isOwnMerchant(request, record.merchantId) ? record : undefined;
}

/** A list item with the key's effective limits and its usage (amounts rounded to the nano-dollar). */
function toKeyWithUsageItem({ record, effective, period, usage }: KeyWithUsage) {
  return {
    ...toApiKeyListItem(record),
    effective_limits: toWireLimits(effective.limits),
    usage: {
      requests_this_minute: usage.requestsThisMinute,
      tokens_this_minute: usage.tokensThisMinute,
      in_flight: usage.inFlight,
      spend_usd: Math.round(usage.spendThisPeriodUsd * 1e9) / 1e9,
      reserved_usd: Math.round(usage.reservedUsd * 1e9) / 1e9,
      period,
    },
  };
}

function registerCreateApiKey(app: FastifyInstance, deps: ApiKeyRouteDeps): void {
  app.post<{ Body: ApiKeyCreateRequest }>(
    '/api-key/create',
    {
      schema: {
        tags,
        summary: "Mint a key for the credential's merchant; the raw key is shown only here",
        body: ref('ApiKeyCreateRequest'),
        response: { 200: ref('ApiKeyCreated') },
      },
      // The guard has already made merchant_id the credential's merchant, which therefore exists.
      config: { auth: 'either', merchantFrom: { body: ['merchant_id'] } },
    },
    async (request) => {
      const policy = policyOf(request.body);
      const created = await deps.auth.createApiKey(request.body.merchant_id, request.body.description ?? null, policy);
      request.log.info({ merchantId: created.record.merchantId, keyId: created.record.keyId }, 'api key created');
      return toApiKeyCreated(created);
    },
  );
}

function registerListApiKeys(app: FastifyInstance, deps: ApiKeyRouteDeps): void {
  app.get<MerchantParams>(
    '/api-key/list/:merchant_id',
    {
      schema: {
        tags,
        summary: "A merchant's keys, active and revoked, never the raw key",
        params: merchantIdParams,
        response: { 200: { type: 'array', items: ref('ApiKeyListItem') } },
      },
      config: { auth: 'either', merchantFrom: { params: 'merchant_id' } },
    },
    async (request) => {
      const keys = await listKeysWithUsage(deps, request.params.merchant_id);
      return keys.map(toKeyWithUsageItem);
    },
  );
}

function registerReplaceKeyLimits(app: FastifyInstance, deps: ApiKeyRouteDeps): void {
  app.post<KeyParams & { Body: KeyPolicyRequest }>(
    '/api-key/:key_id/limits',
    {
      schema: {
        tags,
        summary: "Replace a key's limits and cache setting (null or absent removes them); enforced from the next request on every replica",
        params: keyIdParams,
        body: ref('KeyPolicyRequest'),
        response: { 200: ref('ApiKeyListItem') },
      },
      config: { auth: 'either', merchantFrom: 'resource' },
    },
    async (request, reply) => {
      const { key_id: keyId } = request.params;
      const record = await ownKey(deps, request, keyId);
      if (record === undefined) return reply.code(404).send(keyNotFound);
      const updated = await deps.state.apiKeys.setPolicy(keyId, policyOf(request.body));
      if (updated === undefined) return reply.code(404).send(keyNotFound);
      request.log.info({ merchantId: record.merchantId, keyId }, 'api key limits replaced');
      return toApiKeyListItem(updated);
    },
  );
}

function registerKeyDefaults(app: FastifyInstance, deps: ApiKeyRouteDeps): void {
  app.get<MerchantParams>(
    '/api-key/defaults/:merchant_id',
    {
      schema: { tags, summary: "The limits and cache setting of the merchant's keys that set none of their own", params: merchantIdParams },
      config: { auth: 'either', merchantFrom: { params: 'merchant_id' } },
    },
    async (request) => policyView(await deps.state.configs.get(request.params.merchant_id, 'apiKeyDefaults')),
  );

  app.put<MerchantParams & { Body: KeyPolicyRequest }>(
    '/api-key/defaults/:merchant_id',
    {
      schema: {
        tags,
        summary: "Replace the merchant's default limits and cache setting (a key's own fields win, field by field)",
        params: merchantIdParams,
        body: ref('KeyPolicyRequest'),
      },
      config: { auth: 'either', merchantFrom: { params: 'merchant_id' } },
    },
    async (request) => {
      const policy = policyOf(request.body);
      await deps.state.configs.put(request.params.merchant_id, 'apiKeyDefaults', policy, 'upsert');
      return policyView(policy);
    },
  );
}

function registerRevokeApiKey(app: FastifyInstance, deps: ApiKeyRouteDeps): void {
  app.delete<KeyParams>(
    '/api-key/:key_id',
    {
      schema: { tags, summary: 'Revoke a key at once on every replica', params: keyIdParams, response: { 200: ref('ApiKeyRevoked') } },
      config: { auth: 'either', merchantFrom: 'resource' },
    },
    async (request, reply) => {
      const { key_id: keyId } = request.params;
      const record = await ownKey(deps, request, keyId);
      if (record === undefined) return reply.code(404).send(keyNotFound);
      const result = await deps.auth.revokeApiKey(keyId);
      if (result.kind !== 'ok') return reply.code(404).send(keyNotFound);
      // Keys are never cached (src/adapters/cache/cached-state-store.ts): the next request on any replica reads the revocation.
      request.log.info({ merchantId: record.merchantId, keyId }, 'api key revoked');
      return toApiKeyRevoked(keyId);
    },
  );
}

/**
 * API Keys: create, list and revoke a merchant's keys, with decision-engine 1.4.x's shapes.
 * Stricter than decision-engine, which checks neither who asks nor whether the key exists: the
 * merchant must be the credential's own, and revoking an unknown key is a 404, not a 500.
 */
export async function apiKeyRoutes(app: FastifyInstance, deps: ApiKeyRouteDeps): Promise<void> {
  registerCreateApiKey(app, deps);
  registerListApiKeys(app, deps);
  registerReplaceKeyLimits(app, deps);
  registerKeyDefaults(app, deps);
  registerRevokeApiKey(app, deps);
}
