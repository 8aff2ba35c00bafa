import type { ValidatedMcpServerConfig, McpTransportKind } from './mcp-server-config.js';

/** Where the manager learned of a server. */
export type McpServerSource = 'config' | 'discovered' | 'added';

/**
 * `discovered`: found in an editor's config, never connected (activate it with addServer);
 * `disconnected`: known but not connected (disabled, not yet connected, closed, or restarting).
 */
export type McpServerStatus = 'connected' | 'discovered' | 'failed' | 'disconnected';

export interface McpServerInfo {
  readonly id: string;
  readonly name: string;
  readonly source: McpServerSource;
  readonly transport: McpTransportKind;
  readonly status: McpServerStatus;
  readonly enabled: boolean;
  readonly toolCount: number;
  /** Restarts after unexpected exits since the last explicit connect. */
  readonly restarts: number;
  /** Why the server is failed or disconnected, when known. */
  readonly error?: string;
  readonly tools: readonly { readonly name: string; readonly description: string }[];
}

export interface McpStatus {
  readonly totalServers: number;
  /** Connected servers (their tools are callable). */
  readonly availableServers: number;
  readonly failedServers: number;
  readonly autoDiscoveredCount: number;
  readonly totalTools: number;
  readonly maxConnections: number;
  readonly servers: readonly McpServerInfo[];
}

/** Which editor or desktop client a discovered server came from. */
export type McpDiscoveryTool = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'windsurf' | 'cline' | 'continue' | 'zed';

export interface DiscoveredServer {
  readonly id: string;
  readonly config: ValidatedMcpServerConfig;
  readonly tool: McpDiscoveryTool;
  readonly scope: 'global' | 'workspace';
  /** Higher wins when two sources define the same id (workspace beats global). */
  readonly priority: number;
  readonly configPath: string;
}

export interface McpDiscoveryResult {
  readonly servers: readonly DiscoveredServer[];
  /** Every file that was found and read, with how many servers it yielded. */
  readonly sources: readonly { readonly tool: McpDiscoveryTool; readonly path: string; readonly serverCount: number }[];
  /** Files or entries that were skipped, and why; discovery never throws for them. */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
  readonly duplicatesRemoved: number;
}

/** The result of `testServer`: one connect (or ping), a tool listing, and how long it took. */
export interface McpServerTestResult {
  readonly ok: boolean;
  readonly toolCount: number;
  readonly latencyMs: number;
  readonly error?: string;
}
