import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { NeuroLinkWebSocketServer, type ChatIdentity, type WebSocketOptions } from '../../src/adapters/websocket/neurolink-websocket-server.js';
import { apiKeyPrefix } from '../../src/auth/api-key.js';
import type { AuthService } from '../../src/auth/auth-service.js';
import type { AttemptOrigin } from '../../src/auth/auth-attempt.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { StreamOptions } from '../../src/generation/generate-options.js';
import type { KeyAdmission } from '../../src/governance/admit-key-request.js';
import type { Logger } from '../../src/logging/logger.js';

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

/** What chat turns are admitted by: the HTTP routes' own key admission, and the price of a turn. */
export interface ChatTurnLimits {
  readonly admission: KeyAdmission;
  /** The most a turn can cost (its whole input and max tokens), reserved against the key's budget. */
  readonly reserveUsd: (options: StreamOptions) => Promise<number>;
  readonly log: Logger;
}

/**
 * The turn admission of a connection made with an API key: each turn is a request, as over HTTP.
 * The key is checked again (a key revoked, or whose limits changed, since the upgrade counts from
 * the next turn), then admitted against its limits with the turn's whole input priced.
 */
function apiKeyTurns(auth: AuthService, limits: ChatTurnLimits | undefined, apiKey: string, origin: AttemptOrigin): ChatIdentity['admitTurn'] {
  return async ({ turnId, options }) => {
    const again = await auth.authenticate({ apiKey, origin });
    if (again.kind !== 'ok' || again.context.via !== 'api_key')
      throw new SwitchyardError(again.kind === 'revoked_api_key' ? 'SY_AUTH_REVOKED_API_KEY' : 'SY_AUTH_INVALID_API_KEY');
    if (limits === undefined) return undefined;
    const { keyId, merchantId, policy } = again.context;
    return limits.admission.admit({ keyId, merchantId, policy }, { kind: 'llm', reserveUsd: () => limits.reserveUsd(options) }, turnId, limits.log);
  };
}

/**
 * The turn check of a connection made with a session token: sessions are not limited (as over HTTP),
 * but a token logged out or expired since the upgrade no longer answers from the next turn.
 */
function sessionTurns(auth: AuthService, bearerToken: string): ChatIdentity['admitTurn'] {
  return async () => {
    const again = await auth.authenticate({ bearerToken });
    if (again.kind !== 'ok') throw new SwitchyardError('SY_AUTH_INVALID_TOKEN');
    return undefined;
  };
}

/**
 * Mounts the WebSocket chat on the app's own HTTP server at `/api/chat/ws`, authenticated at the
 * upgrade with the same credentials and checks as every protected route (a refused upgrade is a
 * 401 and never becomes a connection). It is not a fastify route, so the guard matrix cannot see it;
 * its auth is covered by test/contract/chat-websocket.test.ts. Each chat turn of an API-key
 * connection goes through the key's limits like an HTTP request (test/contract/chat-websocket-limits.test.ts);
 * session (JWT) connections are not limited, as over HTTP.
 */
export function registerChatWebSocket(
  app: FastifyInstance,
  deps: {
    readonly auth: AuthService;
    readonly toolkit: WebSocketOptions['toolkit'];
    readonly options?: Omit<WebSocketOptions, 'server' | 'noServer' | 'path' | 'authenticate' | 'toolkit'>;
    /** Per-key limits of chat turns (those of the HTTP routes); none when absent. */
    readonly limits?: ChatTurnLimits;
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
        return context.claims.merchantId === ''
          ? undefined
          : { merchantId: context.claims.merchantId, userId: context.claims.userId, admitTurn: sessionTurns(deps.auth, credentials.bearerToken!) };
      return { merchantId: context.merchantId, apiKeyId: context.keyId, admitTurn: apiKeyTurns(deps.auth, deps.limits, credentials.apiKey!, origin) };
    },
  });
  app.addHook('onClose', async () => chat.close());
  return chat;
}
