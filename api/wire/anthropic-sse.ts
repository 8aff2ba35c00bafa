import type { ServerResponse } from 'node:http';
import { anthropicStopReason } from '../../src/generation/gateway/anthropic-messages-request.js';
import type { ChatChunk } from '../../src/generation/gateway/complete-chat.js';
import type { CachedCompletion } from '../../src/ports/state/response-cache.js';
import { anthropicStreamError } from './anthropic-error.js';
import { anthropicUsage, messageHead, toolUseBlocks } from './anthropic-message.js';

/** One event of a Messages stream: its `type` and the fields of that type. */
type StreamEvent = { readonly type: string } & Readonly<Record<string, unknown>>;

/**
 * One SSE event as Anthropic streams them: an `event:` line naming the data's `type` (the SDK skips
 * records without one) and the JSON on one `data:` line.
 */
export function anthropicEvent(data: StreamEvent): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Where a Messages stream goes and what it carries: the message id and the model that answers. */
export interface MessagesStreamTarget {
  readonly raw: Pick<ServerResponse, 'write' | 'end'>;
  readonly id: string;
  readonly model: string;
  /** True once the client has gone: a failure then is nobody's to read. */
  readonly clientGone: () => boolean;
}

/** The events that close a stream once its whole answer is known: tool_use blocks, message_delta, message_stop. */
function closingEvents(answer: CachedCompletion, nextIndex: number): StreamEvent[] {
  const events: StreamEvent[] = [];
  toolUseBlocks(answer).forEach((block, offset) => {
    const index = nextIndex + offset;
    // Tool calls arrive whole at the end of the use case's stream: one input_json_delta with all of it.
    events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
    events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    events.push({ type: 'content_block_stop', index });
  });
  const { input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens } = anthropicUsage(answer.usage);
  events.push({
    type: 'message_delta',
    delta: { stop_reason: anthropicStopReason(answer.finishReason), stop_sequence: null, stop_details: null, container: null },
    // output_tokens is the final count; non-null input and cache counts replace message_start's 0s
    // (unknown then: the translated stream learns its usage at the end), as the SDKs merge them.
    // Anthropic's message_delta has no `cache_creation` split (message_start carries it), so a
    // translated stream reports its cache writes as one total.
    usage: {
      output_tokens,
      input_tokens,
      cache_creation_input_tokens,
      cache_read_input_tokens,
      output_tokens_details: null,
      server_tool_use: null,
    },
  });
  events.push({ type: 'message_stop' });
  return events;
}

/**
 * Writes a Messages stream: message_start, a ping, the text block as its pieces arrive, then
 * (from the finish chunk's whole answer) the tool_use blocks, message_delta with the stop reason
 * and usage, and message_stop. A failure after the first byte cannot change the status: it is
 * sent as an `error` event in Anthropic's error body. The response is ended either way.
 */
export async function writeMessagesStream(target: MessagesStreamTarget, chunks: AsyncIterable<ChatChunk>): Promise<void> {
  const send = (data: StreamEvent) => target.raw.write(anthropicEvent(data));
  const textStart = { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } };
  let textOpen = false;
  try {
    send({
      type: 'message_start',
      message: { ...messageHead(target.id, target.model), content: [], stop_reason: null, usage: anthropicUsage({ inputTokens: 0, outputTokens: 0 }) },
    });
    send({ type: 'ping' });
    for await (const chunk of chunks) {
      if (chunk.type === 'text') {
        if (chunk.text === '') continue;
        if (!textOpen) send(textStart);
        textOpen = true;
        send({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: chunk.text } });
        continue;
      }
      // An answer with neither text nor tool calls still has its (empty) text block, as the plain body does.
      if (!textOpen && chunk.answer.toolCalls.length === 0) send(textStart);
      if (textOpen || chunk.answer.toolCalls.length === 0) send({ type: 'content_block_stop', index: 0 });
      for (const event of closingEvents(chunk.answer, textOpen || chunk.answer.toolCalls.length === 0 ? 1 : 0)) send(event);
    }
  } catch (error) {
    if (!target.clientGone()) send({ ...anthropicStreamError(error) });
  } finally {
    target.raw.end();
  }
}

/** A cached answer as the stream a fresh one produces. */
export async function* replayedChunks(answer: CachedCompletion): AsyncGenerator<ChatChunk> {
  if (answer.content !== '') yield { type: 'text', text: answer.content };
  yield { type: 'finish', answer };
}
