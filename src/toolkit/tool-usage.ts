import { TimeoutError } from '../generation/errors/provider-errors.js';
import type { ToolDefinition } from '../generation/tool-definition.js';

/** A tool's usage as ToolInfo reports it. */
export interface ToolUsage {
  /** When the last run ended (ISO 8601). */
  readonly lastUsed: string;
  /** Runs that ended, successful or not (each retry counts as a run). */
  readonly usageCount: number;
  /** Mean wall-clock time of those runs, in milliseconds. */
  readonly averageExecutionTime: number;
}

/**
 * Per-NeuroLink-instance counts of tool runs (direct `executeTool`/`executeMCPTool` and the
 * tools models call during generate/stream), kept in process memory: a new instance starts at zero.
 * Keys: the tool's listed name for built-in and custom tools, `mcp:<serverId>/<tool>` for MCP tools.
 */
export class ToolUsageStats {
  private readonly entries = new Map<string, { count: number; totalMs: number; lastUsed: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Times one run and records it, whatever its outcome. */
  async time<T>(key: string, run: () => Promise<T>): Promise<T> {
    const started = this.now();
    try {
      return await run();
    } finally {
      const ended = this.now();
      const entry = this.entries.get(key) ?? { count: 0, totalMs: 0, lastUsed: 0 };
      entry.count += 1;
      entry.totalMs += ended - started;
      entry.lastUsed = ended;
      this.entries.set(key, entry);
    }
  }

  get(key: string): ToolUsage | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    return {
      lastUsed: new Date(entry.lastUsed).toISOString(),
      usageCount: entry.count,
      averageExecutionTime: Math.round((entry.totalMs / entry.count) * 100) / 100,
    };
  }

  /** The same tool, its runs counted under `key`. */
  counting(tool: ToolDefinition, key: string): ToolDefinition {
    return { ...tool, execute: (input, context) => this.time(key, () => tool.execute(input, context)) };
  }
}

/** The usage key of an MCP tool: its server and its own name (not the `<server>__<tool>` listed when names clash). */
export function mcpUsageKey(serverId: string, listedName: string): string {
  const prefix = `${serverId}__`;
  return `mcp:${serverId}/${listedName.startsWith(prefix) ? listedName.slice(prefix.length) : listedName}`;
}

/**
 * Runs `attempt` with the context's bounds: abandoned after `timeoutMs` (TimeoutError carrying
 * it; the attempt's signal is aborted), run again up to `retries` times when it throws or its
 * result is `failed` (never after a timeout or the caller's abort).
 */
export async function runBounded<T>(
  what: string,
  bounds: { readonly timeoutMs?: number; readonly retries: number; readonly signal?: AbortSignal },
  attempt: (signal: AbortSignal | undefined) => Promise<T>,
  /** A result that also counts as a failed try (a tool's `{ success: false }`): retried while tries remain, else returned. */
  failed: (result: T) => boolean = () => false,
): Promise<T> {
  for (let tries = 0; ; tries += 1) {
    try {
      const result = await once(what, bounds, attempt);
      if (tries < bounds.retries && bounds.signal?.aborted !== true && failed(result)) continue;
      return result;
    } catch (error) {
      if (error instanceof TimeoutError || bounds.signal?.aborted === true || tries >= bounds.retries) throw error;
    }
  }
}

async function once<T>(
  what: string,
  bounds: { readonly timeoutMs?: number; readonly signal?: AbortSignal },
  attempt: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (bounds.timeoutMs === undefined) return attempt(bounds.signal);
  const timeoutMs = bounds.timeoutMs;
  const controller = new AbortController();
  const onAbort = () => controller.abort(bounds.signal?.reason);
  bounds.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeoutError(`${what} timed out after ${timeoutMs} ms (context.timeout)`, 'toolkit', timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([attempt(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
    bounds.signal?.removeEventListener('abort', onAbort);
  }
}
