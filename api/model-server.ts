import Fastify, { type FastifyInstance } from 'fastify';
import modelsSearchQuery from '../schemas/http/generation/models-search-query.json' with { type: 'json' };
import type { DynamicModelRegistry } from '../src/generation/models/dynamic-model-registry.js';
import { normalizeProviderName } from '../src/generation/provider-name.js';
import { registerErrorHandling } from './plugins/errors.js';
import { modelRoutes } from './routes/models.js';

/**
 * `switchyard models serve`: the model registry alone, read only and public (it holds model names
 * and list prices, no secrets), as NeuroLink's model-config server served it: the documented
 * `/models…` routes and its `/api/v1/…` ones, plus `/health`.
 */
export async function buildModelServer(models: DynamicModelRegistry, now: () => Date = () => new Date()): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  app.addSchema(modelsSearchQuery);
  const startedAt = Date.now();
  await app.register(async (scope) => modelRoutes(scope, { models, auth: 'none', now }));
  app.get('/health', async () => ({ status: 'ok', timestamp: now().toISOString(), uptime: Math.round((Date.now() - startedAt) / 1000) }));
  app.get('/api/v1/models', async (request) => ({
    version: models.version ?? null,
    models: models.getAllModels(),
    serverTime: now().toISOString(),
    requestId: `req_${Date.now()}_${request.id}`,
  }));
  app.get<{ Params: { provider: string } }>('/api/v1/models/:provider', async (request, reply) => {
    const provider = normalizeProviderName(request.params.provider) ?? request.params.provider;
    const found = models.searchModels({ provider });
    if (found.length === 0) {
      return reply.code(404).send({
        error: 'Provider not found',
        provider: request.params.provider,
        available: [...new Set(models.getAllModels().map((model) => model.provider))].sort(),
      });
    }
    return { provider, models: found, defaults: models.getDefaultModel(provider) ?? null, serverTime: now().toISOString() };
  });
  app.get<{ Querystring: { capability?: string; maxPrice?: number; provider?: string } }>(
    '/api/v1/search',
    { schema: { querystring: { $ref: 'ModelsSearchQuery#' } } },
    async (request) => {
      const { capability, maxPrice, provider } = request.query;
      const results = models.searchModels({
        ...(capability !== undefined ? { capability } : {}),
        ...(maxPrice !== undefined ? { maxPrice } : {}),
        ...(provider !== undefined ? { provider } : {}),
      });
      return {
        query: { capability: capability ?? null, maxPrice: maxPrice ?? null, provider: provider ?? null },
        count: results.length,
        results: results.map((model) => ({ ...model, model: model.key })),
      };
    },
  );
  return app;
}
