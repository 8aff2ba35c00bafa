import type { ServerResponse } from 'node:http';
import type { ResponseChunk, ResponseDraft } from '../../src/generation/gateway/create-response.js';
import type { StoredResponse, StoredResponseItem } from '../../src/ports/state-store.js';
import { openAiStreamError } from './openai-error.js';
import { failedResponseBody, finalStatusOf, inProgressResponseBody, openAiResponseBody } from './openai-response.js';

/**
 * The Responses API's server-sent events (`event: <type>` then one JSON `data:` line, each with a
 * `sequence_number` counting from 0 over the whole stream), in the order OpenAI sends them and
 * the official client's `responses.stream()` helper checks: `response.created`,
 * `response.in_progress`, each output item (added, its parts and deltas, done), then
 * `response.completed` (or `response.incomplete`), or `response.failed` and an `error` event.
 */
export class ResponseEventWriter {
  #sequence = 0;
  /** Output items announced so far, by index (`output_index`). */
  readonly #announced: StoredResponseItem[] = [];
  #messageOpen = false;

  private readonly draft: ResponseDraft;
  private readonly write: (text: string) => void;

  constructor(draft: ResponseDraft, write: (text: string) => void) {
    this.draft = draft;
    this.write = write;
  }

  #event(type: string, fields: Readonly<Record<string, unknown>>): void {
    this.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.#sequence++, ...fields })}\n\n`);
  }

  start(): void {
    const response = inProgressResponseBody(this.draft);
    this.#event('response.created', { response });
    this.#event('response.in_progress', { response });
  }

  /** A piece of the answer's text (the message item and its part open on the first one). */
  text(delta: string): void {
    if (delta === '') return;
    this.#openMessage();
    this.#event('response.output_text.delta', { ...this.#textAt(), delta, logprobs: [] });
  }

  /** The rest of a finished response: the message closed (or sent whole), each function call, the terminal event. */
  finish(response: StoredResponse): void {
    for (const item of response.output) {
      if (item['type'] === 'message') this.#message(item);
      else if (item['type'] === 'function_call') this.#functionCall(item);
    }
    const { status } = finalStatusOf(response);
    this.#event(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: openAiResponseBody(response) });
  }

  /** A failure after the stream started: `response.failed`, then the `error` event OpenAI's clients throw on. */
  fail(error: unknown): void {
    const { error: body } = openAiStreamError(error);
    this.#event('response.failed', { response: failedResponseBody(this.draft, this.#announced, body.message) });
    this.#event('error', { code: body.code, message: body.message, param: null });
  }

  #textAt() {
    return { item_id: this.draft.messageId, output_index: 0, content_index: 0 };
  }

  #openMessage(): void {
    if (this.#messageOpen) return;
    this.#messageOpen = true;
    const item = { id: this.draft.messageId, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    this.#announced.push(item);
    this.#event('response.output_item.added', { output_index: 0, item });
    this.#event('response.content_part.added', { ...this.#textAt(), part: { type: 'output_text', text: '', annotations: [], logprobs: [] } });
  }

  #message(item: StoredResponseItem): void {
    const part = (item['content'] as readonly { readonly text: string }[] | undefined)?.[0] ?? { text: '' };
    if (!this.#messageOpen) {
      this.#openMessage();
      if (part.text !== '') this.#event('response.output_text.delta', { ...this.#textAt(), delta: part.text, logprobs: [] });
    }
    this.#event('response.output_text.done', { ...this.#textAt(), text: part.text, logprobs: [] });
    this.#event('response.content_part.done', { ...this.#textAt(), part: { type: 'output_text', text: part.text, annotations: [], logprobs: [] } });
    this.#event('response.output_item.done', { output_index: 0, item });
    this.#announced[0] = item;
  }

  #functionCall(item: StoredResponseItem): void {
    const outputIndex = this.#announced.length;
    const args = String(item['arguments'] ?? '');
    this.#announced.push(item);
    this.#event('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
    const at = { item_id: item['id'], output_index: outputIndex };
    this.#event('response.function_call_arguments.delta', { ...at, delta: args });
    this.#event('response.function_call_arguments.done', { ...at, name: item['name'], arguments: args });
    this.#event('response.output_item.done', { output_index: outputIndex, item });
  }
}

/** Where a response stream goes, and whether its client is still there to read a failure. */
export interface ResponseStreamTarget {
  readonly raw: Pick<ServerResponse, 'write' | 'end'>;
  readonly draft: ResponseDraft;
  readonly clientGone: () => boolean;
}

/** Writes a live response stream; the response is ended either way. */
export async function writeResponseStream(target: ResponseStreamTarget, chunks: AsyncIterable<ResponseChunk>): Promise<void> {
  const writer = new ResponseEventWriter(target.draft, (text) => target.raw.write(text));
  try {
    writer.start();
    for await (const chunk of chunks) {
      if (chunk.type === 'text') writer.text(chunk.text);
      else writer.finish(chunk.response);
    }
  } catch (error) {
    if (!target.clientGone()) writer.fail(error);
  } finally {
    target.raw.end();
  }
}

/** A finished response (one answered from the response cache) as the whole stream a fresh one produces, in one text. */
export function replayedResponseStream(response: StoredResponse): string {
  const draft: ResponseDraft = { ...response, messageId: String(response.output.find((item) => item['type'] === 'message')?.['id'] ?? '') };
  const parts: string[] = [];
  const writer = new ResponseEventWriter(draft, (text) => parts.push(text));
  writer.start();
  writer.finish(response);
  return parts.join('');
}
