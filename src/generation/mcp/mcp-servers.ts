import type { ToolDefinition } from '../tool-definition.js';
import type { ConfigUpdateOptions, ConfigUpdateResult } from './mcp-config-update.js';
import type { McpServerConfig } from './mcp-server-config.js';
import type { McpServerInfo, McpStatus } from './mcp-status.js';

/** A successful tool result: the MCP content blocks, structured content if any, and the text parts joined. */
export interface McpToolResult {
  readonly content: readonly unknown[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly text: string;
}

/** A server id with why it could not be loaded or connected. */
export interface McpServerFailure {
  readonly id: string;
  readonly error: string;
}

/**
 * The toolkit's MCP servers: what `NeuroLink` needs of them (connect, list and call tools, report
 * status). `src/adapters/mcp/mcp-manager.ts` implements it over the MCP SDK (stdio, SSE, HTTP).
 *
 * @remarks Discovery and server tests are CLI features and stay on the adapter: the toolkit never
 * needs them, so the port does not carry them.
 */
export interface McpServers {
  /** Reads `.mcp-config.json`; a malformed file throws `MCPConfigurationError` naming it. */
  loadConfig(): Promise<{ readonly servers: readonly string[]; readonly errors: readonly McpServerFailure[] }>;
  /** Connects every enabled server; a server that fails is reported, never thrown. */
  connectAll(): Promise<{ readonly connected: readonly string[]; readonly failed: readonly McpServerFailure[] }>;
  /** Adds and connects a server; `persist` also writes `.mcp-config.json`. */
  addServer(id: string, config: McpServerConfig, options?: { readonly persist?: boolean }): Promise<void>;
  removeServer(id: string, options?: { readonly persist?: boolean }): Promise<void>;
  /** Updates `.mcp-config.json` (backup, validation, merge strategy: ConfigUpdateOptions) and reloads it. */
  updateConfig(update: Readonly<Record<string, unknown>>, options?: ConfigUpdateOptions): Promise<ConfigUpdateResult>;
  listServers(): McpServerInfo[];
  getStatus(): McpStatus;
  /** The connected servers' tools as toolkit tools (names made unique across servers). */
  listTools(): Promise<ToolDefinition[]>;
  executeTool(
    serverId: string,
    toolName: string,
    params?: Readonly<Record<string, unknown>>,
    options?: { readonly signal?: AbortSignal; readonly timeoutMs?: number; readonly meta?: Readonly<Record<string, unknown>> },
  ): Promise<McpToolResult>;
  /** Closes every connection (stdio children end). */
  close(): Promise<void>;
}
