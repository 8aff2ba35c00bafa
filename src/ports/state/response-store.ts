import type { CompletionUsage, OpenAiFinishReason } from './response-cache.js';

/**
 * One item of a stored response (an input item as the client sent it, ids filled in, or an output
 * item as the gateway answered it), kept as its JSON object: the port stores it, never reads it.
 */
export type StoredResponseItem = Readonly<Record<string, unknown>>;

/**
 * A response of the gateway's Responses API (`/v1/responses`, issue 23) kept for its merchant: what
 * `GET /v1/responses/{id}` answers, `input_items` lists and `previous_response_id` continues.
 */
export interface StoredResponse {
  /** `resp_…`, unique across merchants; found only under its own merchant. */
  readonly id: string;
  readonly merchantId: string;
  /** Unix seconds. */
  readonly createdAt: number;
  /** The provider and model that answered. */
  readonly provider: string;
  readonly model: string;
  /** The request's fields the response object echoes (instructions, tools, text, temperature, metadata, …). */
  readonly request: Readonly<Record<string, unknown>>;
  /** The conversation before this turn (a `previous_response_id` chain's inputs and outputs), oldest first. */
  readonly context: readonly StoredResponseItem[];
  /** This turn's input items, oldest first, each with an `id`. */
  readonly input: readonly StoredResponseItem[];
  /** The answer's output items (message, function calls), each with an `id`. */
  readonly output: readonly StoredResponseItem[];
  readonly finishReason: OpenAiFinishReason;
  readonly usage: CompletionUsage;
}

/**
 * Stored Responses API responses, by merchant and id, each kept for the TTL it was put with (the
 * `RESPONSES_TTL_DAYS` setting). A record is written once and read or deleted by id: no listing,
 * no update, so no replica ever holds a copy that could go stale.
 */
export interface ResponseStore {
  /** Keeps `record` under its merchant and id for `ttlS` seconds (replacing one of the same id). */
  put(record: StoredResponse, ttlS: number): Promise<void>;
  /** The record, or undefined when there is none under this merchant, or it expired or was deleted. */
  get(merchantId: string, id: string): Promise<StoredResponse | undefined>;
  /** Deletes the record; false when there was none under this merchant. */
  delete(merchantId: string, id: string): Promise<boolean>;
}
