import { MCPConfigurationError, MCPError } from '../generation/errors/mcp-errors.js';
import type { JsonSchema, ToolDefinition } from '../generation/tool-definition.js';
import type { GuardSession } from '../guardrails/guard-session.js';
import { type GuardChecks, runGuardChecks } from '../guardrails/run-guard-checks.js';
import { blockedToolCallResult, guardToolArguments, guardToolResult } from './guard-gateway-tool.js';
import { LOCAL_TOOLS_NAMESPACE, type MerchantMcp } from './merchant-mcp.js';
import { argumentBytesOf, recordToolRun, type McpServerOwner, type ToolRunRecorder } from './tool-audit.js';

/** Where a gateway tool runs: one tool of one MCP server, or a built-in or custom tool of the toolkit. */
export type GatewayToolTarget =
  | { readonly kind: 'mcp'; readonly serverId: string; readonly toolName: string; readonly owner: McpServerOwner }
  | { readonly kind: 'local'; readonly category: 'built-in' | 'custom'; readonly tool: ToolDefinition };

/** One tool as the MCP gateway serves it. */
export interface GatewayTool {
  /** `<server>__<tool>` (`switchyard__<tool>` for the built-in and custom tools). */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** The tool asks for a user's confirmation before it runs (the toolkit's `requiresConfirmation`, e.g. writeFile). */
  readonly destructive: boolean;
  readonly target: GatewayToolTarget;
}

/** Who calls: the merchant, the request (audit trail) and the key's allow-list (undefined: every tool). */
export interface GatewayCaller {
  readonly merchantId: string;
  readonly requestId?: string;
  readonly allowedTools?: readonly string[];
  /** The API key that called (its guardrails apply, and its `guard.applied` events name it); absent for a dashboard session. */
  readonly apiKeyId?: string;
}

/** The guard pipeline over the gateway's tool calls (issue 39 point 1): a session per call, its outcomes as evidence. */
export interface GatewayToolGuards {
  /** A fresh guard session for one tool call: the defaults, the merchant's settings and the caller's key's. */
  readonly sessionFor: (caller: GatewayCaller) => Promise<GuardSession>;
  /** The call's guard outcomes once it is answered (the `guard.applied` events); never the matched text. */
  readonly onGuarded?: (session: GuardSession, caller: GatewayCaller) => void;
  /** The moderation and injection-judge guards' provider calls over tool results (made only for a policy that has them). */
  readonly checks?: GuardChecks;
}

/** A `tools/call` answer in MCP's CallToolResult shape; `isError` for a tool that failed (the model reads why). */
export interface GatewayCallResult {
  readonly content: readonly unknown[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
}

export type GatewayCallOutcome = { readonly kind: 'result'; readonly result: GatewayCallResult } | { readonly kind: 'unknown-tool' };

export interface McpGatewayDeps {
  readonly merchantMcp: MerchantMcp;
  /** The merchant's built-in and custom tools (NeuroLink.localToolsFor). */
  readonly localTools: (merchantId: string) => readonly { readonly tool: ToolDefinition; readonly category: 'built-in' | 'custom' }[];
  /** Every run of a local tool (`tool.executed`); MCP tools are recorded by MerchantMcp.execute. */
  readonly recordToolRun?: ToolRunRecorder;
  /** The guard pipeline over tool arguments (output stage) and results (input stage, a `tool` source); absent: unguarded. */
  readonly guards?: GatewayToolGuards;
}

/** MCP's tool-name alphabet (SEP-986: letters, digits, `_`, `-`, `.`; at most 128 characters). */
const MAX_TOOL_NAME = 128;

/** `<namespace>__<tool>` in MCP's tool-name alphabet: other characters become `_`, cut at 128. */
export function gatewayToolName(namespace: string, toolName: string): string {
  return `${namespace}__${toolName}`.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, MAX_TOOL_NAME);
}

/** Whether a key's allow-list lets `name` through: an exact entry, or a prefix entry ending in `*`. */
export function isToolAllowed(allowedTools: readonly string[] | undefined, name: string): boolean {
  if (allowedTools === undefined) return true;
  return allowedTools.some((entry) => (entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : entry === name));
}

