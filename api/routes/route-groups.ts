import type { FastifyInstance } from 'fastify';
import type { RouteGroup as RouteGroupBody } from '../../src/generated/schema-types.js';
import type { RouteGroupService } from '../../src/generation/gateway/route-group-service.js';
import { routeGroupNamePattern } from '../../src/generation/gateway/route-group.js';
import { ref } from '../http-schemas.js';
import { credentialMerchantOf } from '../plugins/authentication.js';
import { gatewayGuard, gatewayTags as tags } from './gateway-route-config.js';

const groupParams = { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: routeGroupNamePattern.source } } } as const;

/**
 * `/v1/route-groups`: the merchant's route groups (src/generation/gateway/route-group-service.ts),
 * the candidates `model` may name, ranked by their learned success rate.
 */
export async function routeGroupRoutes(app: FastifyInstance, deps: { readonly routeGroups: RouteGroupService }): Promise<void> {
  const { routeGroups } = deps;

  app.put<{ Params: { name: string }; Body: RouteGroupBody }>(
    '/v1/route-groups/:name',
    {
      schema: {
        tags,
        summary: 'Create or replace a route group: candidates the gateway ranks by their learned success rate when `model` names the group',
        params: groupParams,
        body: ref('RouteGroup'),
      },
      config: gatewayGuard,
    },
    async (request) => routeGroups.put(credentialMerchantOf(request), request.params.name, request.body),
  );

  app.get('/v1/route-groups', { schema: { tags, summary: "The merchant's route groups" }, config: gatewayGuard }, async (request) => ({
    object: 'list',
    data: await routeGroups.list(credentialMerchantOf(request)),
  }));

  app.get<{ Params: { name: string } }>(
    '/v1/route-groups/:name',
    { schema: { tags, summary: "A route group with each candidate's learned success rate and elimination", params: groupParams }, config: gatewayGuard },
    async (request) => routeGroups.get(credentialMerchantOf(request), request.params.name),
  );

  app.delete<{ Params: { name: string } }>(
    '/v1/route-groups/:name',
    { schema: { tags, summary: 'Delete a route group', params: groupParams }, config: gatewayGuard },
    async (request) => {
      await routeGroups.delete(credentialMerchantOf(request), request.params.name);
      return { id: request.params.name, object: 'route_group', deleted: true };
    },
  );
}
