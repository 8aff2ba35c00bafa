import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { MCPConfigurationError, MCPConnectionError, MCPToolError } from '../../generation/errors/mcp-errors.js';
import { validateMcpServerConfig, type McpServerConfig } from '../../generation/mcp/mcp-server-config.js';
import type { DiscoveredServer, McpDiscoveryResult, McpServerInfo, McpServerTestResult, McpStatus } from '../../generation/mcp/mcp-status.js';
import type { ToolDefinition } from '../../generation/tool-definition.js';
import { readMcpConfigFile, updateMcpConfigServer } from './mcp-config-file.js';
import { updateMcpConfigDocument } from './mcp-config-update-file.js';
import { resolveConfigUpdateOptions, type ConfigUpdateOptions, type ConfigUpdateResult } from '../../generation/mcp/mcp-config-update.js';
import type { McpServers, McpToolResult } from '../../generation/mcp/mcp-servers.js';
import { discoverMcpServers, type McpDiscoveryOptions } from './mcp-discovery.js';
import { McpServerPool, type McpPoolEntry, type McpPoolLogger } from './mcp-server-pool.js';
import { exposedToolNames, toToolDefinitions } from './mcp-tool-definitions.js';

/** Any pino-shaped logger; the manager logs connects, failures and crashes. */
export type McpManagerLogger = McpPoolLogger;

export interface McpManagerOptions {
  /** Default `<cwd>/.mcp-config.json`. */
  readonly configPath?: string;
  /** Resolves relative stdio `cwd`s and the default config path. Default process.cwd(). */
  readonly cwd?: string;
  /** Handshake timeout; default the config file's `global.timeout`, else 5000 ms. */
  readonly connectTimeoutMs?: number;
  /** Tool-call timeout; default the config file's `global.timeout`, else 30000 ms. */
  readonly toolTimeoutMs?: number;
  /** Open connections at most; default the config file's `global.maxConnections`, else 10. */
  readonly maxConnections?: number;
  /** Reconnects after an unexpected exit: up to `maxRestarts`, waiting `backoffMs · 2^(n-1)`. Default 3 × 500 ms. */
  readonly restart?: { readonly maxRestarts: number; readonly backoffMs: number };
  readonly logger?: McpManagerLogger;
  /** HTTP/SSE servers are reached with this fetch (merchant managers: the SSRF-guarded one). */
  readonly fetch?: typeof globalThis.fetch;
  /** Variables `${VAR}` in headers/env expand from (default process.env); merchant managers pass `{}`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Overrides for discovery (tests point it at a fake home). */
  readonly discovery?: Partial<McpDiscoveryOptions>;
}

const silent: McpManagerLogger = { info: () => undefined, warn: () => undefined };
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Owns every MCP server the process knows: configured (`.mcp-config.json`), added at run time,
 * or discovered in editors' configs (listed, never connected until added). Connects, restarts
 * crashed servers with backoff, enforces the connection limit and exposes tools.
 */
export class McpManager implements McpServers {
  readonly configPath: string;
  private readonly pool: McpServerPool;
  private readonly entries: Map<string, McpPoolEntry>;

