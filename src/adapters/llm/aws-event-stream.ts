import { EventStreamCodec } from '@smithy/eventstream-codec';
import type { IncomingMessage } from 'node:http';
import type { NativeWireEvent } from '../../generation/native-wire.js';
import { abortReason } from './http-body.js';

const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
  (text) => Buffer.from(text, 'utf8'),
);

/** The Anthropic error types Bedrock's in-stream exceptions stand for (as Anthropic's API would name them). */
const anthropicErrorOf: Readonly<Record<string, string>> = {
  throttlingException: 'rate_limit_error',
  serviceUnavailableException: 'overloaded_error',
  validationException: 'invalid_request_error',
  internalServerException: 'api_error',
  modelStreamErrorException: 'api_error',
  modelTimeoutException: 'api_error',
};

function headerText(headers: Record<string, { readonly type: string; readonly value: unknown }>, name: string): string | undefined {
  const header = headers[name];
  return header?.type === 'string' ? String(header.value) : undefined;
}

function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; Message?: unknown };
    return String(parsed.message ?? parsed.Message ?? body);
  } catch {
    return body;
  }
}

/**
 * The Anthropic stream events inside Bedrock's `InvokeModelWithResponseStream` answer (AWS event
 * stream binary framing, `application/vnd.amazon.eventstream`): each `chunk` event's `bytes` is
 * the base64 of one Anthropic event's JSON, handed on as that event (its `type` as the event name,
 * its JSON text untouched). An exception frame (`throttlingException`, `modelStreamErrorException`,
 * …) becomes Anthropic's `error` event, so it fails over before the first event and reaches the
 * client as Anthropic's own in-stream error after it.
 */
export async function* anthropicEventsOfEventStream(response: IncomingMessage, signal: AbortSignal | undefined): AsyncGenerator<NativeWireEvent> {
  let buffered: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of response.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4 && buffered.length >= buffered.readUInt32BE(0)) {
        const length = buffered.readUInt32BE(0);
        const message = codec.decode(buffered.subarray(0, length));
        buffered = buffered.subarray(length);
        const event = eventOf(message.headers as Record<string, { type: string; value: unknown }>, Buffer.from(message.body).toString('utf8'));
        if (event !== undefined) yield event;
      }
    }
  } catch (error) {
    throw signal?.aborted === true ? abortReason(signal) : error;
  }
  if (!response.complete || buffered.length > 0)
    throw Object.assign(new Error('the provider closed the connection before the stream ended'), { code: 'ECONNRESET' });
}

function eventOf(headers: Record<string, { readonly type: string; readonly value: unknown }>, body: string): NativeWireEvent | undefined {
  const kind = headerText(headers, ':message-type');
  if (kind === 'exception' || kind === 'error') {
    const name = headerText(headers, ':exception-type') ?? headerText(headers, ':error-code') ?? 'internalServerException';
    const type = anthropicErrorOf[name] ?? 'api_error';
    return { event: 'error', data: JSON.stringify({ type: 'error', error: { type, message: `${name}: ${messageOf(body)}` } }) };
  }
  if (headerText(headers, ':event-type') !== 'chunk') return undefined;
  const bytes = (JSON.parse(body) as { bytes?: unknown }).bytes;
  if (typeof bytes !== 'string') return undefined;
  const data = Buffer.from(bytes, 'base64').toString('utf8');
  const type = (JSON.parse(data) as { type?: unknown }).type;
  return typeof type === 'string' ? { event: type, data } : { data };
}
