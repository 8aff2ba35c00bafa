import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MCPConnectionError, MCPToolError } from '../../generation/errors/mcp-errors.js';
import { expandEnvReferences, type ValidatedMcpServerConfig } from '../../generation/mcp/mcp-server-config.js';
import type { McpToolResult } from '../../generation/mcp/mcp-servers.js';
import type { JsonSchema } from '../../generation/tool-definition.js';

/** A tool as the server lists it. */
export interface McpRemoteTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

export interface McpConnectionOptions {
  /** Resolves a relative `cwd` of a stdio server. */
  readonly baseDir: string;
  readonly connectTimeoutMs: number;
  readonly toolTimeoutMs: number;
  /** Variables `${VAR}` in env/headers/args expand from; default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The fetch HTTP/SSE transports use (default the runtime's): a merchant's servers get the SSRF-guarded one. */
  readonly fetch?: typeof globalThis.fetch;
  /** Called once when the connection ends without `close()` having been called (crash, server exit). */
  readonly onUnexpectedClose?: (reason: string) => void;
  /** Called with the new list after the server announces `notifications/tools/list_changed`. */
  readonly onToolsChanged?: (tools: McpRemoteTool[]) => void;
}

type RawTool = { readonly name: string; readonly description?: string | undefined; readonly inputSchema: object };

function toRemoteTool(tool: RawTool): McpRemoteTool {
  return { name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema as JsonSchema };
}

/** Remembers the child's pid past the SDK's own close, which forgets it before the child is gone. */
class TrackedStdioTransport extends StdioClientTransport {
  startedPid: number | null = null;
  override async start(): Promise<void> {
    await super.start();
    this.startedPid = this.pid;
  }
}

/** Last bytes of a stdio server's stderr, kept to explain a failed start. */
const STDERR_TAIL = 2048;