/** The invalidation key that tells every replica a merchant's MCP servers changed. */
export function mcpToolsChangedKey(merchantId: string): string {
  return `mcp-tools-changed:${merchantId}`;
}

/** The invalidation key that tells every replica an MCP gateway session was ended (DELETE). */
export function mcpSessionEndedKey(sessionId: string): string {
  return `mcp-session-ended:${sessionId}`;
}

/** The session an invalidation key of {@link mcpSessionEndedKey} names; undefined for every other key. */
export function sessionOfEndedKey(key: string): string | undefined {
  const prefix = 'mcp-session-ended:';
  return key.startsWith(prefix) ? key.slice(prefix.length) : undefined;
}

/** The merchant an invalidation key of {@link mcpToolsChangedKey} names; undefined for every other key. */
export function merchantOfToolsChangedKey(key: string): string | undefined {
  const prefix = 'mcp-tools-changed:';
  return key.startsWith(prefix) ? key.slice(prefix.length) : undefined;
}

function objectSchema(schema: JsonSchema): JsonSchema {
  // MCP requires an object schema for a tool's input; a tool declaring none takes any object.
  return schema['type'] === 'object' ? schema : { properties: {}, ...schema, type: 'object' };
}

function textResult(text: string, isError: boolean): GatewayCallResult {
  return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}

function failedAnswer(output: unknown): string | undefined {
  if (typeof output !== 'object' || output === null || (output as { success?: unknown }).success !== false) return undefined;
  const error = (output as { error?: unknown }).error;
  return typeof error === 'string' ? error : 'the tool failed';
}

/**
 * The MCP gateway (issue 39): every tool a merchant may use as ONE MCP server's tool list, its
 * own servers', the operator's it is allowed and the toolkit's built-in and custom tools, each
 * named `<server>__<tool>` so that two servers' `search` never collide. A key's allow-list hides
 * and refuses the rest; every call is a `tool.executed` run, under the caller's guardrails when `guards` is set.
 *
 * @remarks Names are made unique by order (built-in first, then the merchant's servers, then the
 * operator's): a later tool whose cleaned name collides with an earlier one is not served.
 */
export class McpGateway {
  constructor(private readonly deps: McpGatewayDeps) {}

  /** The caller's tools, allow-list applied. */
  async listTools(caller: GatewayCaller): Promise<GatewayTool[]> {
    const tools = new Map<string, GatewayTool>();
    const add = (tool: GatewayTool) => {
      if (!tools.has(tool.name) && isToolAllowed(caller.allowedTools, tool.name)) tools.set(tool.name, tool);
    };
    for (const { tool, category } of this.deps.localTools(caller.merchantId)) {
      add({
        name: gatewayToolName(LOCAL_TOOLS_NAMESPACE, tool.name),
        description: tool.description,
        inputSchema: objectSchema(tool.inputSchema),
        destructive: tool.requiresConfirmation === true,
        target: { kind: 'local', category, tool },
      });
    }
    for (const { tool, owner } of await this.deps.merchantMcp.toolsFor(caller.merchantId)) {
      const toolName = tool.originalName ?? tool.name;
      add({
        name: gatewayToolName(tool.source, toolName),
        description: tool.description,
        inputSchema: objectSchema(tool.inputSchema),
        destructive: tool.requiresConfirmation === true,
        target: { kind: 'mcp', serverId: tool.source, toolName, owner },
      });
    }
    return [...tools.values()];
  }

  /**
   * Runs one tool by its gateway name. A name the caller may not see (another merchant's, not on
   * the key's allow-list, or unknown) is `unknown-tool`, the same answer for all three. A tool
   * that fails is a result with `isError`, so the client's model reads why.
   */
  async callTool(caller: GatewayCaller, name: string, args: Readonly<Record<string, unknown>>, signal?: AbortSignal): Promise<GatewayCallOutcome> {
    if (!isToolAllowed(caller.allowedTools, name)) return { kind: 'unknown-tool' };
    const tool = (await this.listTools(caller)).find((candidate) => candidate.name === name);
    if (tool === undefined) return { kind: 'unknown-tool' };
    const guards = this.deps.guards;
    if (guards === undefined) return this.run(caller, tool.target, args, signal);
    const session = await guards.sessionFor(caller);
    try {
      return await this.guardedRun(session, caller, tool.target, args, signal);
    } finally {
      guards.onGuarded?.(session, caller);
    }
  }

