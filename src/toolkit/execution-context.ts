import { InvalidRequestError } from '../generation/errors/provider-errors.js';
import { parseTimeout } from '../generation/parse-timeout.js';

/**
 * The interface's ExecutionContext: who runs a tool, under which ids and bounds. Taken by
 * `NeuroLink.executeTool` and `executeMCPTool` (`options.context`). What each field does there:
 *
 * - `timeout` (ms or text such as `30s`): the tool is abandoned after it (TimeoutError carrying it);
 *   an MCP call gets it as its tool-call timeout.
 * - `retries` (0 to 5): a tool that throws is run again up to this many times (never after a
 *   timeout, an abort, a confirmation or permission refusal).
 * - `permissions`: when given, only the tools it names run: `*`, `tool:*`, the tool's name or
 *   `tool:<name>`, or its origin `built-in:*`, `custom:*`, `mcp:*`, `mcp:<serverId>`; anything
 *   else is refused with InvalidRequestError (`context.permissions`) before the tool runs.
 * - `sessionId`, `userId`, `correlationId`, `requestId`, `userAgent`, `clientVersion`,
 *   `environment`, `metadata`: handed to the tool (`ToolCallContext.execution`) and, for an MCP
 *   tool, sent to the server in the request's `_meta`.
 * - `aiProvider`, `cacheOptions`, `fallbackOptions`, `priority`: a direct tool run calls no model,
 *   caches nothing and queues nothing, so these are refused with InvalidRequestError naming the
 *   field rather than accepted and ignored (use `generate({ provider, … })` for provider choice).
 */
export interface ExecutionContext {
  readonly sessionId?: string;
  readonly userId?: string;
  readonly aiProvider?: string;
  readonly permissions?: readonly string[];
  readonly cacheOptions?: Readonly<Record<string, unknown>>;
  readonly fallbackOptions?: Readonly<Record<string, unknown>>;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly priority?: 'low' | 'normal' | 'high';
  readonly timeout?: number | string;
  readonly retries?: number;
  readonly correlationId?: string;
  readonly requestId?: string;
  readonly userAgent?: string;
  readonly clientVersion?: string;
  readonly environment?: string;
}

/** The identity fields a tool (and an MCP server, as `_meta`) is handed. */
export type ExecutionIdentity = Pick<
  ExecutionContext,
  'sessionId' | 'userId' | 'correlationId' | 'requestId' | 'userAgent' | 'clientVersion' | 'environment' | 'metadata'
>;

/** A context checked for one tool run. */
export interface AppliedExecutionContext {
  readonly timeoutMs?: number;
  readonly retries: number;
  readonly identity?: ExecutionIdentity;
}

/** Fields that have no effect on a direct tool run, and why. */
const notApplicable: Readonly<Record<string, string>> = {
  aiProvider: 'a direct tool run calls no model; pass provider to generate instead',
  cacheOptions: 'tool results are never cached',
  fallbackOptions: 'a direct tool run has no provider to fall back from',
  priority: 'tool runs are not queued, so there is nothing to prioritise',
};

const identityKeys = ['sessionId', 'userId', 'correlationId', 'requestId', 'userAgent', 'clientVersion', 'environment'] as const;
const knownKeys = new Set<string>([...identityKeys, 'metadata', 'permissions', 'timeout', 'retries', ...Object.keys(notApplicable)]);

export const MAX_TOOL_RETRIES = 5;

function invalid(message: string, field: string): InvalidRequestError {
  return new InvalidRequestError(message, 'toolkit', `context.${field}`);
}

/** Checks a context for a tool run: unknown or inapplicable fields and malformed values are refused naming the field. */
export function applyExecutionContext(context: ExecutionContext | undefined): AppliedExecutionContext {
  if (context === undefined) return { retries: 0 };
  if (typeof context !== 'object' || context === null) throw invalid('context must be an ExecutionContext object', 'context');
  for (const [key, value] of Object.entries(context)) {
    if (value === undefined) continue;
    if (!knownKeys.has(key)) throw invalid(`context.${key} is not an ExecutionContext field`, key);
    const reason = notApplicable[key];
    if (reason !== undefined) throw invalid(`context.${key} does not apply to a tool run: ${reason}`, key);
  }
  for (const key of identityKeys) {
    const value = context[key];
    if (value !== undefined && (typeof value !== 'string' || value.length === 0 || value.length > 256)) {
      throw invalid(`context.${key} must be a non-empty string of at most 256 characters`, key);
    }
  }
  if (context.metadata !== undefined && (typeof context.metadata !== 'object' || context.metadata === null || Array.isArray(context.metadata))) {
    throw invalid('context.metadata must be an object', 'metadata');
  }
  if (context.permissions !== undefined && (!Array.isArray(context.permissions) || context.permissions.some((entry) => typeof entry !== 'string'))) {
    throw invalid('context.permissions must be an array of strings', 'permissions');
  }
  const retries = context.retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0 || retries > MAX_TOOL_RETRIES) {
    throw invalid(`context.retries must be an integer from 0 to ${MAX_TOOL_RETRIES}`, 'retries');
  }
  const identity = Object.fromEntries(
    [...identityKeys, 'metadata' as const].filter((key) => context[key] !== undefined).map((key) => [key, context[key]]),
  ) as ExecutionIdentity;
  return {
    retries,
    ...(context.timeout !== undefined ? { timeoutMs: parseTimeout(context.timeout, 'context.timeout') } : {}),
    ...(Object.keys(identity).length > 0 ? { identity } : {}),
  };
}

/** The refusal for a tool the permissions do not name. */
export function permissionDenied(name: string, permissions: readonly string[]): InvalidRequestError {
  return invalid(`tool "${name}" is not allowed by context.permissions (${JSON.stringify(permissions)})`, 'permissions');
}
