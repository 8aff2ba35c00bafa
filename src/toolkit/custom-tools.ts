import { InvalidRequestError } from '../generation/errors/provider-errors.js';
import type { ToolDefinition } from '../generation/tool-definition.js';
import { wrapWithConfirmation } from '../generation/tools/confirmation.js';
import { createTool, type SimpleTool } from '../generation/tools/create-tool.js';

export type { SimpleTool } from '../generation/tools/create-tool.js';

function isToolDefinition(tool: SimpleTool | ToolDefinition): tool is ToolDefinition {
  return typeof tool === 'object' && tool !== null && 'inputSchema' in tool && 'source' in tool;
}

/**
 * What `registerTool` stores: a `SimpleTool` goes through `createTool` (name and description rules,
 * argument validation, confirmation gate); a ready `ToolDefinition` keeps its schema, is renamed
 * to the registered name and gated the same way.
 */
export function toToolDefinition(name: string, tool: SimpleTool | ToolDefinition): ToolDefinition {
  if (!isToolDefinition(tool)) return createTool(name, tool);
  if (typeof tool.execute !== 'function') throw new InvalidRequestError(`tool "${name}" needs an execute function`, 'tools', 'execute');
  createTool(name, { description: tool.description, execute: () => undefined });
  return wrapWithConfirmation({ ...tool, name });
}
