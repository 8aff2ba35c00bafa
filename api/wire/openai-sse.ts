import type { ServerResponse } from 'node:http';
import type { ChatChunk } from '../../src/generation/gateway/complete-chat.js';
import type { CachedCompletion } from '../../src/ports/state-store.js';
import { chunkMaker, replayedChunks } from './openai-chat-completion.js';
import { openAiStreamError } from './openai-error.js';

/** One SSE event carrying a JSON object, as OpenAI streams them. */
export function sseData(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** OpenAI's end-of-stream marker. */
export const sseDone = 'data: [DONE]\n\n';

/** Where a stream's chunks go and what they carry: the answer's id, creation time and model. */
export interface ChatStreamTarget {
  readonly raw: Pick<ServerResponse, 'write' | 'end'>;
  readonly id: string;
  readonly created: number;
  readonly model: string;
  /** `stream_options.include_usage`: a last chunk with the usage. */
  readonly includeUsage: boolean;
  /** True once the client has gone: a failure then is nobody's to read. */
  readonly clientGone: () => boolean;
}

/**
 * Writes a chat stream as OpenAI's `chat.completion.chunk` events: the role chunk, each text
 * piece, then tool calls, the finish chunk and (when asked for) usage, then `[DONE]`. A failure
 * after the first byte cannot change the status: OpenAI's clients read an `error` object in the
 * stream instead. The response is ended either way.
 */
export async function writeChatStream(target: ChatStreamTarget, chunks: AsyncIterable<ChatChunk>): Promise<void> {
  const make = chunkMaker(target.id, target.created, target.model);
  const send = (data: unknown) => target.raw.write(sseData(data));
  try {
    send(make.chunk({ role: 'assistant', content: '' }, null));
    for await (const chunk of chunks) {
      if (chunk.type === 'text') {
        send(make.chunk({ content: chunk.text }, null));
        continue;
      }
      if (chunk.answer.toolCalls.length > 0) send(make.chunk(make.toolCallsDelta(chunk.answer), null));
      send(make.chunk({}, chunk.answer.finishReason));
      if (target.includeUsage) send(make.usageChunk(chunk.answer.usage));
    }
    target.raw.write(sseDone);
  } catch (error) {
    if (!target.clientGone()) send(openAiStreamError(error));
  } finally {
    target.raw.end();
  }
}

/** A cached answer as the whole stream a fresh one produces, `[DONE]` included, in one write. */
export function replayedStream(id: string, created: number, answer: CachedCompletion, includeUsage: boolean): string {
  return `${replayedChunks(id, created, answer, includeUsage).map(sseData).join('')}${sseDone}`;
}
