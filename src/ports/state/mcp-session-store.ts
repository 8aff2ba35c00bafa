/**
 * One session of the MCP gateway (`/mcp`, issue 39): who opened it and the `initialize` handshake
 * it opened with, so that any replica can take the session over (it replays the handshake into a
 * fresh transport) after the replica that opened it restarted or a load balancer moved the client.
 */
export interface McpSessionRecord {
  readonly merchantId: string;
  /** Who opened it: `key:<keyId>` or `user:<userId>`; a request under another credential is answered as for an unknown session. */
  readonly principal: string;
  /** The `params` of the client's `initialize` request (protocolVersion, capabilities, clientInfo), as it sent them. */
  readonly initialize: Readonly<Record<string, unknown>>;
  /** Epoch ms of the `initialize`. */
  readonly createdAt: number;
}

/**
 * The MCP gateway's sessions by `mcp-session-id`, shared by every replica, each expiring after
 * `ttlS` seconds without a refresh.
 *
 * @remarks Only the handshake is kept, not the stream state: a request in flight on a replica that
 * dies is lost (the client retries it), and a standalone SSE stream reconnects with a GET. The
 * embedded adapter keeps records in process memory, so they survive nothing but are shared by the
 * apps of one process.
 */
export interface McpSessionStore {
  get(sessionId: string): Promise<McpSessionRecord | undefined>;
  /** Stores (or replaces) the record; each call restarts its `ttlS`. */
  set(sessionId: string, record: McpSessionRecord, ttlS: number): Promise<void>;
  /** Ends the session (client's DELETE); true when it existed. */
  delete(sessionId: string): Promise<boolean>;
}
