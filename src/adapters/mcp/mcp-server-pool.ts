import { MCPConnectionError } from '../../generation/errors/mcp-errors.js';
import { validateMcpServerId, type ValidatedMcpServerConfig } from '../../generation/mcp/mcp-server-config.js';
import type { McpServerSource, McpServerStatus } from '../../generation/mcp/mcp-status.js';
import { McpConnection, type McpRemoteTool } from './mcp-connection.js';

export interface McpPoolLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

/** Tunables the manager may change after construction (the config file's `global` block). */
export interface McpPoolSettings {
  readonly cwd: string;
  connectTimeoutMs: number;
  toolTimeoutMs: number;
  maxConnections: number;
  readonly restart: { readonly maxRestarts: number; readonly backoffMs: number };
  readonly logger: McpPoolLogger;
  /** HTTP/SSE servers are reached with this fetch (a merchant's: the SSRF-guarded one). */
  readonly fetch?: typeof globalThis.fetch;
  /** Variables `${VAR}` expands from (default process.env); a merchant's servers get none. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** One known server and the state of its connection. */
export interface McpPoolEntry {
  readonly id: string;
  config: ValidatedMcpServerConfig;
  source: McpServerSource;
  status: McpServerStatus;
  error: string | undefined;
  connection: McpConnection | undefined;
  /** An in-flight connect or restart (including its backoff wait); holds a connection slot. */
  connecting: Promise<McpConnection> | undefined;
  tools: readonly McpRemoteTool[];
  restarts: number;
  removed: boolean;
  /** Ends a restart backoff early (close/remove). */
  wake: (() => void) | undefined;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The connection lifecycle behind McpManager: the entries by id, connecting under the
 * connection limit, restarting crashed servers with exponential backoff, and closing.
 */
export class McpServerPool {
  readonly entries = new Map<string, McpPoolEntry>();
  private closed = false;

  constructor(readonly settings: McpPoolSettings) {}

  get isClosed(): boolean {
    return this.closed;
  }

  assertOpen(): void {
    if (this.closed) throw new MCPConnectionError('MCP manager is closed', '');
  }

  /** Closes every connection and stops restarts; the pool is unusable afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.entries.values()].map((entry) => this.disconnect(entry)));
  }

  newEntry(id: string, config: ValidatedMcpServerConfig, source: McpServerSource): McpPoolEntry {
    validateMcpServerId(id);
    const status: McpServerStatus = source === 'discovered' ? 'discovered' : 'disconnected';
    return {
      id,
      config,
      source,
      status,
      error: undefined,
      connection: undefined,
      connecting: undefined,
      tools: [],
      restarts: 0,
      removed: false,
      wake: undefined,
    };
  }

  newConnection(
    id: string,
    config: ValidatedMcpServerConfig,
    onUnexpectedClose?: (reason: string) => void,
    onToolsChanged?: (tools: McpRemoteTool[]) => void,
  ): McpConnection {
    return new McpConnection(id, config, {
      baseDir: this.settings.cwd,
      connectTimeoutMs: this.settings.connectTimeoutMs,
      toolTimeoutMs: this.settings.toolTimeoutMs,
      ...(this.settings.fetch !== undefined ? { fetch: this.settings.fetch } : {}),
      ...(this.settings.env !== undefined ? { env: this.settings.env } : {}),
      ...(onUnexpectedClose ? { onUnexpectedClose } : {}),
      ...(onToolsChanged ? { onToolsChanged } : {}),
    });
  }

  connectedTools(): { serverId: string; tools: readonly McpRemoteTool[] }[] {
    return [...this.entries.values()].filter((entry) => entry.status === 'connected').map((entry) => ({ serverId: entry.id, tools: entry.tools }));
  }

  private slotsInUse(): number {
    return [...this.entries.values()].filter((entry) => entry.connecting !== undefined || entry.connection?.isOpen === true).length;
  }

  /** The open connection, the one being (re)established, or a new one if a slot is free. */
  connect(entry: McpPoolEntry, fresh: boolean): Promise<McpConnection> {
    if (entry.connection?.isOpen === true) return Promise.resolve(entry.connection);
    if (entry.connecting !== undefined) return entry.connecting;
    try {
      this.assertOpen();
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.slotsInUse() >= this.settings.maxConnections) {
      const error = new MCPConnectionError(
        `MCP connection limit reached (${this.settings.maxConnections} open); "${entry.id}" was not connected — raise maxConnections or remove a server`,
        entry.id,
      );
      entry.status = 'failed';
      entry.error = error.message;
      return Promise.reject(error);
    }
    if (fresh) entry.restarts = 0;
    return this.track(entry, this.open(entry));
  }

