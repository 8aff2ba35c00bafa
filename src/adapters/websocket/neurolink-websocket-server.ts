import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { chatMessage, parseIncomingFrame, type ChatMessage } from '../../generation/chat/chat-protocol.js';
import { ChatRooms } from '../../generation/chat/chat-rooms.js';
import type { StreamOptions } from '../../generation/generate-options.js';
import type { StreamResult } from '../../generation/generate-result.js';

/** An admitted chat turn's hold on its key's limits, released once the turn has ended (idempotent). */
export interface ChatTurnLease {
  release(): void;
}

/** Who a connection is, as the upgrade's `authenticate` established it. */
export interface ChatIdentity {
  readonly merchantId?: string;
  readonly userId?: string;
  /** The API key the connection came with: its calls are recorded (and their spend counted) against it. */
  readonly apiKeyId?: string;
  /**
   * Admits one chat turn before any provider call, as the HTTP routes admit a request (per-key
   * rpm, tpm, concurrency and budget), or throws the refusal (`SY_KEY_LIMIT_EXCEEDED`, or an auth
   * error when the credential no longer holds); undefined when nothing limits the turn.
   */
  readonly admitTurn?: (turn: { readonly turnId: string; readonly options: StreamOptions }) => Promise<ChatTurnLease | undefined>;
}

export interface WebSocketOptions {
  /** Listen on this port (default 8080) unless `server` or `noServer` is given. */
  readonly port?: number;
  readonly host?: string;
  /** Attach to an existing HTTP server: upgrades on `path` are handled, others left alone. */
  readonly server?: Server;
  /** Only `handleUpgrade` is used (the caller owns the HTTP server). */
  readonly noServer?: boolean;
  /** Upgrade path when attached to a server (default `/`). */
  readonly path?: string;
  /** Default 1000; one more is closed with 1013 "Server at capacity". */
  readonly maxConnections?: number;
  /** Ping period in ms (default 30000); a peer that missed the previous pong is terminated. */
  readonly heartbeatInterval?: number;
  /** permessage-deflate (default true). */
  readonly enableCompression?: boolean;
  /** Streaming channel buffer in bytes (default 8192): chunks are sent once 80% of it is filled. */
  readonly bufferSize?: number;
  /** Largest accepted frame in bytes (default 1 MiB); a larger one closes the connection with 1009. */
  readonly maxPayloadBytes?: number;
  /** Malformed frames tolerated per connection before it is closed with 1008 (default 5). */
  readonly maxInvalidFrames?: number;
  /** Checked at the upgrade; undefined refuses it with 401 before any WebSocket exists. */
  readonly authenticate?: (request: IncomingMessage) => Promise<ChatIdentity | undefined>;
  /** Answers chat messages with a streamed AI response (`ai-response` messages). */
  readonly toolkit?: { stream(options: StreamOptions): Promise<StreamResult> };
}

interface ConnectionInfo {
  readonly id: string;
  readonly socket: WebSocket;
  readonly identity: ChatIdentity;
  readonly userAgent: string | undefined;
  readonly ipAddress: string | undefined;
  readonly connectedAt: number;
  lastActivity: number;
  alive: boolean;
  invalidFrames: number;
}

/** A per-connection stream of `ai-response` data, buffered up to 80% of `bufferSize` between sends. */
export interface StreamingChannel {
  readonly id: string;
  readonly connectionId: string;
  status: 'open' | 'closed' | 'error';
  send(content: string): void;
  complete(data?: Readonly<Record<string, unknown>>): void;
  error(message: string): void;
  getChunkCount(): number;
}

/** The `error` data of a failed turn: its message, and its code (and limit details) when it has one. */
function turnError(error: unknown): Record<string, unknown> {
  const message = error instanceof Error ? error.message : String(error);
  const coded = error as { code?: unknown; details?: Readonly<Record<string, unknown>> } | null;
  if (typeof coded?.code !== 'string') return { error: message };
  const { limit, retryAfterS } = coded.details ?? {};
  return { error: message, code: coded.code, ...(limit !== undefined ? { limit } : {}), ...(retryAfterS !== undefined ? { retryAfterS } : {}) };
}

/**
 * NeuroLink's WebSocket chat server on `ws`: rooms, streaming channels, heartbeats that drop dead
 * peers, a connection limit, authentication at the upgrade, and AI answers streamed from the toolkit.
 * Events: `connection` {connectionId, identity, userAgent, ipAddress}, `chat-message`
 * {connectionId, message}, `message` (other types), `disconnection` {connectionId, code, reason}.
 */