  /**
   * A call under the caller's guards: arguments a guard blocks give an `isError` result naming the guard
   * (the tool does not run), masked ones reach the tool masked; the result is masked (or withheld, when a
   * guard blocks it) before it goes back to the client's model.
   */
  private async guardedRun(
    session: GuardSession,
    caller: GatewayCaller,
    target: GatewayToolTarget,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal | undefined,
  ): Promise<GatewayCallOutcome> {
    const guardedArgs = guardToolArguments(args, session);
    if (session.blocked !== undefined) return { kind: 'result', result: blockedToolCallResult(session.blocked) };
    const outcome = await this.run(caller, target, guardedArgs, signal);
    if (outcome.kind !== 'result') return outcome;
    const result = guardToolResult(outcome.result, session);
    if (session.policy.checksAsync && session.blocked === undefined) {
      await runGuardChecks(session, this.deps.guards?.checks, { merchantId: caller.merchantId, apiKeyId: caller.apiKeyId, requestId: caller.requestId });
    }
    return { kind: 'result', result: session.blocked !== undefined ? blockedToolCallResult(session.blocked) : result };
  }

  private async run(
    caller: GatewayCaller,
    target: GatewayToolTarget,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal | undefined,
  ): Promise<GatewayCallOutcome> {
    if (target.kind === 'mcp') return this.callMcpTool(caller, target, args, signal);
    return { kind: 'result', result: await this.callLocalTool(caller, target, args, signal) };
  }

  private async callMcpTool(
    caller: GatewayCaller,
    target: Extract<GatewayToolTarget, { kind: 'mcp' }>,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal | undefined,
  ): Promise<GatewayCallOutcome> {
    const mcpCaller = { merchantId: caller.merchantId, surface: 'mcp', ...(caller.requestId !== undefined ? { requestId: caller.requestId } : {}) };
    try {
      const result = await this.deps.merchantMcp.execute(mcpCaller, target.serverId, target.toolName, args, signal !== undefined ? { signal } : {});
      return {
        kind: 'result',
        result: { content: result.content, ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}) },
      };
    } catch (error) {
      // The server was removed between the listing and the call: as if the tool did not exist.
      if (error instanceof MCPConfigurationError) return { kind: 'unknown-tool' };
      if (error instanceof MCPError) return { kind: 'result', result: textResult(error.message, true) };
      throw error;
    }
  }

  private async callLocalTool(
    caller: GatewayCaller,
    target: Extract<GatewayToolTarget, { kind: 'local' }>,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal | undefined,
  ): Promise<GatewayCallResult> {
    const tool = target.tool;
    // The MCP client asked its user before it called (Claude Code and Codex confirm tool calls), so
    // a tool that needs confirmation is confirmed by the call itself.
    const run = () =>
      tool.execute(args, {
        toolCallId: `mcp-${crypto.randomUUID()}`,
        ...(signal !== undefined ? { abortSignal: signal } : {}),
        ...(tool.requiresConfirmation === true ? { confirmedTools: new Set([tool.name]) } : {}),
      });
    const recorder = this.deps.recordToolRun;
    const audited = () =>
      recorder === undefined
        ? run()
        : recordToolRun(
            recorder,
            {
              merchantId: caller.merchantId,
              origin: 'execute',
              category: target.category,
              serverId: null,
              owner: null,
              tool: tool.name.slice(0, 256),
              argumentBytes: argumentBytesOf(args),
              requestId: caller.requestId?.slice(0, 128) ?? null,
              surface: 'mcp',
            },
            run,
          );
    let output: unknown;
    try {
      output = await audited();
    } catch (error) {
      // A tool that throws failed like one answering { success: false }: the client's model reads why.
      return textResult(error instanceof Error ? error.message : String(error), true);
    }
    const failure = failedAnswer(output);
    if (failure !== undefined) return textResult(failure, true);
    return textResult(typeof output === 'string' ? output : JSON.stringify(output ?? null), false);
  }
}