  private track(entry: McpPoolEntry, attempt: Promise<McpConnection>): Promise<McpConnection> {
    entry.connecting = attempt;
    const clear = (): void => {
      if (entry.connecting === attempt) entry.connecting = undefined;
    };
    attempt.then(clear, clear);
    return attempt;
  }

  private async open(entry: McpPoolEntry): Promise<McpConnection> {
    const connection = this.newConnection(
      entry.id,
      entry.config,
      (reason) => this.onCrash(entry, connection, reason),
      (tools) => {
        if (entry.connection !== connection) return;
        entry.tools = tools;
        this.settings.logger.info({ serverId: entry.id, toolCount: tools.length }, 'MCP server tool list changed');
      },
    );
    try {
      await connection.connect();
      const tools = await connection.listTools();
      if (this.closed || entry.removed) {
        await connection.close();
        throw new MCPConnectionError(`MCP server "${entry.id}" was removed while connecting`, entry.id);
      }
      Object.assign(entry, { connection, tools, status: 'connected', error: undefined });
      this.settings.logger.info({ serverId: entry.id, toolCount: tools.length }, 'MCP server connected');
      return connection;
    } catch (error) {
      await connection.close();
      if (!entry.removed) Object.assign(entry, { status: 'failed', error: message(error), connection: undefined });
      this.settings.logger.warn({ serverId: entry.id, error: message(error) }, 'MCP server connection failed');
      throw error instanceof MCPConnectionError ? error : new MCPConnectionError(message(error), entry.id, error);
    }
  }

  /** The server went away on its own: reconnect with exponential backoff, keeping the slot. */
  private onCrash(entry: McpPoolEntry, connection: McpConnection, reason: string): void {
    if (entry.connection !== connection || this.closed || entry.removed) return;
    Object.assign(entry, { connection: undefined, status: 'disconnected', error: reason });
    this.settings.logger.warn({ serverId: entry.id, reason }, 'MCP server exited unexpectedly');
    const restartLoop = async (): Promise<McpConnection> => {
      let last = reason;
      while (entry.restarts < this.settings.restart.maxRestarts && !this.closed && !entry.removed) {
        entry.restarts += 1;
        await this.backoff(entry, this.settings.restart.backoffMs * 2 ** (entry.restarts - 1));
        if (this.closed || entry.removed) break;
        try {
          return await this.open(entry);
        } catch (error) {
          last = message(error);
        }
      }
      const error = new MCPConnectionError(`MCP server "${entry.id}" is down after ${entry.restarts} restart attempt(s): ${last}`, entry.id);
      if (!entry.removed) Object.assign(entry, { status: 'failed', error: error.message });
      throw error;
    };
    this.track(entry, restartLoop()).catch(() => undefined);
  }

  private backoff(entry: McpPoolEntry, ms: number): Promise<void> {
    return new Promise((done) => {
      const timer = setTimeout(finish, ms);
      function finish(): void {
        clearTimeout(timer);
        entry.wake = undefined;
        done();
      }
      entry.wake = finish;
    });
  }

  /** The entry is being replaced or removed: stop its restarts and close it. */
  retire(entry: McpPoolEntry): Promise<void> {
    entry.removed = true;
    return this.disconnect(entry);
  }

  async disconnect(entry: McpPoolEntry): Promise<void> {
    entry.wake?.();
    const pending = entry.connecting;
    const connection = entry.connection;
    Object.assign(entry, { connection: undefined, tools: [] });
    if (entry.status === 'connected') entry.status = 'disconnected';
    await connection?.close();
    if (pending !== undefined)
      await pending.then(
        (late) => late.close(),
        () => undefined,
      );
  }
}
