/**
 * A merchant's own MCP servers (ConfigStore name `mcpServers`): HTTP endpoints only, registered
 * through `POST /api/mcp/servers`. Stdio servers come only from the operator's `.mcp-config.json`.
 */
export interface MerchantMcpServerRecord {
  /** `http` = streamable HTTP, `sse` = the 2024-11-05 SSE transport. */
  readonly transport: 'http' | 'sse';
  readonly url: string;
  /** Sent with every request (e.g. Authorization); stored as given, never listed back, never `${VAR}`-expanded. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly description?: string;
  readonly timeoutMs?: number;
  /** Epoch ms of the last registration. */
  readonly registeredAt: number;
}

/** The merchant's servers by name. */
export type MerchantMcpServers = Readonly<Record<string, MerchantMcpServerRecord>>;
