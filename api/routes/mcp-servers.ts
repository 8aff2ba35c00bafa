import type { FastifyInstance } from 'fastify';
import type { McpServerNameParams, McpServerRegisterRequest } from '../../src/generated/schema-types.js';
import type { MerchantMcp } from '../../src/toolkit/merchant-mcp.js';
import { ref } from '../http-schemas.js';
import { credentialMerchantOf } from '../plugins/authentication.js';

export interface McpServerRouteDeps {
  readonly merchantMcp: MerchantMcp;
  readonly now?: () => Date;
}

const tags = ['MCP'];
// Writes: the default least role of a merchant route that changes something is 'admin' (a member session gets 403).
const guard = { auth: 'either', merchantFrom: 'credential' } as const;

/**
 * `POST /api/mcp/servers` and `DELETE /api/mcp/servers/:name`: a merchant's own MCP servers
 * (HTTP/SSE endpoints behind the SSRF guard; stdio only from the operator's configuration).
 * `GET /api/mcp/servers` (api/routes/mcp.ts) lists them with the operator's the merchant may use.
 */
export async function mcpServerRoutes(app: FastifyInstance, deps: McpServerRouteDeps): Promise<void> {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();

  app.post<{ Body: McpServerRegisterRequest }>(
    '/api/mcp/servers',
    {
      schema: {
        tags,
        summary: "Register (or replace) one of the caller merchant's MCP servers: an HTTP or SSE endpoint on a public address",
        description:
          'The URL is refused (400 `INVALID_REQUEST`, naming the reason) when its scheme is not http(s) or it resolves to a loopback, private, link-local, CGNAT, unique-local, metadata or other non-public address, unless the operator allows it (MCP_ALLOW_PRIVATE_ENDPOINTS); the check runs again at every connect, after DNS. A server that cannot be reached is registered with status `failed` and its reason.',
        body: ref('McpServerRegisterRequest'),
        response: { 201: ref('McpServerRegistered') },
      },
      config: guard,
    },
    async (request, reply) => {
      const server = await deps.merchantMcp.register(credentialMerchantOf(request), request.body);
      return reply.code(201).send({ success: true, server, timestamp: now() });
    },
  );

  app.delete<{ Params: McpServerNameParams }>(
    '/api/mcp/servers/:name',
    {
      schema: {
        tags,
        summary: "Remove one of the caller merchant's MCP servers (404 for any other name, another merchant's or an operator's included)",
        params: ref('McpServerNameParams'),
        response: { 200: ref('McpServerRemoved') },
      },
      config: guard,
    },
    async (request) => {
      await deps.merchantMcp.remove(credentialMerchantOf(request), request.params.name);
      return { success: true, removed: request.params.name, timestamp: now() };
    },
  );
}