function textOf(content: readonly unknown[]): string {
  return content
    .map((block) =>
      typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' ? String((block as { text?: unknown }).text ?? '') : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * One live client session with one MCP server. Not reusable: after `close()` or an unexpected
 * end, the manager builds a new one (that is how a restart works).
 */
export class McpConnection {
  private readonly client: Client;
  private transport: Transport | undefined;
  private stderrTail = '';
  private closedByUs = false;
  private ended = false;

  constructor(
    readonly serverId: string,
    readonly config: ValidatedMcpServerConfig,
    private readonly options: McpConnectionOptions,
  ) {
    const onToolsChanged = options.onToolsChanged;
    this.client = new Client(
      { name: 'switchyard', version: '0.1.0' },
      {
        capabilities: {},
        ...(onToolsChanged
          ? {
              listChanged: {
                tools: {
                  onChanged: (error: Error | null, tools: readonly RawTool[] | null) =>
                    error === null && tools !== null ? onToolsChanged(tools.map(toRemoteTool)) : undefined,
                },
              },
            }
          : {}),
      },
    );
  }

  /** Process id of a stdio server once started (tests use it to prove a restart). */
  get pid(): number | null {
    return this.transport instanceof TrackedStdioTransport ? this.transport.startedPid : null;
  }

  get isOpen(): boolean {
    return this.transport !== undefined && !this.ended;
  }

  private buildTransport(): Transport {
    // biome-ignore lint/style/noProcessEnv: a stdio server inherits the environment (the MCP SDK's default) unless the caller passes one
    const env = this.options.env ?? process.env;
    const expand = (value: string): string => expandEnvReferences(value, env);
    const expandAll = (record: Readonly<Record<string, string>> | undefined): Record<string, string> =>
      Object.fromEntries(Object.entries(record ?? {}).map(([key, value]) => [key, expand(value)]));
    const config = this.config;
    if (config.transport === 'stdio') {
      // The SDK spawns with shell:false and merges `env` over its safe default (HOME, PATH, USER, …),
      // so the parent's secrets are not inherited wholesale.
      const transport = new TrackedStdioTransport({
        command: config.command,
        args: config.args.map(expand),
        env: expandAll(config.env),
        cwd: resolve(this.options.baseDir, config.cwd ?? '.'),
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      return transport;
    }
    const requestInit: RequestInit = { headers: expandAll(config.headers) };
    const url = new URL(config.url);
    const fetch = this.options.fetch;
    const transportOptions = { requestInit, ...(fetch !== undefined ? { fetch } : {}) };
    return config.transport === 'sse' ? new SSEClientTransport(url, transportOptions) : new StreamableHTTPClientTransport(url, transportOptions);
  }

  private describe(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const stderr = this.stderrTail.trim();
    return stderr === '' ? message : `${message}; server stderr: ${stderr.slice(-500)}`;
  }

  /** A server's own `timeout` may lengthen the handshake wait (slow starters) but never shorten it below the manager's. */
  private handshakeTimeoutMs(): number {
    return Math.max(this.config.timeoutMs ?? 0, this.options.connectTimeoutMs);
  }

  /** Starts the transport and runs the MCP handshake within `connectTimeoutMs`. */
  async connect(): Promise<void> {
    const transport = this.buildTransport();
    this.transport = transport;
    const timeoutMs = this.handshakeTimeoutMs();
    this.client.onclose = () => {
      if (this.ended) return;
      this.ended = true;
      if (!this.closedByUs) this.options.onUnexpectedClose?.(this.describe(new Error('connection closed')));
    };
    try {
      await this.client.connect(transport, { timeout: timeoutMs });
    } catch (error) {
      this.closedByUs = true;
      // The SDK's close waits 2 s for a graceful exit before SIGTERM; a server that never
      // completed the handshake gets no grace (and must not outlive a short-lived caller).
      if (transport instanceof TrackedStdioTransport && transport.startedPid !== null) {
        try {
          process.kill(transport.startedPid, 'SIGTERM');
        } catch (error) {
          // ESRCH: the server already exited, which is what we wanted.
          if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
        }
      }
      await transport.close().catch(() => undefined);
      const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
      const reason = timedOut ? `no handshake within ${timeoutMs} ms` : this.describe(error);
      throw new MCPConnectionError(`Cannot connect to MCP server "${this.serverId}": ${reason}`, this.serverId, error);
    }
  }

  async listTools(): Promise<McpRemoteTool[]> {
    const tools: McpRemoteTool[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await this.client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.handshakeTimeoutMs() });
        tools.push(...page.tools.map(toRemoteTool));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      throw new MCPConnectionError(`Cannot list tools of MCP server "${this.serverId}": ${this.describe(error)}`, this.serverId, error);
    }
    return tools;
  }

  async ping(): Promise<void> {
    try {
      await this.client.ping({ timeout: this.handshakeTimeoutMs() });
    } catch (error) {
      throw new MCPConnectionError(`MCP server "${this.serverId}" does not answer: ${this.describe(error)}`, this.serverId, error);
    }
  }

  /**
   * Calls one tool. A tool-level error (`isError`), a protocol error (unknown tool, bad
   * arguments) or a timeout is an MCPToolError; a lost connection is an MCPConnectionError.
   */
  async callTool(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: { signal?: AbortSignal; timeoutMs?: number; meta?: Readonly<Record<string, unknown>> } = {},
  ): Promise<McpToolResult> {
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs ?? this.options.toolTimeoutMs;
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      // `_meta` (MCP request metadata) carries the caller's ExecutionContext ids when given.
      result = await this.client.callTool({ name, arguments: { ...args }, ...(options.meta !== undefined ? { _meta: { ...options.meta } } : {}) }, undefined, {
        timeout: timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      // First: the SDK reports a cancellation by the caller's signal as a RequestTimeout McpError too.
      if (options.signal?.aborted) {
        throw new MCPToolError(`MCP tool "${name}" on "${this.serverId}" was aborted`, this.serverId, name, error);
      }
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        throw new MCPToolError(`MCP tool "${name}" on "${this.serverId}" timed out after ${timeoutMs} ms`, this.serverId, name, error);
      }
      // Anything but a JSON-RPC error answer (fetch failures, HTTP status errors, a closed pipe)
      // means the server was not reached, whatever the tool.
      if (!(error instanceof McpError) || error.code === ErrorCode.ConnectionClosed || !this.isOpen) {
        throw new MCPConnectionError(`MCP server "${this.serverId}" closed the connection during "${name}": ${this.describe(error)}`, this.serverId, error);
      }
      throw new MCPToolError(
        `MCP tool "${name}" on "${this.serverId}" failed: ${error instanceof Error ? error.message : String(error)}`,
        this.serverId,
        name,
        error,
      );
    }
    const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
    if (result.isError === true) {
      const text = textOf(content);
      throw new MCPToolError(`MCP tool "${name}" on "${this.serverId}" reported an error: ${text === '' ? 'no details' : text}`, this.serverId, name, result);
    }
    const structured = result.structuredContent;
    return {
      content,
      ...(typeof structured === 'object' && structured !== null ? { structuredContent: structured as Record<string, unknown> } : {}),
      text: textOf(content),
    };
  }

  /** Ends the session (kills a stdio server's process). Safe to call twice. */
  async close(): Promise<void> {
    this.closedByUs = true;
    await this.client.close().catch(() => undefined);
    this.ended = true;
  }
}