  constructor(private readonly options: McpManagerOptions = {}) {
    const cwd = resolve(options.cwd ?? process.cwd());
    this.configPath = resolve(cwd, options.configPath ?? '.mcp-config.json');
    this.pool = new McpServerPool({
      cwd,
      connectTimeoutMs: options.connectTimeoutMs ?? 5000,
      toolTimeoutMs: options.toolTimeoutMs ?? 30_000,
      maxConnections: options.maxConnections ?? 10,
      restart: options.restart ?? { maxRestarts: 3, backoffMs: 500 },
      logger: options.logger ?? silent,
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
    this.entries = this.pool.entries;
  }

  /**
   * Reads `.mcp-config.json` (a missing file is an empty config) and registers its servers
   * without connecting. Invalid entries are reported, not fatal; malformed JSON throws
   * MCPConfigurationError naming the file.
   */
  async loadConfig(): Promise<{ readonly servers: readonly string[]; readonly errors: readonly { readonly id: string; readonly error: string }[] }> {
    const file = await readMcpConfigFile(this.configPath);
    const settings = this.pool.settings;
    if (this.options.connectTimeoutMs === undefined && file.global.timeout !== undefined) settings.connectTimeoutMs = file.global.timeout;
    if (this.options.toolTimeoutMs === undefined && file.global.timeout !== undefined) settings.toolTimeoutMs = file.global.timeout;
    if (this.options.maxConnections === undefined && file.global.maxConnections !== undefined) settings.maxConnections = file.global.maxConnections;
    const servers: string[] = [];
    const errors: { id: string; error: string }[] = [];
    for (const [id, raw] of Object.entries(file.servers)) {
      try {
        const config = validateMcpServerConfig(id, raw);
        const existing = this.entries.get(id);
        if (existing !== undefined && JSON.stringify(existing.config) === JSON.stringify(config)) {
          existing.source = existing.source === 'discovered' ? 'config' : existing.source;
        } else {
          if (existing !== undefined) await this.pool.retire(existing);
          this.entries.set(id, this.pool.newEntry(id, config, 'config'));
        }
        servers.push(id);
      } catch (error) {
        errors.push({ id, error: message(error) });
        this.pool.settings.logger.warn({ serverId: id, error: message(error) }, 'invalid MCP server entry skipped');
      }
    }
    return { servers, errors };
  }

  /** Connects every enabled, not yet connected, configured or added server; failures are recorded, not thrown. */
  async connectAll(): Promise<{ readonly connected: readonly string[]; readonly failed: readonly { readonly id: string; readonly error: string }[] }> {
    const targets = [...this.entries.values()].filter((entry) => entry.source !== 'discovered' && entry.config.enabled !== false);
    const outcomes = await Promise.allSettled(targets.map((entry) => this.pool.connect(entry, true)));
    const connected: string[] = [];
    const failed: { id: string; error: string }[] = [];
    outcomes.forEach((outcome, index) => {
      const id = (targets[index] as McpPoolEntry).id;
      if (outcome.status === 'fulfilled') connected.push(id);
      else failed.push({ id, error: message(outcome.reason) });
    });
    return { connected, failed };
  }

  /**
   * Validates (MCPConfigurationError naming the field), persists to `.mcp-config.json` unless
   * `persist: false`, then connects an enabled server (MCPConnectionError if that fails; the
   * server stays registered as `failed`).
   */
  async addServer(id: string, input: McpServerConfig, options: { readonly persist?: boolean } = {}): Promise<void> {
    this.pool.assertOpen();
    const config = validateMcpServerConfig(id, input);
    if (options.persist ?? true) await updateMcpConfigServer(this.configPath, id, config);
    const existing = this.entries.get(id);
    if (existing !== undefined) await this.pool.retire(existing);
    const entry = this.pool.newEntry(id, config, 'added');
    this.entries.set(id, entry);
    if (config.enabled !== false) await this.pool.connect(entry, true);
  }

  /**
   * Updates `.mcp-config.json` as ConfigUpdateOptions say (backup, validation, merge strategy,
   * retention, callbacks), then reloads it: servers that came from the file and are gone from it
   * are disconnected and forgotten, new or changed ones are registered (not connected).
   */
  async updateConfig(update: Readonly<Record<string, unknown>>, options: ConfigUpdateOptions = {}): Promise<ConfigUpdateResult> {
    const resolved = resolveConfigUpdateOptions(options);
    const written = await updateMcpConfigDocument(this.configPath, update, resolved);
    const kept = (written.config['mcpServers'] ?? {}) as Record<string, unknown>;
    for (const entry of [...this.entries.values()]) {
      if (entry.source === 'config' && !(entry.id in kept)) {
        this.entries.delete(entry.id);
        await this.pool.retire(entry);
      }
    }
    const loaded = await this.loadConfig();
    const result: ConfigUpdateResult = { path: this.configPath, ...written, servers: loaded.servers, errors: loaded.errors };
    await resolved.callbacks.onConfigUpdated?.(result);
    return result;
  }

  /** Disconnects and forgets a server, and deletes it from `.mcp-config.json` unless `persist: false`. */
  async removeServer(id: string, options: { readonly persist?: boolean } = {}): Promise<void> {
    const entry = this.entries.get(id);
    if (entry === undefined) throw new MCPConfigurationError(`Unknown MCP server "${id}"`, id);
    this.entries.delete(id);
    await this.pool.retire(entry);
    if ((options.persist ?? true) && entry.source !== 'discovered') await updateMcpConfigServer(this.configPath, id, undefined);
  }

  listServers(): McpServerInfo[] {
    return [...this.entries.values()].map((entry) => ({
      id: entry.id,
      name: entry.config.name ?? entry.id,
      source: entry.source,
      transport: entry.config.transport,
      status: entry.status,
      enabled: entry.config.enabled !== false,
      toolCount: entry.status === 'connected' ? entry.tools.length : 0,
      restarts: entry.restarts,
      ...(entry.error !== undefined ? { error: entry.error } : {}),
      tools: entry.status === 'connected' ? entry.tools.map((tool) => ({ name: tool.name, description: tool.description })) : [],
    }));
  }

  getStatus(): McpStatus {
    const servers = this.listServers();
    return {
      totalServers: servers.length,
      availableServers: servers.filter((server) => server.status === 'connected').length,
      failedServers: servers.filter((server) => server.status === 'failed').length,
      autoDiscoveredCount: servers.filter((server) => server.source === 'discovered').length,
      totalTools: servers.reduce((sum, server) => sum + server.toolCount, 0),
      maxConnections: this.pool.settings.maxConnections,
      servers,
    };
  }

  /** Tools of every connected server, as ToolDefinitions (plain names when unique, `<server>__<tool>` otherwise). */
  async listTools(): Promise<ToolDefinition[]> {
    return toToolDefinitions(this.pool.connectedTools(), (serverId, toolName, params, signal, meta) =>
      this.executeTool(serverId, toolName, params, { ...(signal ? { signal } : {}), ...(meta !== undefined ? { meta } : {}) }),
    );
  }

  /**
   * Calls one tool. Waits for a restart in progress; connects a known, enabled server that is
   * not connected. Throws MCPConnectionError (unknown/unreachable server) or MCPToolError.
   */
  async executeTool(
    serverId: string,
    toolName: string,
    params: Readonly<Record<string, unknown>> = {},
    options: { readonly signal?: AbortSignal; readonly timeoutMs?: number; readonly meta?: Readonly<Record<string, unknown>> } = {},
  ): Promise<McpToolResult> {
    const entry = this.entries.get(serverId);
    if (entry === undefined) throw new MCPConnectionError(`Unknown MCP server "${serverId}"`, serverId);
    if (entry.source === 'discovered')
      throw new MCPConnectionError(`MCP server "${serverId}" was discovered but not added; add it before calling its tools`, serverId);
    if (entry.config.enabled === false) throw new MCPConnectionError(`MCP server "${serverId}" is disabled`, serverId);
    const connection = await this.pool.connect(entry, false);
    if (!entry.tools.some((tool) => tool.name === toolName)) {
      throw new MCPToolError(
        `MCP server "${serverId}" has no tool "${toolName}" (it offers: ${entry.tools.map((tool) => tool.name).join(', ') || 'none'})`,
        serverId,
        toolName,
      );
    }
    return connection.callTool(toolName, params, options);
  }

  /** Calls a tool by the name `listTools` exposes (plain when unique, `<server>__<tool>` otherwise). */
  async executeToolByName(
    name: string,
    params: Readonly<Record<string, unknown>> = {},
    options: { readonly signal?: AbortSignal; readonly timeoutMs?: number } = {},
  ): Promise<McpToolResult> {
    const target = exposedToolNames(this.pool.connectedTools()).get(name);
    if (target === undefined) throw new MCPToolError(`No connected MCP server offers a tool named "${name}"`, '', name);
    return this.executeTool(target.serverId, target.tool.name, params, options);
  }

  /** Pings a connected server, or opens a throwaway connection to any other known one. Never throws for an unreachable server. */
  async testServer(id: string): Promise<McpServerTestResult> {
    const entry = this.entries.get(id);
    if (entry === undefined) throw new MCPConfigurationError(`Unknown MCP server "${id}"`, id);
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const live = entry.connection?.isOpen === true ? entry.connection : undefined;
    const connection = live ?? this.pool.newConnection(entry.id, entry.config, undefined);
    try {
      if (live === undefined) await connection.connect();
      else await connection.ping();
      const tools = await connection.listTools();
      return { ok: true, toolCount: tools.length, latencyMs: elapsed() };
    } catch (error) {
      return { ok: false, toolCount: 0, latencyMs: elapsed(), error: message(error) };
    } finally {
      if (live === undefined) await connection.close();
    }
  }

  /** Looks through editors' and desktop clients' configs; new ids are listed as `discovered` (not connected). */
  async discover(): Promise<DiscoveredServer[]> {
    return [...(await this.discoverWithReport()).servers];
  }

  /** `discover` plus which files were read and which were skipped and why. */
  async discoverWithReport(): Promise<McpDiscoveryResult> {
    const result = await discoverMcpServers({
      homeDir: this.options.discovery?.homeDir ?? homedir(),
      cwd: this.options.discovery?.cwd ?? this.pool.settings.cwd,
      platform: this.options.discovery?.platform ?? process.platform,
      // biome-ignore lint/style/noProcessEnv: discovery looks where the desktop MCP clients look, which is the process's own %APPDATA%
      appData: this.options.discovery?.appData ?? process.env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'),
    });
    for (const server of result.servers) {
      if (!this.entries.has(server.id)) this.entries.set(server.id, this.pool.newEntry(server.id, server.config, 'discovered'));
    }
    return result;
  }

  /** Closes every connection and stops restarts; the manager is unusable afterwards. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
