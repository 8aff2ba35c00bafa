import { mayUseOperatorServers, type OperatorServerAccess } from '../config/mcp-settings.js';
import { MCPConfigurationError } from '../generation/errors/mcp-errors.js';
import { InvalidRequestError } from '../generation/errors/provider-errors.js';
import { checkEndpoint, checkEndpointUrl, type EndpointPolicy, type ResolveHost } from '../generation/mcp/endpoint-policy.js';
import { validateMcpServerConfig, type McpUrlServerConfig } from '../generation/mcp/mcp-server-config.js';
import type { McpServers, McpToolResult } from '../generation/mcp/mcp-servers.js';
import type { McpServerInfo } from '../generation/mcp/mcp-status.js';
import type { ToolDefinition } from '../generation/tool-definition.js';
import type { ConfigStore } from '../ports/state/config-store.js';
import type { MerchantMcpServerRecord, MerchantMcpServers } from '../ports/state/merchant-mcp-servers.js';
import { argumentBytesOf, recordToolRun, type McpServerOwner, type ToolRunRecorder } from './tool-audit.js';

/** A server as a merchant sees it: whose it is, and (its own) the endpoint and header names, never header values. */
export type ScopedServerInfo = McpServerInfo & {
  readonly owner: McpServerOwner;
  readonly url?: string;
  readonly headerNames?: readonly string[];
  readonly description?: string;
};

/** What a merchant sends to register a server (`POST /api/mcp/servers`). */
export interface MerchantServerInput {
  readonly name: string;
  readonly url: string;
  readonly transport?: 'http' | 'sse' | 'streamable-http';
  readonly headers?: Readonly<Record<string, string>>;
  readonly description?: string;
  readonly timeoutMs?: number;
}

export interface MerchantMcpDeps {
  readonly configs: ConfigStore;
  /** The operator's servers (`.mcp-config.json`): the toolkit's own manager. */
  readonly operator: () => McpServers;
  /** Runs an operator server's tool (the toolkit's `executeMCPTool`, which counts its usage). */
  readonly executeOperatorTool?: (
    serverId: string,
    toolName: string,
    params: Readonly<Record<string, unknown>>,
    options: { readonly signal?: AbortSignal },
  ) => Promise<McpToolResult>;
  readonly operatorAccess: OperatorServerAccess;
  readonly endpointPolicy: EndpointPolicy;
  /** A merchant's own servers (no file, no variable expansion, the SSRF-guarded fetch); absent = registration refused. */
  readonly createServers?: (policy: EndpointPolicy) => McpServers;
  readonly resolveHost?: ResolveHost;
  /** Every tool run (`tool.executed` events). */
  readonly recordToolRun?: ToolRunRecorder;
  /** Told after a merchant's servers were registered, replaced or removed (the MCP gateway's `tools/list_changed`); must not throw. */
  readonly onServersChanged?: (merchantId: string) => void;
  readonly now?: () => number;
}

/** A merchant's tools for a model call, each with whose server it is on. */
export interface ScopedTool {
  readonly tool: ToolDefinition;
  readonly owner: McpServerOwner;
}

/** Most servers one merchant may register. */
export const MAX_MERCHANT_SERVERS = 20;

/** The MCP gateway's namespace of the built-in and custom tools (`switchyard__<tool>`): no merchant server may take it. */
export const LOCAL_TOOLS_NAMESPACE = 'switchyard';

interface MerchantServers {
  readonly servers: McpServers;
  /** What each registered name was connected with (the record's JSON), to tell a change. */
  readonly applied: Map<string, string>;
  /** Syncs of this merchant run one at a time. */
  queue: Promise<void>;
}

/** Who asks: the merchant, and the request for the audit trail. */
export interface McpCaller {
  readonly merchantId: string;
  readonly requestId?: string;
  readonly surface?: string;
}

/**
 * MCP scoped per merchant: a merchant sees and runs its own registered servers (HTTP/SSE only,
 * behind the SSRF guard) plus the operator's `.mcp-config.json` servers when the operator allows
 * it (`MCP_OPERATOR_SERVERS_MERCHANTS`). The registrations live in the ConfigStore (`mcpServers`),
 * so every replica sees them; each replica connects a merchant's servers on first use.
 */
export class MerchantMcp {
  private readonly merchants = new Map<string, MerchantServers>();
  private readonly now: () => number;

