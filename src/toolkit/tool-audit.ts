import { errorCodeOf } from '../generation/error-code-of.js';
import type { CallAttribution } from '../generation/llm-call-record.js';
import type { ToolDefinition } from '../generation/tool-definition.js';

/** Whose MCP server a tool is on: the merchant's own, or the operator's `.mcp-config.json`. */
export type McpServerOwner = 'merchant' | 'operator';

/**
 * One tool execution for the audit trail (`tool.executed` events): who ran what, how it ended,
 * how long it took and how large its arguments were; never the arguments or the result.
 */
export interface ToolRun {
  readonly merchantId: string;
  readonly origin: 'execute' | 'generation';
  readonly category: 'mcp' | 'built-in' | 'custom';
  readonly serverId: string | null;
  readonly owner: McpServerOwner | null;
  readonly tool: string;
  readonly outcome: 'success' | 'failure';
  readonly errorCode: string | null;
  readonly durationMs: number;
  readonly argumentBytes: number;
  readonly requestId: string | null;
  readonly surface: string | null;
}

/** Receives every tool run; must not throw into the call (publishers log their own failures). */
export type ToolRunRecorder = (run: ToolRun) => void;

/** UTF-8 size of the arguments as JSON (0 when they cannot be serialised). */
export function argumentBytesOf(input: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(input ?? {})).length;
  } catch {
    return 0;
  }
}

function failedAnswer(output: unknown): boolean {
  return typeof output === 'object' && output !== null && 'success' in output && (output as { success?: unknown }).success === false;
}

/**
 * Runs `run` and records it: success, a thrown error (its code), or a tool answering
 * `{ success: false }` (TOOL_FAILED). The recorder never changes the outcome.
 */
export async function recordToolRun<T>(
  recorder: ToolRunRecorder,
  base: Omit<ToolRun, 'outcome' | 'errorCode' | 'durationMs'>,
  run: () => Promise<T>,
  clock: () => number = () => performance.now(),
): Promise<T> {
  const started = clock();
  const finish = (outcome: ToolRun['outcome'], errorCode: string | null) => {
    // Recorders never throw (the publisher logs a refused publish itself).
    recorder({ ...base, outcome, errorCode, durationMs: Math.max(0, Math.round((clock() - started) * 1000) / 1000) });
  };
  try {
    const output = await run();
    finish(failedAnswer(output) ? 'failure' : 'success', failedAnswer(output) ? 'TOOL_FAILED' : null);
    return output;
  } catch (error) {
    finish('failure', errorCodeOf(error).slice(0, 64));
    throw error;
  }
}

/** The tool, each model-made call of it recorded as a `generation` run of the call's merchant. */
export function auditedTool(
  tool: ToolDefinition,
  facts: { readonly category: ToolRun['category']; readonly owner: McpServerOwner | null; readonly serverId: string | null },
  attribution: CallAttribution & { readonly merchantId: string },
  recorder: ToolRunRecorder,
): ToolDefinition {
  return {
    ...tool,
    execute: (input, context) =>
      recordToolRun(
        recorder,
        {
          merchantId: attribution.merchantId,
          origin: 'generation',
          ...facts,
          tool: tool.name.slice(0, 256),
          argumentBytes: argumentBytesOf(input),
          requestId: attribution.requestId?.slice(0, 128) ?? null,
          surface: attribution.surface ?? null,
        },
        () => tool.execute(input, context),
      ),
  };
}
