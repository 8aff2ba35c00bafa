/**
 * The WebSocket chat protocol (NeuroLink's `WebSocketMessage`): every frame is one JSON message
 * `{id, type, connectionId, roomId?, timestamp, data, metadata?}`. Pure: parsing and building only.
 */

export type ChatMessageType = 'chat' | 'chat-message' | 'ai-response' | 'tool-result' | 'system' | 'heartbeat' | 'error';

export interface ChatMessage {
  readonly id: string;
  readonly type: ChatMessageType;
  readonly connectionId: string;
  readonly roomId?: string;
  readonly timestamp: number;
  readonly data: Readonly<Record<string, unknown>>;
  readonly metadata?: { readonly provider?: string; readonly model?: string; readonly tokens?: number; readonly latency?: number };
}

/** What a client sends: a chat prompt, a heartbeat, or anything else (passed on as `message`). */
export type IncomingFrame =
  | {
      readonly kind: 'chat';
      readonly prompt: string;
      readonly roomId?: string;
      readonly provider?: string;
      readonly model?: string;
      /** `data.disableTools`: tools are on unless the client turns them off (as on /api/generate). */
      readonly disableTools?: boolean;
      /** `data.confirmedTools`: the tools flagged `requiresConfirmation` the user granted for this message. */
      readonly confirmedTools?: readonly string[];
      /** `data.sessionId`: the conversation memory session of this turn (default: the connection's own). */
      readonly sessionId?: string;
      readonly raw: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'heartbeat' }
  | { readonly kind: 'other'; readonly type: string; readonly raw: Readonly<Record<string, unknown>> }
  | { readonly kind: 'invalid'; readonly reason: string };

const maxPromptLength = 1_000_000;
const maxSessionIdLength = 256;

function stringField(record: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Reads one text frame. Both documented chat forms are accepted: `{type:"chat", data:{message}}`
 * (the server's) and `{type:"chat-message", data:{prompt}}` (the docs' browser client).
 */
export function parseIncomingFrame(text: string): IncomingFrame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'Invalid message format' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { kind: 'invalid', reason: 'Invalid message format' };
  const message = parsed as Readonly<Record<string, unknown>>;
  const type = message['type'];
  if (typeof type !== 'string') return { kind: 'invalid', reason: 'Invalid message format: type is required' };
  if (type === 'heartbeat') return { kind: 'heartbeat' };
  if (type !== 'chat' && type !== 'chat-message') return { kind: 'other', type, raw: message };
  const data = typeof message['data'] === 'object' && message['data'] !== null ? (message['data'] as Readonly<Record<string, unknown>>) : {};
  const prompt = stringField(data, 'prompt') ?? stringField(data, 'message') ?? stringField(data, 'text');
  if (prompt === undefined) return { kind: 'invalid', reason: 'Invalid message format: data.prompt is required' };
  if (prompt.length > maxPromptLength) return { kind: 'invalid', reason: 'Invalid message format: data.prompt is too long' };
  const roomId = stringField(message, 'roomId') ?? stringField(data, 'roomId');
  const provider = stringField(data, 'provider');
  const model = stringField(data, 'model');
  const disableTools = data['disableTools'];
  if (disableTools !== undefined && typeof disableTools !== 'boolean')
    return { kind: 'invalid', reason: 'Invalid message format: data.disableTools must be a boolean' };
  const confirmedTools = data['confirmedTools'];
  if (confirmedTools !== undefined && (!Array.isArray(confirmedTools) || !confirmedTools.every((name) => typeof name === 'string')))
    return { kind: 'invalid', reason: 'Invalid message format: data.confirmedTools must be an array of tool names' };
  const sessionId = data['sessionId'];
  if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > maxSessionIdLength))
    return { kind: 'invalid', reason: `Invalid message format: data.sessionId must be a non-empty string of at most ${maxSessionIdLength} characters` };
  return {
    kind: 'chat',
    prompt,
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(roomId !== undefined ? { roomId } : {}),
    ...(provider !== undefined ? { provider } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(disableTools !== undefined ? { disableTools } : {}),
    ...(confirmedTools !== undefined ? { confirmedTools: confirmedTools as string[] } : {}),
    raw: message,
  };
}

export function chatMessage(
  type: ChatMessageType,
  connectionId: string,
  data: Readonly<Record<string, unknown>>,
  extra: { readonly roomId?: string; readonly metadata?: ChatMessage['metadata']; readonly now?: number } = {},
): ChatMessage {
  return {
    id: crypto.randomUUID(),
    type,
    connectionId,
    ...(extra.roomId !== undefined ? { roomId: extra.roomId } : {}),
    timestamp: extra.now ?? Date.now(),
    data,
    ...(extra.metadata !== undefined ? { metadata: extra.metadata } : {}),
  };
}
