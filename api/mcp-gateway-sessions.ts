import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../src/logging/logger.js';
import type { McpSessionRecord, McpSessionStore } from '../src/ports/state-store.js';
import type { GatewayCaller, GatewayTool, McpGateway } from '../src/toolkit/mcp-gateway.js';

/** Who sends one HTTP request to `/mcp`, as the guard authenticated it (every request, not once per session). */
export interface GatewayRequestCaller extends GatewayCaller {
  /** `key:<keyId>` or `user:<userId>`: a session answers only the credential that opened it. */
  readonly principal: string;
  readonly requestId: string;
}

export interface McpGatewaySessionsDeps {
  readonly gateway: McpGateway;
  readonly store: McpSessionStore;
  readonly logger: Logger;
  readonly now: () => number;
  /** The server's version in `initialize`'s serverInfo. */
  readonly version: string;
  /** How long a session lives without a request, in seconds (default 24 h). */
  readonly sessionTtlS?: number;
  /** How long this replica keeps an idle session's transport, in ms (default 10 min); the stored session outlives it. */
  readonly localIdleMs?: number;
  /** Tells the other replicas a session was ended here (they close their transports of it, SSE streams included). */
  readonly publishEnded?: (sessionId: string) => Promise<void>;
}

interface LiveSession {
  readonly id: string;
  readonly record: McpSessionRecord;
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  lastUsedMs: number;
  refreshedMs: number;
}

/** 24 h: a working day of an editor left open; the client re-initialises after that. */
const defaultSessionTtlS = 86_400;
/** 10 min: a transport (and its SSE stream) is cheap to re-create from the stored handshake. */
const defaultLocalIdleMs = 600_000;
/** 60 s: the stored session's TTL is pushed back at most once a minute per replica (one Redis write). */
const refreshEveryMs = 60_000;

