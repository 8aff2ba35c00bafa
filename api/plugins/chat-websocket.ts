import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { NeuroLinkWebSocketServer, type ChatIdentity, type WebSocketOptions } from '../../src/adapters/websocket/neurolink-websocket-server.js';
import { apiKeyPrefix } from '../../src/auth/api-key.js';
import type { AuthService } from '../../src/auth/auth-service.js';

/** Where the service accepts chat WebSocket upgrades. */
export const chatWebSocketPath = '/api/chat/ws';

declare module 'fastify' {
  interface FastifyInstance {
    /** The WebSocket chat mounted at /api/chat/ws (rooms, broadcast, streaming channels). */
    readonly chat: NeuroLinkWebSocketServer;
  }
}

/**
 * The credential of an upgrade request, read as the HTTP routes read theirs: `Authorization:
 * Bearer <JWT or DE_ key>`, `x-api-key`, or — for browsers, which cannot set headers on a
 * WebSocket — the subprotocols `switchyard, <credential>`.
 */
function credentialsOf(request: IncomingMessage): { bearerToken?: string; apiKey?: string } {
  const header = request.headers['authorization'];
  const bearer = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim())?.[1]?.trim() : undefined;
  const protocols = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((value) => value.trim());
  const fromProtocol = protocols[0] === 'switchyard' ? protocols[1] : undefined;
  const token = bearer ?? fromProtocol;
  const apiKeyHeader = request.headers['x-api-key'];
  if (token !== undefined) return token.startsWith(apiKeyPrefix) ? { apiKey: token } : { bearerToken: token };
  return typeof apiKeyHeader === 'string' && apiKeyHeader !== '' ? { apiKey: apiKeyHeader } : {};
}

/**
 * Mounts the WebSocket chat on the app's own HTTP server at `/api/chat/ws`, authenticated at the
 * upgrade with the same credentials and checks as every protected route (a refused upgrade is a
 * 401 and never becomes a connection). It is not a fastify route, so the guard matrix cannot see it;
 * its auth is covered by test/contract/chat-websocket.test.ts.
 */
export function registerChatWebSocket(
  app: FastifyInstance,
  deps: {
    readonly auth: AuthService;
    readonly toolkit: WebSocketOptions['toolkit'];
    readonly options?: Omit<WebSocketOptions, 'server' | 'noServer' | 'path' | 'authenticate' | 'toolkit'>;
  },
): NeuroLinkWebSocketServer {
  const chat = new NeuroLinkWebSocketServer({
    ...deps.options,
    server: app.server,
    path: chatWebSocketPath,
    ...(deps.toolkit !== undefined ? { toolkit: deps.toolkit } : {}),
    authenticate: async (request): Promise<ChatIdentity | undefined> => {
      const credentials = credentialsOf(request);
      if (credentials.bearerToken === undefined && credentials.apiKey === undefined) return undefined;
      const userAgent = request.headers['user-agent'];
      // The upgrade is not a fastify request: the peer is the socket's (TRUST_PROXY does not apply here).
      const origin = {
        sourceAddress: request.socket.remoteAddress ?? 'unknown',
        route: chatWebSocketPath,
        userAgent: typeof userAgent === 'string' ? userAgent : undefined,
      };
      const result = await deps.auth.authenticate({ ...credentials, origin });
      if (result.kind !== 'ok') return undefined;
      const context = result.context;
      if (context.via === 'bearer')
        return context.claims.merchantId === '' ? undefined : { merchantId: context.claims.merchantId, userId: context.claims.userId };
      return { merchantId: context.merchantId };
    },
  });
  app.addHook('onClose', async () => chat.close());
  return chat;
}
