import type { ResponseDraft } from '../../src/generation/gateway/create-response.js';
import type { StoredResponse, StoredResponseItem } from '../../src/ports/state-store.js';

/**
 * OpenAI's Responses API wire forms of a response (`object: 'response'`), shared by fresh, cached,
 * streamed and stored responses, so the official clients (and their `output_text`) see one shape.
 */

type Status = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export function openAiResponseUsage(usage: StoredResponse['usage']) {
  return {
    input_tokens: usage.inputTokens,
    // input_tokens counts the cached tokens too (OpenAI's rule); the details say which part.
    input_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0, cache_write_tokens: (usage.cacheWriteTokens ?? 0) + (usage.cacheWrite1hTokens ?? 0) },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens || usage.inputTokens + usage.outputTokens,
  };
}

/** `completed`, or `incomplete` (with its reason) when the answer stopped at its token limit or a filter. */
export function finalStatusOf(response: StoredResponse): { readonly status: Status; readonly incompleteDetails: { readonly reason: string } | null } {
  if (response.finishReason === 'length') return { status: 'incomplete', incompleteDetails: { reason: 'max_output_tokens' } };
  if (response.finishReason === 'content_filter') return { status: 'incomplete', incompleteDetails: { reason: 'content_filter' } };
  return { status: 'completed', incompleteDetails: null };
}

interface ResponseState {
  readonly status: Status;
  readonly output: readonly StoredResponseItem[];
  readonly usage: ReturnType<typeof openAiResponseUsage> | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly incompleteDetails: { readonly reason: string } | null;
  readonly completedAt: number | null;
}

/** The response object of a draft or finished response in one state. */
function responseObject(base: ResponseDraft | StoredResponse, state: ResponseState) {
  const request = base.request;
  return {
    id: base.id,
    object: 'response',
    created_at: base.createdAt,
    status: state.status,
    background: false,
    completed_at: state.completedAt,
    error: state.error,
    incomplete_details: state.incompleteDetails,
    instructions: request['instructions'] ?? null,
    max_output_tokens: request['max_output_tokens'] ?? null,
    max_tool_calls: null,
    model: base.model,
    output: state.output,
    parallel_tool_calls: request['parallel_tool_calls'] ?? true,
    previous_response_id: request['previous_response_id'] ?? null,
    reasoning: request['reasoning'] ?? { effort: null, summary: null },
    service_tier: 'default',
    store: request['store'] ?? true,
    temperature: request['temperature'] ?? null,
    text: request['text'] ?? { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: request['tool_choice'] ?? 'auto',
    tools: request['tools'] ?? [],
    top_logprobs: 0,
    top_p: request['top_p'] ?? null,
    truncation: 'disabled',
    usage: state.usage,
    user: request['user'] ?? null,
    metadata: request['metadata'] ?? {},
    access_programs: null,
  };
}

/** The response object of a finished response: what create answers, retrieve returns and `response.completed` carries. */
export function openAiResponseBody(response: StoredResponse) {
  const { status, incompleteDetails } = finalStatusOf(response);
  return responseObject(response, {
    status,
    output: response.output,
    usage: openAiResponseUsage(response.usage),
    error: null,
    incompleteDetails,
    completedAt: response.createdAt,
  });
}

/** The response object of a stream before its answer (`response.created`, `response.in_progress`). */
export function inProgressResponseBody(draft: ResponseDraft) {
  return responseObject(draft, { status: 'in_progress', output: [], usage: null, error: null, incompleteDetails: null, completedAt: null });
}

/** The response object of a stream that failed after its start (`response.failed`). */
export function failedResponseBody(draft: ResponseDraft, output: readonly StoredResponseItem[], message: string) {
  return responseObject(draft, { status: 'failed', output, usage: null, error: { code: 'server_error', message }, incompleteDetails: null, completedAt: null });
}

/** `DELETE /v1/responses/{id}`. */
export function deletedResponseBody(id: string) {
  return { id, object: 'response.deleted', deleted: true };
}

/** `GET /v1/responses/{id}/input_items`: OpenAI's cursor page. */
export function inputItemsBody(page: { readonly data: readonly StoredResponseItem[]; readonly hasMore: boolean }) {
  const ids = page.data.map((item) => (typeof item['id'] === 'string' ? item['id'] : null));
  return { object: 'list', data: page.data, first_id: ids.at(0) ?? null, last_id: ids.at(-1) ?? null, has_more: page.hasMore };
}
