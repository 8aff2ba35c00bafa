/**
 * The API a model call came through, as `llm.call` records it (`api`, schemas/events/llm.call.v1.json)
 * and as /analytics/llm/* filter and split by it:
 * - `chat_completions`, `responses`, `messages`, `embeddings`: the gateway's /v1 routes
 *   (OpenAI chat completions, OpenAI Responses, Anthropic Messages, OpenAI embeddings);
 * - `toolkit`: the toolkit's own /api/* routes (generate, stream) and its WebSocket;
 * - `batch`: an item of a batch job.
 * Library and CLI calls come through no API and record none. One list, so the event schema's enum,
 * the query parameter and the analytics agree (test/unit/analytics/llm-call-api.test.ts).
 */
export const llmCallApis = ['chat_completions', 'responses', 'messages', 'embeddings', 'toolkit', 'batch'] as const;

export type LlmCallApi = (typeof llmCallApis)[number];

/** Whether `value` names an API of {@link llmCallApis}. */
export function isLlmCallApi(value: string): value is LlmCallApi {
  return (llmCallApis as readonly string[]).includes(value);
}
