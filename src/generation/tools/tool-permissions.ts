import type { ToolDefinition } from '../tool-definition.js';

/** Where a tool comes from, as permissions name it. */
export interface ToolOrigin {
  readonly name: string;
  readonly category: 'built-in' | 'custom' | 'mcp';
  /** The MCP server's id, for an MCP tool. */
  readonly serverId?: string;
}

/** A tool's origin read from its `source` (`built-in`, `custom`, or the MCP server's id). */
export function originOf(tool: ToolDefinition): ToolOrigin {
  if (tool.source === 'built-in' || tool.source === 'custom') return { name: tool.name, category: tool.source };
  return { name: tool.name, category: 'mcp', serverId: tool.source };
}

/**
 * Whether `permissions` (absent = everything) lets a tool of this origin run: `*`, `tool:*`, the
 * tool's name or `tool:<name>`, its category `built-in:*`, `custom:*`, `mcp:*`, or `mcp:<serverId>`.
 * One rule for a direct tool run (`executeTool`) and for the tools a model is offered in `generate`.
 */
export function permitsTool(permissions: readonly string[] | undefined, tool: ToolOrigin): boolean {
  if (permissions === undefined) return true;
  const grants = new Set(permissions);
  const names = ['*', 'tool:*', tool.name, `tool:${tool.name}`, `${tool.category}:*`];
  if (tool.category === 'mcp' && tool.serverId !== undefined) names.push(`mcp:${tool.serverId}`);
  return names.some((name) => grants.has(name));
}

/**
 * The tools a call offers the model: its own (`callTools`, which win over a toolkit tool of the same
 * name), then the toolkit's, less what `permissions` does not name. What a call sends and what its
 * budget reservation counts are both this list.
 */
export function offeredTools(
  callTools: readonly ToolDefinition[],
  toolkitTools: readonly ToolDefinition[],
  permissions: readonly string[] | undefined,
): ToolDefinition[] {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of [...callTools, ...toolkitTools]) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  return [...byName.values()].filter((tool) => permitsTool(permissions, originOf(tool)));
}