export class NeuroLinkWebSocketServer extends EventEmitter {
  private readonly wss: WebSocketServer;
  private readonly connections = new Map<string, ConnectionInfo>();
  private readonly rooms = new ChatRooms();
  private readonly channels = new Map<string, StreamingChannel>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly settings: Required<Pick<WebSocketOptions, 'maxConnections' | 'heartbeatInterval' | 'bufferSize' | 'maxInvalidFrames'>>;
  private readonly upgradeListener: ((request: IncomingMessage, socket: Duplex, head: Buffer) => void) | undefined = undefined;
  private readonly ownServer: Server | undefined = undefined;

  constructor(private readonly options: WebSocketOptions = {}) {
    super();
    this.settings = {
      maxConnections: options.maxConnections ?? 1000,
      heartbeatInterval: options.heartbeatInterval ?? 30_000,
      bufferSize: options.bufferSize ?? 8192,
      maxInvalidFrames: options.maxInvalidFrames ?? 5,
    };
    const common = {
      maxPayload: options.maxPayloadBytes ?? 1024 * 1024,
      perMessageDeflate: options.enableCompression ?? true,
      handleProtocols: (protocols: Set<string>) => (protocols.has('switchyard') ? 'switchyard' : false),
    } as const;
    this.wss = new WebSocketServer({ ...common, noServer: true });
    if (options.server !== undefined) {
      const path = options.path ?? '/';
      this.upgradeListener = (request, socket, head) => {
        if (new URL(request.url ?? '/', 'http://x').pathname !== path) return;
        void this.handleUpgrade(request, socket, head);
      };
      options.server.on('upgrade', this.upgradeListener);
    } else if (options.noServer !== true) {
      // A plain HTTP server of our own, so upgrades are authenticated exactly as when attached.
      this.ownServer = createServer((_request, response) => response.writeHead(426, { 'content-type': 'text/plain' }).end('Upgrade to WebSocket required'));
      this.ownServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => void this.handleUpgrade(request, socket, head));
      this.ownServer.listen(options.port ?? 8080, options.host ?? '127.0.0.1');
    }
    this.heartbeat = setInterval(() => this.beat(), this.settings.heartbeatInterval);
    this.heartbeat.unref();
  }

  /** Resolves once the standalone server listens (immediately otherwise). */
  async ready(): Promise<void> {
    if (this.ownServer !== undefined && !this.ownServer.listening) await new Promise<void>((resolve) => this.ownServer!.once('listening', () => resolve()));
  }

  /** The address of the server this instance listens on itself (standalone mode). */
  address(): { port: number } | undefined {
    const address = this.ownServer?.address();
    return typeof address === 'object' && address !== null ? { port: address.port } : undefined;
  }

  /** Authenticates and upgrades one HTTP request (401 without a connection when refused). */
  async handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    let identity: ChatIdentity | undefined = {};
    try {
      identity = this.options.authenticate === undefined ? {} : await this.options.authenticate(request);
    } catch {
      identity = undefined;
    }
    if (identity === undefined) {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: text/plain\r\nconnection: close\r\ncontent-length: 33\r\n\r\nMissing or invalid credentials.\r\n');
      return;
    }
    const who = identity;
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws, request, who));
  }

  private accept(socket: WebSocket, request: IncomingMessage, identity: ChatIdentity): void {
    if (this.connections.size >= this.settings.maxConnections) {
      socket.close(1013, 'Server at capacity');
      return;
    }
    const connection: ConnectionInfo = {
      id: crypto.randomUUID(),
      socket,
      identity,
      userAgent: request.headers['user-agent'],
      ipAddress: request.socket.remoteAddress,
      connectedAt: Date.now(),
      lastActivity: Date.now(),
      alive: true,
      invalidFrames: 0,
    };
    this.connections.set(connection.id, connection);
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('message', (data, isBinary) => this.receive(connection, isBinary ? undefined : data.toString()));
    socket.on('close', (code, reason) => {
      this.connections.delete(connection.id);
      this.rooms.leaveAll(connection.id);
      for (const [id, channel] of this.channels) if (channel.connectionId === connection.id) this.channels.delete(id);
      this.emit('disconnection', { connectionId: connection.id, code, reason: reason.toString() });
    });
    socket.on('error', () => undefined); // a broken peer ends in 'close'
    this.send(
      connection,
      chatMessage('system', connection.id, {
        event: 'connected',
        connectionId: connection.id,
        serverInfo: { version: '3.0.1', features: ['streaming', 'rooms', 'tools'] },
      }),
    );
    this.emit('connection', { connectionId: connection.id, identity, userAgent: connection.userAgent, ipAddress: connection.ipAddress });
  }

  private receive(connection: ConnectionInfo, text: string | undefined): void {
    connection.lastActivity = Date.now();
    const frame =
      text === undefined ? ({ kind: 'invalid', reason: 'Invalid message format: binary frames are not accepted' } as const) : parseIncomingFrame(text);
    switch (frame.kind) {
      case 'invalid':
        connection.invalidFrames += 1;
        this.send(connection, chatMessage('error', connection.id, { error: frame.reason }));
        if (connection.invalidFrames >= this.settings.maxInvalidFrames) connection.socket.close(1008, 'Too many malformed messages');
        return;
      case 'heartbeat':
        this.send(connection, chatMessage('heartbeat', connection.id, { pong: true }));
        return;
      case 'other':
        this.emit('message', { connectionId: connection.id, message: frame.raw });
        return;
      case 'chat':
        this.emit('chat-message', { connectionId: connection.id, message: frame.raw, prompt: frame.prompt, identity: connection.identity });
        if (this.options.toolkit !== undefined) void this.answer(connection, frame);
        return;
    }
  }

  /** Streams the toolkit's answer as `ai-response` messages (to the room when the chat names one the sender is in). */
  private async answer(connection: ConnectionInfo, frame: Extract<ReturnType<typeof parseIncomingFrame>, { kind: 'chat' }>): Promise<void> {
    const toolkit = this.options.toolkit!;
    const roomId = frame.roomId !== undefined && this.rooms.isMember(frame.roomId, connection.id) ? frame.roomId : undefined;
    const deliver = (message: ChatMessage) => (roomId !== undefined ? this.broadcastToRoom(roomId, message) : this.send(connection, message));
    const messageId = crypto.randomUUID();
    const controller = new AbortController();
    const onClose = () => controller.abort(new Error('the chat connection closed'));
    connection.socket.once('close', onClose);
    const options = this.turnOptions(connection, frame, messageId, controller.signal);
    let lease: ChatTurnLease | undefined;
    try {
      // Admitted (or refused) before any provider call; a refusal is this turn's `error`, the connection stays.
      lease = await connection.identity.admitTurn?.({ turnId: messageId, options });
      const streamed = await toolkit.stream(options);
      const channel = this.createStreamingChannel(connection.id, messageId, deliver, roomId);
      for await (const chunk of streamed.stream) channel.send(chunk.content);
      const final = await streamed.final;
      channel.complete({ usage: final.usage, provider: final.provider, model: final.model, finishReason: final.finishReason });
    } catch (error) {
      if (!controller.signal.aborted) deliver(chatMessage('error', connection.id, { ...turnError(error), messageId }, roomId !== undefined ? { roomId } : {}));
    } finally {
      lease?.release();
      connection.socket.off('close', onClose);
      this.channels.delete(messageId);
    }
  }

  /** The toolkit call of one chat turn: who it is for (merchant, user or API key) and its memory session. */
  private turnOptions(
    connection: ConnectionInfo,
    frame: Extract<ReturnType<typeof parseIncomingFrame>, { kind: 'chat' }>,
    messageId: string,
    abortSignal: AbortSignal,
  ): StreamOptions {
    const { identity } = connection;
    return {
      input: { text: frame.prompt },
      ...(frame.provider !== undefined ? { provider: frame.provider } : {}),
      ...(frame.model !== undefined ? { model: frame.model } : {}),
      // Tools under the same rules as /api/generate: on unless the client turns them off, and a
      // tool flagged requiresConfirmation runs only when named in data.confirmedTools.
      ...(frame.disableTools !== undefined ? { disableTools: frame.disableTools } : {}),
      ...(frame.confirmedTools !== undefined ? { confirmedTools: frame.confirmedTools } : {}),
      // Conversation memory: the connection is the session unless the client names one (scoped by merchant).
      context: { sessionId: frame.sessionId ?? `ws:${connection.id}` },
      abortSignal,
      attribution: {
        ...(identity.merchantId !== undefined ? { merchantId: identity.merchantId } : {}),
        ...(identity.userId !== undefined ? { userId: identity.userId } : {}),
        ...(identity.apiKeyId !== undefined ? { apiKeyId: identity.apiKeyId } : {}),
        requestId: messageId,
        surface: 'websocket',
      },
    };
  }

  /**
   * A streaming channel of `ai-response` messages: `send` buffers content and flushes once 80% of
   * `bufferSize` is held (and always on `complete`), so small chunks do not each cost a frame.
   */
  createStreamingChannel(connectionId: string, channelId: string, deliver?: (message: ChatMessage) => void, roomId?: string): StreamingChannel {
    const connection = this.connections.get(connectionId);
    const out = deliver ?? ((message: ChatMessage) => void (connection !== undefined && this.send(connection, message)));
    const threshold = Math.max(1, Math.floor(this.settings.bufferSize * 0.8));
    let buffer = '';
    let whole = '';
    let chunks = 0;
    const extra = roomId !== undefined ? { roomId } : {};
    const flush = () => {
      if (buffer === '') return;
      chunks += 1;
      whole += buffer;
      // The interface's `data: {text}`; event, channelId and content are additive.
      out(chatMessage('ai-response', connectionId, { text: buffer, event: 'chunk', channelId, content: buffer }, extra));
      buffer = '';
    };
    const channel: StreamingChannel = {
      id: channelId,
      connectionId,
      status: 'open',
      send(content) {
        if (channel.status !== 'open') return;
        buffer += content;
        if (Buffer.byteLength(buffer) >= threshold) flush();
      },
      complete(data = {}) {
        if (channel.status !== 'open') return;
        flush();
        channel.status = 'closed';
        out(chatMessage('ai-response', connectionId, { text: whole, event: 'complete', channelId, chunks, ...data }, extra));
      },
      error(message) {
        if (channel.status !== 'open') return;
        channel.status = 'error';
        out(chatMessage('error', connectionId, { channelId, error: message }, extra));
      },
      getChunkCount: () => chunks,
    };
    this.channels.set(channelId, channel);
    return channel;
  }

  joinRoom(connectionId: string, roomId: string): boolean {
    const connection = this.connections.get(connectionId);
    if (connection === undefined) return false;
    const memberCount = this.rooms.join(roomId, connectionId);
    this.send(connection, chatMessage('system', connectionId, { event: 'room_joined', roomId, memberCount }, { roomId }));
    return true;
  }

  leaveRoom(connectionId: string, roomId: string): boolean {
    const left = this.rooms.leave(roomId, connectionId);
    const connection = this.connections.get(connectionId);
    if (left && connection !== undefined) this.send(connection, chatMessage('system', connectionId, { event: 'room_left', roomId }, { roomId }));
    return left;
  }

  /** Sends to every member of the room; returns how many received it. */
  broadcastToRoom(roomId: string, message: ChatMessage | Readonly<Record<string, unknown>>): number {
    let sent = 0;
    for (const memberId of this.rooms.membersOf(roomId)) {
      const member = this.connections.get(memberId);
      if (member !== undefined && this.send(member, message)) sent += 1;
    }
    return sent;
  }

  sendMessage(connectionId: string, message: ChatMessage | Readonly<Record<string, unknown>>): boolean {
    const connection = this.connections.get(connectionId);
    return connection === undefined ? false : this.send(connection, message);
  }

  getConnectionCount(): number {
    return this.connections.size;
  }

  getRoomCount(): number {
    return this.rooms.size;
  }

  getActiveChannels(): readonly StreamingChannel[] {
    return [...this.channels.values()];
  }

  /** Closes every connection (1001) and stops the heartbeat and, in standalone mode, the server. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    if (this.upgradeListener !== undefined) this.options.server?.off('upgrade', this.upgradeListener);
    for (const connection of this.connections.values()) connection.socket.close(1001, 'Server shutting down');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    if (this.ownServer !== undefined) await new Promise<void>((resolve) => this.ownServer!.close(() => resolve()));
  }

  private send(connection: ConnectionInfo, message: ChatMessage | Readonly<Record<string, unknown>>): boolean {
    if (connection.socket.readyState !== WebSocket.OPEN) return false;
    connection.socket.send(JSON.stringify(message));
    return true;
  }

  /** Terminates peers that did not answer the previous ping, then pings the rest. */
  private beat(): void {
    for (const connection of this.connections.values()) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }
}
