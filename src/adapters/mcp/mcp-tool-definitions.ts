import { MCPError } from '../../generation/errors/mcp-errors.js';
import type { ToolDefinition } from '../../generation/tool-definition.js';
import type { McpToolResult } from '../../generation/mcp/mcp-servers.js';
import type { McpRemoteTool } from './mcp-connection.js';

/** The tool-name alphabet the model APIs accept (OpenAI, Anthropic, Google all allow this subset). */
const PLAIN_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** `<server>__<tool>`: used when a plain name clashes across servers or is not a valid tool name. */
export function qualifiedToolName(serverId: string, toolName: string): string {
  return `${serverId}__${toolName}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

export interface ServerTools {
  readonly serverId: string;
  readonly tools: readonly McpRemoteTool[];
}

export type ToolCaller = (
  serverId: string,
  toolName: string,
  params: Record<string, unknown>,
  signal: AbortSignal | undefined,
  meta?: Readonly<Record<string, unknown>>,
) => Promise<McpToolResult>;

/**
 * Exposed name → (server, tool). A tool keeps its plain name when no other connected server
 * offers the same one; otherwise every holder of that name is qualified.
 */
export function exposedToolNames(servers: readonly ServerTools[]): Map<string, { serverId: string; tool: McpRemoteTool }> {
  const holders = new Map<string, number>();
  for (const server of servers) for (const tool of server.tools) holders.set(tool.name, (holders.get(tool.name) ?? 0) + 1);
  const out = new Map<string, { serverId: string; tool: McpRemoteTool }>();
  for (const server of servers) {
    for (const tool of server.tools) {
      const plain = holders.get(tool.name) === 1 && PLAIN_NAME.test(tool.name);
      out.set(plain ? tool.name : qualifiedToolName(server.serverId, tool.name), { serverId: server.serverId, tool });
    }
  }
  return out;
}

/**
 * MCP tools as the generation domain's ToolDefinition. `execute` returns `{ success: true,
 * content, structuredContent?, text }`, or `{ success: false, error }` for any failure (tool
 * error, timeout, lost server) so the model can read it; it never throws.
 */
export function toToolDefinitions(servers: readonly ServerTools[], call: ToolCaller): ToolDefinition[] {
  return [...exposedToolNames(servers)].map(([name, { serverId, tool }]) => ({
    name,
    description: tool.description === '' ? `${tool.name} (MCP server ${serverId})` : tool.description,
    inputSchema: tool.inputSchema,
    source: serverId,
    originalName: tool.name,
    async execute(input, context) {
      if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
        return { success: false, error: `Tool "${name}" expects an object of arguments` };
      }
      try {
        const result = await call(serverId, tool.name, (input ?? {}) as Record<string, unknown>, context.abortSignal, context.execution);
        return { success: true, ...result };
      } catch (error) {
        if (error instanceof MCPError) return { success: false, error: error.message };
        return { success: false, error: error instanceof Error ? error.message : String(error) };
      }
    },
  }));
}
