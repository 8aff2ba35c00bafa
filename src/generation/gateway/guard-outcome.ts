import type { GuardSession } from '../../guardrails/guard-session.js';
import type { StoredResponse, StoredResponseItem } from '../../ports/state/response-store.js';
import type { ChatChunk, ChatCompletionOutcome } from './complete-chat.js';
import type { CreateResponseOutcome, ResponseChunk } from './create-response.js';
import { guardCompletion, guardResponseItems, refuseBlocked } from './guard-answer.js';
import { isObject, mapArray, withField } from '../../guardrails/json-texts.js';

/**
 * The output guards over the translated path's outcomes (chat completions and Messages share one, the
 * Responses API has its own): a whole answer is guarded at once, a stream's text through one
 * `StreamMasker` (the held text flushed as one more text chunk before the finish), and the tool calls of
 * the finish (which arrive whole) guarded then. What the response cache and the response store keep is the
 * model's answer as it came (placeholders, never the caller's values); only what the caller reads is restored.
 */
export function guardChatOutcome(outcome: ChatCompletionOutcome, session: GuardSession): ChatCompletionOutcome {
  if (outcome.kind !== 'stream') return { ...outcome, answer: guardCompletion(outcome.answer, session) };
  return { ...outcome, chunks: guardChatChunks(outcome.chunks, session) };
}

type TextChunk = { readonly type: 'text'; readonly text: string };

/**
 * A stream's text chunks through one `StreamMasker`: each yields what the masker releases (a block
 * refused at once); the first other chunk flushes the held text as one more text chunk and is replaced
 * by what `finish` makes of it with all the text released. `flushed` runs between the masker's end and
 * that last text chunk (chat refuses a block there, before the rest goes out; Responses after its done).
 */
async function* maskedTextStream<End extends { readonly type: string }>(
  chunks: AsyncIterable<TextChunk | End>,
  session: GuardSession,
  finish: (chunk: End, released: string) => Iterable<End>,
  flushed: () => void = () => undefined,
): AsyncGenerator<TextChunk | End> {
  const masker = session.stream();
  let released = '';
  for await (const chunk of chunks) {
    if (isText(chunk)) {
      const text = masker.push(chunk.text);
      refuseBlocked(session);
      released += text;
      if (text !== '') yield { type: 'text', text };
      continue;
    }
    const rest = masker.end();
    flushed();
    released += rest;
    if (rest !== '') yield { type: 'text', text: rest };
    yield* finish(chunk, released);
  }
}

function isText(chunk: { readonly type: string }): chunk is TextChunk {
  return chunk.type === 'text';
}

function guardChatChunks(chunks: AsyncIterable<ChatChunk>, session: GuardSession): AsyncGenerator<ChatChunk> {
  return maskedTextStream(
    chunks,
    session,
    function* (chunk: Extract<ChatChunk, { type: 'finish' }>, released) {
      const answer = guardCompletion({ ...chunk.answer, content: '' }, session);
      yield { type: 'finish', answer: { ...answer, content: released } };
    },
    () => refuseBlocked(session),
  );
}

export function guardResponseOutcome<T extends CreateResponseOutcome>(outcome: T, session: GuardSession): T {
  if (outcome.kind === 'response') {
    const output = guardResponseItems(outcome.response.output, (text) => session.output(text));
    refuseBlocked(session);
    return output === outcome.response.output ? outcome : { ...outcome, response: { ...outcome.response, output } };
  }
  return { ...outcome, chunks: guardResponseChunks(outcome.chunks, session) };
}

function guardResponseChunks(chunks: AsyncIterable<ResponseChunk>, session: GuardSession): AsyncGenerator<ResponseChunk> {
  return maskedTextStream(chunks, session, function* (chunk: Extract<ResponseChunk, { type: 'done' }>, released) {
    yield { type: 'done', response: releasedResponse(chunk.response, released, session) };
    refuseBlocked(session);
  });
}

/** The finished response with its message text as streamed (released) and its function calls' arguments guarded. */
function releasedResponse(response: StoredResponse, released: string, session: GuardSession): StoredResponse {
  const output = mapArray(response.output, (item) => {
    if (!isObject(item)) return item;
    if (item['type'] !== 'message') return guardResponseItems([item], (text) => session.output(text))[0];
    return withField(item, 'content', (content) =>
      mapArray(content, (part) => (isObject(part) && part['type'] === 'output_text' ? { ...part, text: released } : part)),
    );
  }) as readonly StoredResponseItem[];
  return output === response.output ? response : { ...response, output };
}
