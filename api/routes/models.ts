import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { ModelsSearchQuery } from '../../src/generated/schema-types.js';
import type { DynamicModelRegistry } from '../../src/generation/models/dynamic-model-registry.js';
import { normalizeProviderName } from '../../src/generation/provider-name.js';
import { ref } from '../http-schemas.js';

export interface ModelRouteDeps {
  readonly models: DynamicModelRegistry;
  /** `either` in the unified service; `none` for `switchyard models serve`, which serves only the public catalogue. */
  readonly auth: 'either' | 'none';
  readonly now?: () => Date;
}

const tags = ['Models'];

/** The model registry (config/models.json or the shipped one) over HTTP, read only. */
export async function modelRoutes(app: FastifyInstance, deps: ModelRouteDeps): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const config: FastifyContextConfig = deps.auth === 'none' ? { auth: 'none' } : { auth: 'either', merchantFrom: 'credential' };
  const providerParams = { type: 'object', required: ['provider'], properties: { provider: { type: 'string', minLength: 1, maxLength: 64 } } } as const;
  const aliasParams = { type: 'object', required: ['alias'], properties: { alias: { type: 'string', minLength: 1, maxLength: 256 } } } as const;

  app.get(
    '/models',
    { schema: { tags, summary: 'Every model of the registry with pricing (USD per 1K tokens), capabilities and aliases' }, config },
    async () => {
      const models = deps.models.getAllModels();
      return { version: deps.models.version ?? null, count: models.length, models, serverTime: now().toISOString() };
    },
  );

  app.get<{ Querystring: ModelsSearchQuery }>(
    '/models/search',
    { schema: { tags, summary: 'Models with a capability, under a price, of a provider; cheapest first', querystring: ref('ModelsSearchQuery') }, config },
    async (request) => {
      const { capability, maxPrice, provider } = request.query;
      const results = deps.models.searchModels({
        ...(capability !== undefined ? { capability } : {}),
        ...(maxPrice !== undefined ? { maxPrice } : {}),
        ...(provider !== undefined ? { provider } : {}),
      });
      return { query: { capability: capability ?? null, maxPrice: maxPrice ?? null, provider: provider ?? null }, count: results.length, results };
    },
  );

  app.get<{ Params: { provider: string } }>(
    '/models/provider/:provider',
    { schema: { tags, summary: "A provider's models and its default model; 404 for a provider the registry does not know", params: providerParams }, config },
    async (request) => {
      const provider = normalizeProviderName(request.params.provider) ?? request.params.provider;
      const models = deps.models.searchModels({ provider });
      if (models.length === 0) {
        const available = [...new Set(deps.models.getAllModels().map((model) => model.provider))].sort();
        throw new SwitchyardError('SY_MODEL_NOT_FOUND', {
          message: `Provider not found: ${request.params.provider} (available: ${available.join(', ')})`,
          details: { provider: request.params.provider },
        });
      }
      return { provider, models, defaults: deps.models.getDefaultModel(provider) ?? null, serverTime: now().toISOString() };
    },
  );

  app.get<{ Params: { alias: string } }>(
    '/models/resolve/:alias',
    {
      schema: { tags, summary: 'The model an alias or name designates: {alias, provider, modelKey, model}; 404 when it names none', params: aliasParams },
      config,
    },
    async (request) => {
      const { alias } = request.params;
      const model = deps.models.getModelConfig(alias);
      if (model === undefined) throw new SwitchyardError('SY_MODEL_NOT_FOUND', { message: `No model is named or aliased "${alias}"`, details: { alias } });
      return { alias, provider: model.provider, modelKey: model.key, model };
    },
  );
}