const restoreUrl = 'http://switchyard.internal/mcp';
const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The JSON-RPC error answer of an HTTP request (the shape the SDK's own transport uses). */
export function jsonRpcErrorResponse(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function callerOf(authInfo: AuthInfo | undefined): GatewayCaller {
  const extra = authInfo?.extra as { caller?: GatewayCaller } | undefined;
  if (extra?.caller === undefined) throw new McpError(ErrorCode.InternalError, 'request reached the MCP gateway without a caller');
  return extra.caller;
}

function authInfoOf(caller: GatewayRequestCaller): AuthInfo {
  const gatewayCaller: GatewayCaller = {
    merchantId: caller.merchantId,
    requestId: caller.requestId,
    ...(caller.allowedTools !== undefined ? { allowedTools: caller.allowedTools } : {}),
    ...(caller.apiKeyId !== undefined ? { apiKeyId: caller.apiKeyId } : {}),
  };
  // The token itself never goes into the MCP layer: it was checked by the guard.
  return { token: '', clientId: caller.principal, scopes: [], extra: { caller: gatewayCaller } };
}

function toolListing(tool: GatewayTool) {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as { type: 'object'; [key: string]: unknown },
    annotations: { destructiveHint: tool.destructive },
  };
}

/**
 * The MCP gateway's sessions on one replica: one SDK `Server` and streamable HTTP transport per
 * session, over the domain's McpGateway. A session is stored (McpSessionStore) when it is
 * initialised, so a replica that never saw it (another one, or this one after a restart) takes it
 * over: it builds a fresh transport and replays the stored `initialize` handshake into it, then
 * serves the request. A session id that is unknown, expired, ended (DELETE) or another
 * credential's is answered 404 `Session not found`, on which clients start a new session.
 */
export class McpGatewaySessions {
  private readonly live = new Map<string, LiveSession>();
  private readonly restoring = new Map<string, Promise<LiveSession | undefined>>();
  private readonly ttlS: number;
  private readonly idleMs: number;
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(private readonly deps: McpGatewaySessionsDeps) {
    this.ttlS = deps.sessionTtlS ?? defaultSessionTtlS;
    this.idleMs = deps.localIdleMs ?? defaultLocalIdleMs;
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(1000, Math.floor(this.idleMs / 2)));
    this.sweeper.unref();
  }

  /** Answers one HTTP request of `/mcp` (POST, GET or DELETE); `body` is the parsed JSON-RPC body of a POST. */
  async handle(request: Request, caller: GatewayRequestCaller, body: unknown): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    const authInfo = authInfoOf(caller);
    const options = { authInfo, ...(body !== undefined ? { parsedBody: body } : {}) };
    if (sessionId === null) {
      if (request.method !== 'POST' || !isInitialize(body)) {
        return jsonRpcErrorResponse(400, ErrorCode.ConnectionClosed, 'Bad Request: Mcp-Session-Id header is required');
      }
      const record: McpSessionRecord = {
        merchantId: caller.merchantId,
        principal: caller.principal,
        initialize: initializeParams(body),
        createdAt: this.deps.now(),
      };
      const session = await this.open(randomUUID(), record);
      return session.transport.handleRequest(request, options);
    }
    const session = await this.sessionFor(sessionId, caller);
    if (session === undefined) return jsonRpcErrorResponse(404, ErrorCode.RequestTimeout, 'Session not found');
    session.lastUsedMs = this.deps.now();
    this.refresh(session);
    return session.transport.handleRequest(request, options);
  }

  /** Closes this replica's transport of a session ended on another replica. */
  forget(sessionId: string): void {
    const session = this.live.get(sessionId);
    if (session === undefined) return;
    this.live.delete(sessionId);
    session.server.close().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'mcp gateway could not close an ended session'));
  }

  /** Tells every session of the merchant on this replica that its tool list changed. */
  notifyToolsChanged(merchantId: string): void {
    for (const session of this.live.values()) {
      if (session.record.merchantId !== merchantId) continue;
      session.server.sendToolListChanged().catch((error: unknown) => {
        this.deps.logger.warn({ err: error, merchantId }, 'mcp gateway could not send tools/list_changed');
      });
    }
  }

  /** How many sessions this replica holds a transport for. */
  get size(): number {
    return this.live.size;
  }

  /** Closes every transport of this replica (the stored sessions stay for the other replicas). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.live.values()];
    this.live.clear();
    await Promise.all(all.map((session) => session.server.close().catch(() => undefined)));
  }

  private async sessionFor(sessionId: string, caller: GatewayRequestCaller): Promise<LiveSession | undefined> {
    const held = this.live.get(sessionId);
    // The store decides whether a session lives: one ended (DELETE) or expired while this replica
    // held its transport is refused here too, on the very next request (one read per request).
    if (held !== undefined && (await this.deps.store.get(sessionId)) === undefined) {
      this.forget(sessionId);
      return undefined;
    }
    const session = held ?? (await this.restore(sessionId, caller));
    // Another credential's session is answered as an unknown one: its id tells nothing.
    if (session === undefined || session.record.merchantId !== caller.merchantId || session.record.principal !== caller.principal) return undefined;
    return session;
  }

  /** Takes over a stored session: a fresh transport, the stored handshake replayed into it (once per replica at a time). */
  private restore(sessionId: string, caller: GatewayRequestCaller): Promise<LiveSession | undefined> {
    const pending = this.restoring.get(sessionId);
    if (pending !== undefined) return pending;
    const restored = this.replay(sessionId, caller).finally(() => this.restoring.delete(sessionId));
    this.restoring.set(sessionId, restored);
    return restored;
  }

  private async replay(sessionId: string, caller: GatewayRequestCaller): Promise<LiveSession | undefined> {
    const record = await this.deps.store.get(sessionId);
    // Another credential's session is not even taken over: nothing is built for a request that is refused.
    if (record === undefined || record.merchantId !== caller.merchantId || record.principal !== caller.principal) return undefined;
    const session = await this.open(sessionId, record);
    const authInfo: AuthInfo = { token: '', clientId: record.principal, scopes: [], extra: { caller: { merchantId: record.merchantId } } };
    const initialize = { jsonrpc: '2.0', id: `switchyard-restore-${sessionId}`, method: 'initialize', params: record.initialize };
    const answer = await session.transport.handleRequest(new Request(restoreUrl, { method: 'POST', headers: jsonHeaders }), {
      parsedBody: initialize,
      authInfo,
    });
    await answer.text();
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const acknowledged = await session.transport.handleRequest(
      new Request(restoreUrl, { method: 'POST', headers: { ...jsonHeaders, 'mcp-session-id': sessionId } }),
      { parsedBody: initialized, authInfo },
    );
    if (!answer.ok || !acknowledged.ok) {
      this.deps.logger.warn({ status: answer.status }, 'mcp gateway could not take over a stored session');
      this.live.delete(sessionId);
      await session.server.close().catch(() => undefined);
      return undefined;
    }
    this.deps.logger.info({ merchantId: record.merchantId }, 'mcp gateway session taken over from the store');
    return session;
  }

  /** A session's server and transport; stored (again) once its `initialize` is handled. */
  private async open(sessionId: string, record: McpSessionRecord): Promise<LiveSession> {
    const server = new Server({ name: 'switchyard', version: this.deps.version }, { capabilities: { tools: { listChanged: true } } });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      onsessioninitialized: async () => {
        this.live.set(sessionId, session);
        await this.deps.store.set(sessionId, record, this.ttlS);
      },
      onsessionclosed: async () => {
        this.live.delete(sessionId);
        await this.deps.store.delete(sessionId);
        await this.deps.publishEnded?.(sessionId).catch((error: unknown) => {
          this.deps.logger.warn({ err: error }, 'mcp gateway could not tell the other replicas a session ended');
        });
      },
    });
    const now = this.deps.now();
    const session: LiveSession = { id: sessionId, record, server, transport, lastUsedMs: now, refreshedMs: now };
    transport.onclose = () => {
      if (this.live.get(sessionId) === session) this.live.delete(sessionId);
    };
    this.serveTools(server);
    await server.connect(transport);
    return session;
  }

  private serveTools(server: Server): void {
    const gateway = this.deps.gateway;
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
      tools: (await gateway.listTools(callerOf(extra.authInfo))).map(toolListing),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args = {} } = request.params;
      const outcome = await gateway.callTool(callerOf(extra.authInfo), name, args, extra.signal);
      // The same answer for a tool that does not exist, another merchant's, and one the key may not use.
      if (outcome.kind === 'unknown-tool') throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      const { content, structuredContent, isError } = outcome.result;
      return {
        content: content as { type: 'text'; text: string }[],
        ...(structuredContent !== undefined ? { structuredContent: { ...structuredContent } } : {}),
        ...(isError === true ? { isError: true } : {}),
      };
    });
  }

  /** Pushes the stored session's expiry back, at most once a minute per replica. */
  private refresh(session: LiveSession): void {
    const now = this.deps.now();
    if (now - session.refreshedMs < refreshEveryMs) return;
    session.refreshedMs = now;
    this.deps.store.set(session.id, session.record, this.ttlS).catch((error: unknown) => {
      this.deps.logger.warn({ err: error }, 'mcp gateway could not refresh a stored session');
    });
  }

  private closeIdle(): void {
    const cutoff = this.deps.now() - this.idleMs;
    for (const session of [...this.live.values()]) {
      if (session.lastUsedMs > cutoff) continue;
      this.live.delete(session.id);
      session.server.close().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'mcp gateway could not close an idle session'));
    }
  }
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}

function initializeParams(body: unknown): Readonly<Record<string, unknown>> {
  const message = (Array.isArray(body) ? body.find((entry) => isInitializeRequest(entry)) : body) as { params?: Record<string, unknown> };
  return message.params ?? {};
}
