import WebSocket from 'ws';

/** A message the chat WebSocket sends: its type, the room it belongs to (if any) and its data. */
export interface ChatMessage {
  readonly type: string;
  readonly roomId?: string;
  readonly data: Record<string, unknown>;
}

/** A chat WebSocket client that records every message and can wait for one matching a predicate. */
export class ChatSocket {
  readonly messages: ChatMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: { predicate: (message: ChatMessage) => boolean; resolve: (message: ChatMessage) => void }[] = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as ChatMessage;
      this.messages.push(message);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.predicate(message)) return true;
        waiter.resolve(message);
        return false;
      });
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** The first message from index `from` on that matches, now or when it arrives. */
  next(predicate: (message: ChatMessage) => boolean, from = 0): Promise<ChatMessage> {
    const seen = this.messages.slice(from).find(predicate);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  async connectionId(): Promise<string> {
    return (await this.next((message) => message.type === 'system' && message.data['event'] === 'connected')).data['connectionId'] as string;
  }
}

/** Opens a chat socket; rejects with the status code when the upgrade is refused. */
export function openChatSocket(url: string, headers: Record<string, string>, options: WebSocket.ClientOptions = {}): Promise<ChatSocket> {
  const socket = new WebSocket(url, { headers, ...options });
  const client = new ChatSocket(socket);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (_request, response) =>
      reject(Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { statusCode: response.statusCode })),
    );
    socket.once('error', reject);
  });
}