  constructor(private readonly deps: MerchantMcpDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Whether the operator's servers are the merchant's to use. */
  operatorAllowed(merchantId: string): boolean {
    return mayUseOperatorServers(this.deps.operatorAccess, merchantId);
  }

  /** Registers (or replaces) one of the merchant's servers: validated, SSRF-checked, stored, connected. */
  async register(merchantId: string, input: MerchantServerInput): Promise<ScopedServerInfo> {
    const createServers = this.deps.createServers;
    if (createServers === undefined) throw new InvalidRequestError('this service cannot connect merchant MCP servers', 'mcp');
    // The scheme and an IP-literal host first: their refusal names the reason better than the generic URL check.
    checkEndpointUrl(input.url, this.deps.endpointPolicy);
    const config = this.validate(input);
    if (
      this.deps
        .operator()
        .listServers()
        .some((server) => server.id === input.name)
    ) {
      throw new InvalidRequestError(`MCP server name "${input.name}" is taken by an operator server; choose another name`, 'mcp', 'name');
    }
    if (input.name.toLowerCase() === LOCAL_TOOLS_NAMESPACE) {
      throw new InvalidRequestError(`MCP server name "${input.name}" is reserved for the gateway's own tools; choose another name`, 'mcp', 'name');
    }
    await checkEndpoint(config.url, this.deps.endpointPolicy, this.deps.resolveHost);
    const current = (await this.deps.configs.get(merchantId, 'mcpServers')) ?? {};
    if (!(input.name in current) && Object.keys(current).length >= MAX_MERCHANT_SERVERS) {
      throw new InvalidRequestError(`a merchant may register at most ${MAX_MERCHANT_SERVERS} MCP servers; remove one first`, 'mcp', 'name');
    }
    const record: MerchantMcpServerRecord = {
      transport: config.transport,
      url: config.url,
      ...(config.headers !== undefined ? { headers: config.headers } : {}),
      ...(config.description !== undefined ? { description: config.description } : {}),
      ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      registeredAt: this.now(),
    };
    await this.deps.configs.put(merchantId, 'mcpServers', { ...current, [input.name]: record }, 'upsert');
    const own = await this.ownServers(merchantId);
    const info = own.find((server) => server.id === input.name);
    if (info === undefined) throw new MCPConfigurationError(`MCP server "${input.name}" vanished while it was registered`, input.name);
    this.deps.onServersChanged?.(merchantId);
    return info;
  }

  /** Removes one of the merchant's servers; another merchant's or an operator's name is 404. */
  async remove(merchantId: string, name: string): Promise<void> {
    const current = (await this.deps.configs.get(merchantId, 'mcpServers')) ?? {};
    if (!Object.hasOwn(current, name)) throw this.unknown(name);
    const { [name]: _removed, ...rest } = current;
    if (Object.keys(rest).length === 0) await this.deps.configs.delete(merchantId, 'mcpServers');
    else await this.deps.configs.put(merchantId, 'mcpServers', rest, 'upsert');
    await this.sync(merchantId);
    this.deps.onServersChanged?.(merchantId);
  }

  /** The operator's servers (when allowed), then the merchant's own. */
  async listServers(merchantId: string): Promise<ScopedServerInfo[]> {
    const operator = this.operatorAllowed(merchantId)
      ? this.deps
          .operator()
          .listServers()
          .map((server) => ({ ...server, owner: 'operator' as const }))
      : [];
    return [...operator, ...(await this.ownServers(merchantId))];
  }

  /** The MCP tools a model call of the merchant may use: its own servers' first, then the operator's when allowed. */
  async toolsFor(merchantId: string): Promise<ScopedTool[]> {
    const own = await this.sync(merchantId);
    const ownTools = own === undefined ? [] : (await own.servers.listTools()).map((tool) => ({ tool, owner: 'merchant' as const }));
    const operatorTools = this.operatorAllowed(merchantId)
      ? (await this.deps.operator().listTools()).map((tool) => ({ tool, owner: 'operator' as const }))
      : [];
    return [...ownTools, ...operatorTools];
  }

  /**
   * Runs one tool of one server the merchant may use (its own first, then the operator's when
   * allowed); any other name is 404, as if it did not exist. Recorded as a `tool.executed` run.
   */
  async execute(
    caller: McpCaller,
    serverName: string,
    toolName: string,
    params: Readonly<Record<string, unknown>>,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<McpToolResult> {
    const own = await this.sync(caller.merchantId);
    const ownHas = own?.servers.listServers().some((server) => server.id === serverName) === true;
    const operatorHas =
      !ownHas &&
      this.operatorAllowed(caller.merchantId) &&
      this.deps
        .operator()
        .listServers()
        .some((server) => server.id === serverName);
    if (!ownHas && !operatorHas) throw this.unknown(serverName);
    const signal = options.signal !== undefined ? { signal: options.signal } : {};
    const operatorRun = this.deps.executeOperatorTool ?? ((...args: Parameters<McpServers['executeTool']>) => this.deps.operator().executeTool(...args));
    const run = () =>
      ownHas ? (own as MerchantServers).servers.executeTool(serverName, toolName, params, signal) : operatorRun(serverName, toolName, params, signal);
    const recorder = this.deps.recordToolRun;
    if (recorder === undefined) return run();
    return recordToolRun(
      recorder,
      {
        merchantId: caller.merchantId,
        origin: 'execute',
        category: 'mcp',
        serverId: serverName,
        owner: ownHas ? 'merchant' : 'operator',
        tool: toolName.slice(0, 256),
        argumentBytes: argumentBytesOf(params),
        requestId: caller.requestId?.slice(0, 128) ?? null,
        surface: caller.surface ?? null,
      },
      run,
    );
  }

  /** The recorder of tool runs (the toolkit audits a merchant's model-made tool calls with it). */
  get toolRunRecorder(): ToolRunRecorder | undefined {
    return this.deps.recordToolRun;
  }

  /** Closes every merchant's connections. */
  async close(): Promise<void> {
    const all = [...this.merchants.values()];
    this.merchants.clear();
    await Promise.all(all.map((entry) => entry.servers.close()));
  }

  private unknown(name: string): MCPConfigurationError {
    return new MCPConfigurationError(`Unknown MCP server "${name}": no server of yours (or of the operator's you may use) has this name`, name);
  }

  private validate(input: MerchantServerInput): McpUrlServerConfig {
    const transport = input.transport === 'sse' ? 'sse' : 'http';
    let config: ReturnType<typeof validateMcpServerConfig>;
    try {
      config = validateMcpServerConfig(input.name, {
        transport,
        url: input.url,
        ...(input.headers !== undefined ? { headers: input.headers } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
      });
    } catch (error) {
      throw new InvalidRequestError(error instanceof Error ? error.message : String(error), 'mcp', 'url');
    }
    if (config.transport === 'stdio') throw new InvalidRequestError('stdio MCP servers come only from the operator configuration', 'mcp', 'transport');
    return config;
  }

  private async ownServers(merchantId: string): Promise<ScopedServerInfo[]> {
    const records = (await this.deps.configs.get(merchantId, 'mcpServers')) ?? {};
    const own = await this.sync(merchantId, records);
    if (own === undefined) return [];
    return own.servers.listServers().map((server) => {
      const record = records[server.id];
      return {
        ...server,
        owner: 'merchant' as const,
        ...(record !== undefined ? { url: record.url, headerNames: Object.keys(record.headers ?? {}) } : {}),
        ...(record?.description !== undefined ? { description: record.description } : {}),
      };
    });
  }

  /**
   * Brings this replica's connections of the merchant in line with its stored registrations:
   * new or changed servers are (re)connected, removed ones closed. A server that fails to connect
   * stays listed as `failed` with the reason (an SSRF refusal at connect time included).
   */
  private async sync(merchantId: string, known?: MerchantMcpServers): Promise<MerchantServers | undefined> {
    const records = known ?? (await this.deps.configs.get(merchantId, 'mcpServers')) ?? {};
    let entry = this.merchants.get(merchantId);
    if (entry === undefined) {
      if (Object.keys(records).length === 0 || this.deps.createServers === undefined) return undefined;
      entry = { servers: this.deps.createServers(this.deps.endpointPolicy), applied: new Map(), queue: Promise.resolve() };
      this.merchants.set(merchantId, entry);
    }
    const target = entry;
    const step = target.queue.then(() => this.apply(target, records));
    target.queue = step.catch(() => undefined);
    await step;
    return target;
  }

  private async apply(entry: MerchantServers, records: MerchantMcpServers): Promise<void> {
    for (const name of [...entry.applied.keys()]) {
      if (Object.hasOwn(records, name)) continue;
      entry.applied.delete(name);
      await entry.servers.removeServer(name, { persist: false }).catch(() => undefined);
    }
    for (const [name, record] of Object.entries(records)) {
      const signature = JSON.stringify(record);
      if (entry.applied.get(name) === signature) continue;
      entry.applied.set(name, signature);
      const { registeredAt: _at, ...config } = record;
      // A failed connect leaves the server registered as `failed` with its reason; it is retried on use.
      await entry.servers.addServer(name, config, { persist: false }).catch(() => undefined);
    }
  }
}
