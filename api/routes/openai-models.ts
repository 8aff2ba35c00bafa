import type { FastifyInstance } from 'fastify';
import type { DynamicModelRegistry } from '../../src/generation/models/dynamic-model-registry.js';
import { gatewayGuard, gatewayTags as tags } from './gateway-route-config.js';

/** `/v1/models`: the model registry as OpenAI lists models, each `provider/model` (what `model` may name). */
export async function openAiModelRoutes(
  app: FastifyInstance,
  deps: { readonly models: Pick<DynamicModelRegistry, 'getAllModels'>; readonly now: () => Date },
): Promise<void> {
  app.get('/v1/models', { schema: { tags, summary: 'Models of the registry as OpenAI lists them (`provider/model` ids)' }, config: gatewayGuard }, async () => {
    const created = Math.floor(deps.now().getTime() / 1000);
    return {
      object: 'list',
      data: deps.models.getAllModels().map((model) => ({ id: `${model.provider}/${model.id}`, object: 'model', created, owned_by: model.provider })),
    };
  });
}
