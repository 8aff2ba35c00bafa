import type { CachedCompletion } from '../../src/ports/state/response-cache.js';

/**
 * OpenAI's chat-completion wire forms (the `chat.completion` body and the `chat.completion.chunk`
 * stream) of one finished answer, shared by fresh answers and answers replayed from the response
 * cache, so both look the same to the official clients.
 */

type Usage = CachedCompletion['usage'];

/**
 * OpenAI's usage object: `prompt_tokens` counts the cached tokens too, and the details say the part
 * read from the prompt cache and the part spent reasoning (0 when none, as OpenAI sends them).
 */
export function openAiUsage(usage: Usage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens || usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

/** The `chat.completion` body of an answer. */
export function chatCompletionBody(id: string, created: number, answer: CachedCompletion) {
  return {
    id,
    object: 'chat.completion',
    created,
    model: answer.model,
    choices: [
      {
        index: 0,
        message:
          answer.toolCalls.length > 0
            ? { role: 'assistant', content: answer.content === '' ? null : answer.content, refusal: null, tool_calls: answer.toolCalls }
            : { role: 'assistant', content: answer.content, refusal: null },
        logprobs: null,
        finish_reason: answer.finishReason,
      },
    ],
    usage: openAiUsage(answer.usage),
  };
}

/** The chunks of one streamed answer, each carrying the answer's id, creation time and model. */
export function chunkMaker(id: string, created: number, model: string) {
  return {
    chunk: (delta: Record<string, unknown>, finishReason: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    }),
    /** `stream_options.include_usage`: a last chunk without choices. */
    usageChunk: (usage: Usage) => ({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: openAiUsage(usage) }),
    /** Calls arrive whole at the end of the stream; OpenAI clients accumulate tool_call deltas by index. */
    toolCallsDelta: (answer: Pick<CachedCompletion, 'toolCalls'>) => ({ tool_calls: answer.toolCalls.map((call, index) => ({ index, ...call })) }),
  };
}

/**
 * A whole answer as the stream a fresh one produces (role chunk, content, tool calls, finish
 * chunk, usage chunk when asked for), without the closing `[DONE]`.
 */
export function replayedChunks(id: string, created: number, answer: CachedCompletion, includeUsage: boolean): unknown[] {
  const make = chunkMaker(id, created, answer.model);
  return [
    make.chunk({ role: 'assistant', content: '' }, null),
    ...(answer.content !== '' ? [make.chunk({ content: answer.content }, null)] : []),
    ...(answer.toolCalls.length > 0 ? [make.chunk(make.toolCallsDelta(answer), null)] : []),
    make.chunk({}, answer.finishReason),
    ...(includeUsage ? [make.usageChunk(answer.usage)] : []),
  ];
}
