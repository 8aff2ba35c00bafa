import { UserConfirmationRequiredError } from '../errors/user-confirmation-required-error.js';
import type { ToolCallContext, ToolDefinition } from '../tool-definition.js';

/** What a tool flagged `requiresConfirmation` returns to the model when the caller has not granted it. */
export const confirmationRequiredResult = Object.freeze({ success: false as const, error: 'USER_CONFIRMATION_REQUIRED' as const });

function isConfirmed(tool: ToolDefinition, context: ToolCallContext | undefined): boolean {
  return context?.confirmedTools?.has(tool.name) === true;
}

/**
 * Gates `tool.execute` behind the caller's grant: without `tool.name` in `context.confirmedTools`
 * it returns `{ success: false, error: 'USER_CONFIRMATION_REQUIRED' }` (the model reads it, the UI
 * asks the user, the caller retries with the grant). A tool without `requiresConfirmation` is
 * returned unchanged. Wrapping twice is harmless.
 */
export function wrapWithConfirmation(tool: ToolDefinition): ToolDefinition {
  if (tool.requiresConfirmation !== true) return tool;
  const inner = tool.execute.bind(tool);
  return {
    ...tool,
    async execute(input, context) {
      if (!isConfirmed(tool, context)) return confirmationRequiredResult;
      return inner(input, context);
    },
  };
}

/**
 * Runs a tool directly (library use, not via a model): the same gate, but an ungranted
 * confirmation throws `UserConfirmationRequiredError` instead of returning a result.
 */
export async function executeTool(tool: ToolDefinition, input: unknown, context: Partial<ToolCallContext> = {}): Promise<unknown> {
  const full: ToolCallContext = { toolCallId: context.toolCallId ?? `direct-${tool.name}`, ...context };
  if (tool.requiresConfirmation === true && !isConfirmed(tool, full)) throw new UserConfirmationRequiredError(tool.name);
  const result = await tool.execute(input, full);
  if (typeof result === 'object' && result !== null && (result as { error?: unknown }).error === 'USER_CONFIRMATION_REQUIRED') {
    throw new UserConfirmationRequiredError(tool.name);
  }
  return result;
}
