import type { FastifyInstance, FastifyReply } from 'fastify';
import type { McpExecuteRequest } from '../../src/generated/schema-types.js';
import { MCPConfigurationError } from '../../src/generation/errors/mcp-errors.js';
import type { NeuroLink } from '../../src/toolkit/neurolink.js';
import { ref } from '../http-schemas.js';

export interface McpRouteDeps {
  readonly toolkit: NeuroLink;
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
    { schema: { tags, summary: 'Every tool a generate call may use: built-in, registered custom and connected MCP servers' }, config: guard },
    async () => {
      const tools = await deps.toolkit.getAllAvailableTools();
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
        summary: 'Call one tool of one MCP server with params',
        description: 'Unknown server → 404 `MCP_CONFIGURATION`/502 `MCP_CONNECTION`; unknown tool or a tool error → 422 `MCP_TOOL`.',
        body: ref('McpExecuteRequest'),
      },
      config: guard,
    },
    async (request, reply) => {
      const { serverName, toolName, params = {} } = request.body;
      if (!deps.toolkit.listMCPServers().some((server) => server.id === serverName)) {
        throw new MCPConfigurationError(`Unknown MCP server "${serverName}": add it to .mcp-config.json or with switchyard mcp add`, serverName);
      }
      const started = performance.now();
      const result = await whileConnected(reply, (signal) => deps.toolkit.executeMCPTool(serverName, toolName, params as Record<string, unknown>, { signal }));
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
    { schema: { tags, summary: 'MCP summary: servers known, available (connected), failed, discovered; tool count' }, config: guard },
    async () => {
      const status = deps.toolkit.getMCPStatus();
      return {
        success: true,
        summary: {
          totalServers: status.totalServers,
          availableServers: status.availableServers,
          unavailableServers: status.totalServers - status.availableServers,
          failedServers: status.failedServers,
          autoDiscoveredCount: status.autoDiscoveredCount,
          totalTools: status.totalTools,
          maxConnections: status.maxConnections,
        },
        servers: status.servers,
        timestamp: isoNow(deps),
      };
    },
  );
}

function registerListServers(app: FastifyInstance, deps: McpRouteDeps): void {
  app.get(
    '/api/mcp/servers',
    { schema: { tags, summary: 'MCP servers with their status (connected, discovered, failed, disconnected) and tools' }, config: guard },
    async () => {
      const servers = deps.toolkit.listMCPServers();
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
 * The toolkit's MCP servers and tools over HTTP. Tools are called over the MCP protocol through
 * the toolkit's connections (never by running a command line built from the request).
 */
export async function mcpRoutes(app: FastifyInstance, deps: McpRouteDeps): Promise<void> {
  registerListTools(app, deps);
  registerExecuteTool(app, deps);
  registerMcpStatus(app, deps);
  registerListServers(app, deps);
}
