import type { McpServerInfo } from '../generation/mcp/mcp-status.js';
import type { ScopedTool } from './merchant-mcp.js';
import type { ToolInfo } from './neurolink.js';

/**
 * `GET /api/mcp/tools` for a merchant: the toolkit's built-in and custom tools as listed, the
 * operator's MCP tools only when the merchant may use them (with their usage figures), and the
 * merchant's own servers' tools.
 */
export function scopedToolInfos(all: readonly ToolInfo[], scoped: readonly ScopedTool[]): (ToolInfo & { readonly owner?: 'merchant' | 'operator' })[] {
  const local = all.filter((info) => info.category !== 'mcp');
  const listed = new Map(all.filter((info) => info.category === 'mcp').map((info) => [`${info.serverId}/${info.name}`, info]));
  const mcp = scoped.map(({ tool, owner }) => {
    const known = owner === 'operator' ? listed.get(`${tool.source}/${tool.name}`) : undefined;
    if (known !== undefined) return { ...known, owner };
    return {
      name: tool.name,
      description: tool.description,
      serverId: tool.source,
      category: 'mcp' as const,
      parameters: tool.inputSchema,
      requiresConfirmation: tool.requiresConfirmation === true,
      capabilities: ['direct-execution', 'model-callable'],
      usageCount: 0,
      averageExecutionTime: 0,
      owner,
    };
  });
  return [...local, ...mcp];
}

/** `GET /api/mcp/status`'s summary over the servers a merchant sees. */
export function scopedStatus(servers: readonly McpServerInfo[], maxConnections: number) {
  const available = servers.filter((server) => server.status === 'connected').length;
  return {
    totalServers: servers.length,
    availableServers: available,
    unavailableServers: servers.length - available,
    failedServers: servers.filter((server) => server.status === 'failed').length,
    autoDiscoveredCount: servers.filter((server) => server.source === 'discovered').length,
    totalTools: servers.reduce((sum, server) => sum + server.toolCount, 0),
    maxConnections,
  };
}
