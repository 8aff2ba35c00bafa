/** A JSON Schema object (draft 2020-12 / the subset model providers accept for tool inputs). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** What a tool's `execute` learns about the call that triggered it. */
export interface ToolCallContext {
  readonly toolCallId: string;
  readonly abortSignal?: AbortSignal;
  /** Tools the caller granted for this call (names); a `requiresConfirmation` tool runs only if listed. */
  readonly confirmedTools?: ReadonlySet<string>;
  /** The caller's ExecutionContext ids (sessionId, userId, correlationId, requestId, …) on a direct `executeTool` run. */
  readonly execution?: Readonly<Record<string, unknown>>;
}

/**
 * One tool as the generation domain sees it, whatever its origin (built-in, custom, MCP).
 * Provider adapters translate it to their SDK's tool shape; `execute` never throws for an
 * expected failure but returns `{ success: false, error }` so the model can read it.
 */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** Where it comes from: `built-in`, `custom`, or the MCP server id. */
  readonly source: string;
  /** An MCP tool's own name on its server (`name` may be qualified as `<server>__<tool>` when names clash). */
  readonly originalName?: string;
  readonly requiresConfirmation?: boolean;
  execute(input: unknown, context: ToolCallContext): Promise<unknown>;
}
