import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { abortReason } from './http-body.js';
import { pooledAgents } from './pooled-agents.js';

/** A provider's answer to one POST, whatever its status, and the hold the caller's signal has on it. */
export interface PostedExchange {
  readonly response: IncomingMessage;
  /**
   * Lets go of the caller's signal once the answer is read: until then an abort destroys the
   * exchange; afterwards (deadlines are aborted when a call ends) it must not take the pooled
   * connection with it.
   */
  readonly release: () => void;
}

/**
 * Posts a JSON `payload` to a provider on node:http(s) with the process's pooled keep-alive
 * connections (`pooled-agents.ts`); resolves with the answer as soon as its headers are in,
 * whatever its status, and rejects on a network failure, on an abort (with the signal's reason, as
 * fetch does, so deadlines map to TimeoutError) or when the provider stays silent for
 * `silenceLimitMs` (a retryable `ETIMEDOUT`, as fetch's own limits would give). The one transport of
 * the chat-wire client and the native pass-through.
 *
 * @remarks `content-type` and `content-length` are set after `headers`: the body is always this JSON.
 */
export function postJson(
  url: URL,
  payload: string,
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal | undefined,
  silenceLimitMs: number,
): Promise<PostedExchange> {
  const https = url.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  const agent = https ? pooledAgents['https:'] : pooledAgents['http:'];
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortReason(signal));
      return;
    }
    const outgoing = send(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => resolve({ response, release }),
    );
    // A provider that goes silent (no headers, or a stream that stalls) fails after the limit instead of hanging forever.
    outgoing.setTimeout(silenceLimitMs, () =>
      outgoing.destroy(Object.assign(new Error(`no answer from the provider for ${silenceLimitMs / 1000} s`), { code: 'ETIMEDOUT' })),
    );
    const abort = () => outgoing.destroy(abortReason(signal as AbortSignal) as Error);
    const release = () => signal?.removeEventListener('abort', abort);
    signal?.addEventListener('abort', abort, { once: true });
    outgoing.on('error', (error) => {
      release();
      reject(signal?.aborted === true ? abortReason(signal) : error);
    });
    outgoing.end(payload);
  });
}
