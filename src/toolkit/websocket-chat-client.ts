import type { UsageData } from '../generation/generate-result.js';
import type { StreamOptions } from '../generation/generate-options.js';

/** Where a Switchyard service accepts chat WebSocket upgrades. */
const chatPath = '/api/chat/ws';

/** The service to chat with (the chat service's options). */
export interface WebSocketChatTarget {
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly provider?: string;
}

/** One chat request (the chat service's `streamChat` request). */
export interface WebSocketChatRequest {
  readonly prompt: string;
  readonly onChunk?: (content: string) => void;
  readonly options?: Omit<StreamOptions, 'input' | 'prompt'>;
  readonly signal?: AbortSignal;
}

interface ChatFrame {
  readonly type?: string;
  readonly data?: { event?: string; text?: string; error?: string; usage?: UsageData; provider?: string; model?: string };
}

/**
 * One chat over a service's WebSocket (`enableWebSocket: true`), with the platform's WebSocket:
 * the credential goes as the subprotocols `switchyard, <credential>` (what browsers send), the
 * prompt as `{type: "chat", data: {message, ...}}`, and the answer is read from `ai-response`
 * messages (`data.text` per chunk, then `complete`). The socket closes when the answer ends.
 */
export function viaWebSocket(
  options: WebSocketChatTarget,
  request: WebSocketChatRequest,
): Promise<{ content: string; usage?: UsageData; provider?: string; model?: string }> {
  const url = `${options.baseUrl!.replace(/\/+$/, '').replace(/^http/, 'ws')}${chatPath}`;
  const socket = new WebSocket(url, options.apiKey === undefined ? [] : ['switchyard', options.apiKey]);
  const { onChunk, prompt } = request;
  const chatOptions = request.options ?? {};
  const provider = chatOptions.provider ?? options.provider;
  return new Promise((resolve, reject) => {
    let content = '';
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      request.signal?.removeEventListener('abort', onAbort);
      socket.close();
      outcome();
    };
    const onAbort = () => finish(() => reject(request.signal?.reason ?? new Error('the chat was aborted')));
    request.signal?.addEventListener('abort', onAbort, { once: true });
    socket.addEventListener('error', () => finish(() => reject(new Error(`chat WebSocket refused or failed (${url}): check the baseUrl and the credential`))));
    socket.addEventListener('close', () => finish(() => reject(new Error('the chat WebSocket closed before the answer completed'))));
    socket.addEventListener('message', (event) => {
      const frame = JSON.parse(String(event.data)) as ChatFrame;
      const data = frame.data ?? {};
      if (frame.type === 'system' && data.event === 'connected') {
        socket.send(
          JSON.stringify({
            type: 'chat',
            data: {
              message: prompt,
              ...(provider !== undefined ? { provider } : {}),
              ...(chatOptions.model !== undefined ? { model: chatOptions.model } : {}),
              ...(chatOptions.disableTools !== undefined ? { disableTools: chatOptions.disableTools } : {}),
              ...(chatOptions.confirmedTools !== undefined ? { confirmedTools: chatOptions.confirmedTools } : {}),
            },
          }),
        );
      } else if (frame.type === 'error') {
        finish(() => reject(new Error(data.error ?? 'the chat failed')));
      } else if (frame.type === 'ai-response' && data.event === 'chunk' && typeof data.text === 'string') {
        content += data.text;
        onChunk?.(data.text);
      } else if (frame.type === 'ai-response' && data.event === 'complete') {
        const result = {
          content,
          ...(data.usage !== undefined ? { usage: data.usage } : {}),
          ...(data.provider !== undefined ? { provider: data.provider } : {}),
          ...(data.model !== undefined ? { model: data.model } : {}),
        };
        finish(() => resolve(result));
      }
    });
  });
}
