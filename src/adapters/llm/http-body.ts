import type { IncomingMessage } from 'node:http';

/** Reading a provider's answer off node:http: its headers, its body as text, and an abort's reason. */

export function headersOf(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

export function abortReason(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('The operation was aborted', 'AbortError');
}

/** The whole body as text; a signal that fires meanwhile rejects with its reason. */
export async function readText(response: IncomingMessage, signal?: AbortSignal): Promise<string> {
  let text = '';
  await readBody(response, signal, (piece) => {
    text += piece;
  });
  return text;
}

/**
 * Hands the body to `onText` as UTF-8 text pieces; resolves at its end, rejects when the
 * connection breaks first, the signal fires (with its reason) or `onText` throws.
 *
 * @remarks Events, not `for await`: a response's async iterator aborts its request when the loop
 * ends, which closes the pooled connection after every call.
 */
export function readBody(response: IncomingMessage, signal: AbortSignal | undefined, onText: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => reject(signal?.aborted === true ? abortReason(signal) : error);
    response.setEncoding('utf8');
    response.on('data', (text: string) => {
      try {
        onText(text);
      } catch (error) {
        response.destroy();
        reject(error);
      }
    });
    response.once('end', resolve);
    response.once('error', fail);
    response.once('close', () => {
      if (!response.complete) fail(Object.assign(new Error('the provider closed the connection before the answer ended'), { code: 'ECONNRESET' }));
    });
  });
}
