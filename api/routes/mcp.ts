import type { FastifyInstance, FastifyReply } from 'fastify';
import type { McpExecuteRequest } from '../../src/generated/schema-types.js';
import type { MerchantMcp } from '../../src/toolkit/merchant-mcp.js';
import { scopedStatus, scopedToolInfos } from '../../src/toolkit/merchant-mcp-views.js';
import type { NeuroLink } from '../../src/toolkit/neurolink.js';
import { ref } from '../http-schemas.js';
import { credentialMerchantOf } from '../plugins/authentication.js';
import { mcpServerRoutes } from './mcp-servers.js';

export interface McpRouteDeps {
  readonly toolkit: NeuroLink;
  /** MCP scoped per merchant: every route answers with what the caller's merchant may use. */
  readonly merchantMcp: MerchantMcp;
  readonly now?: () => Date;
}

const tags = ['MCP'];
const guard = { auth: 'either', merchantFrom: 'credential' } as const;

/** The answer's `timestamp`. */
function isoNow(deps: McpRouteDeps): string {
  return (deps.now ?? (() => new Date()))().toISOString();
}

/**
 * Runs `call` with a signal that aborts when the caller goes away: the tool call is cancelled (MCP
 * notifications/cancelled) instead of left running.
 */
async function whileConnected<T>(reply: FastifyReply, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const cancel = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) cancel.abort(new Error('client disconnected'));
  };
  reply.raw.once('close', onClose);
  try {
    return await call(cancel.signal);
  } finally {
    reply.raw.off('close', onClose);
  }
}

function registerListTools(app: FastifyInstance, deps: McpRouteDeps): void {
  app.get(
    '/api/mcp/tools',
    {
      schema: {
        tags,
        summary: "Every tool the caller's generate calls may use: built-in, registered custom, its own MCP servers' and the operator's when allowed",
      },
      config: guard,
    },
    async (request) => {
      const merchantId = credentialMerchantOf(request);
      const tools = scopedToolInfos(await deps.toolkit.getAllAvailableTools(), await deps.merchantMcp.toolsFor(merchantId));
      return { success: true, tools, totalTools: tools.length, timestamp: isoNow(deps) };
    },
  );
}

function registerExecuteTool(app: FastifyInstance, deps: McpRouteDeps): void {
  app.post<{ Body: McpExecuteRequest }>(
    '/api/mcp/execute',
    {
      schema: {
        tags,
        summary: "Call one tool of one of the caller's MCP servers (or an operator server it may use) with params",
        description:
          "A server that is not the merchant's own nor an operator server it may use → 404 `MCP_CONFIGURATION`; unreachable → 502 `MCP_CONNECTION`; unknown tool or a tool error → 422 `MCP_TOOL`. Every call is a `tool.executed` audit event.",
        body: ref('McpExecuteRequest'),
      },
      config: guard,
    },
    async (request, reply) => {
      const { serverName, toolName, params = {} } = request.body;
      const caller = { merchantId: credentialMerchantOf(request), requestId: request.id, surface: 'http' };
      const started = performance.now();
      const result = await whileConnected(reply, (signal) =>
        deps.merchantMcp.execute(caller, serverName, toolName, params as Record<string, unknown>, { signal }),
      );
      request.log.info({ serverName, toolName, ms: Math.round(performance.now() - started) }, 'mcp tool executed');
      return {
        success: true,
        serverName,
        toolName,
        output: result.text,
        content: result.content,
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
        timestamp: isoNow(deps),
      };
    },
  );
}

function registerMcpStatus(app: FastifyInstance, deps: McpRouteDeps): void {
  app.get(
    '/api/mcp/status',
    {
      schema: { tags, summary: "MCP summary of the servers the caller's merchant may use: known, available (connected), failed, discovered; tool count" },
      config: guard,
    },
    async (request) => {
      const servers = await deps.merchantMcp.listServers(credentialMerchantOf(request));
      return { success: true, summary: scopedStatus(servers, deps.toolkit.getMCPStatus().maxConnections), servers, timestamp: isoNow(deps) };
    },
  );
}

function registerListServers(app: FastifyInstance, deps: McpRouteDeps): void {
  app.get(
    '/api/mcp/servers',
    {
      schema: {
        tags,
        summary: "The caller merchant's MCP servers (owner merchant) and the operator's it may use (owner operator), with status and tools",
      },
      config: guard,
    },
    async (request) => {
      const servers = await deps.merchantMcp.listServers(credentialMerchantOf(request));
      return {
        success: true,
        servers,
        totalServers: servers.length,
        availableServers: servers.filter((server) => server.status === 'connected').length,
        timestamp: isoNow(deps),
      };
    },
  );
}

/**
 * The toolkit's MCP servers and tools over HTTP, scoped to the caller's merchant (its own servers
 * plus the operator's when allowed). Tools are called over the MCP protocol through the toolkit's
 * connections (never by running a command line built from the request).
 */
export async function mcpRoutes(app: FastifyInstance, deps: McpRouteDeps): Promise<void> {
  registerListTools(app, deps);
  registerExecuteTool(app, deps);
  registerMcpStatus(app, deps);
  registerListServers(app, deps);
  await mcpServerRoutes(app, { merchantMcp: deps.merchantMcp, ...(deps.now !== undefined ? { now: deps.now } : {}) });
}
