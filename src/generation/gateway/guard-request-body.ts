import type { GuardSession, InputSource } from '../../guardrails/guard-session.js';
import type { NativeWire } from '../native-wire.js';
import { guardStrings, isObject, mapArray, withField, withString } from '../../guardrails/json-texts.js';

/**
 * The input guards over a request body in its own wire (Chat Completions, Messages, Responses): every text
 * the model will read (system prompts, user and assistant turns, tool-call arguments sent back, tool results
 * and text documents) goes through the session, each with who wrote it, so injection heuristics tell user
 * input from tool results.
 *
 * The body is copied only along the paths of a text that changed; every other field (thinking blocks and
 * their signatures, reasoning items' encrypted content, cache_control markers, unknown fields) is the very
 * value the client sent, so the native pass-through still forwards the client's body as it was, but for
 * the masked texts. A body without a finding comes back as the same object.
 */
type Json = Readonly<Record<string, unknown>>;

export function guardRequestBody(wire: NativeWire, body: Json, session: GuardSession): Json {
  const guarded =
    wire === 'openai-chat'
      ? guardChatBody(body, session)
      : wire === 'anthropic-messages'
        ? guardMessagesBody(body, session)
        : guardResponsesBody(body, session);
  session.finishInput();
  return guarded;
}

function guardChatBody(body: Json, session: GuardSession): Json {
  return withField(body, 'messages', (messages) =>
    mapArray(messages, (message) => {
      if (!isObject(message)) return message;
      const source = chatSource(message['role']);
      let next = withField(message, 'content', (content) => guardContent(content, source, session, ['text']));
      next = withField(next, 'tool_calls', (calls) =>
        mapArray(calls, (call) =>
          isObject(call)
            ? withField(call, 'function', (fn) => (isObject(fn) ? withString(fn, 'arguments', (text) => session.input(text, 'assistant')) : fn))
            : call,
        ),
      );
      return next;
    }),
  );
}

function guardMessagesBody(body: Json, session: GuardSession): Json {
  const next = withField(body, 'system', (system) => guardContent(system, 'system', session, ['text']));
  return withField(next, 'messages', (messages) =>
    mapArray(messages, (message) => {
      if (!isObject(message)) return message;
      const source = message['role'] === 'assistant' ? 'assistant' : message['role'] === 'system' ? 'system' : 'user';
      return withField(message, 'content', (content) => {
        if (typeof content === 'string') return session.input(content, source);
        return mapArray(content, (block) => guardMessagesBlock(block, source, session));
      });
    }),
  );
}

/** One Messages content block: text by its role, tool results and text documents as tool output, tool_use input as the assistant's; thinking untouched. */
function guardMessagesBlock(block: unknown, source: InputSource, session: GuardSession): unknown {
  if (!isObject(block)) return block;
  switch (block['type']) {
    case 'text':
      return withString(block, 'text', (text) => session.input(text, source));
    case 'tool_result':
      return withField(block, 'content', (content) => guardContent(content, 'tool', session, ['text']));
    case 'tool_use':
      return withField(block, 'input', (input) => guardStrings(input, (text) => session.input(text, 'assistant')));
    case 'document':
      return withField(block, 'source', (documentSource) =>
        isObject(documentSource) && documentSource['type'] === 'text'
          ? withString(documentSource, 'data', (text) => session.input(text, 'tool'))
          : documentSource,
      );
    default:
      return block;
  }
}

function guardResponsesBody(body: Json, session: GuardSession): Json {
  const next = withString(body, 'instructions', (text) => session.input(text, 'system'));
  return withField(next, 'input', (input) => {
    if (typeof input === 'string') return session.input(input, 'user');
    return mapArray(input, (item) => guardResponsesItem(item, session));
  });
}

const responsesTextParts = ['input_text', 'output_text', 'text'];

function guardResponsesItem(item: unknown, session: GuardSession): unknown {
  if (!isObject(item)) return item;
  const type = item['type'];
  if (type === undefined || type === 'message') {
    const source = chatSource(item['role']);
    return withField(item, 'content', (content) => guardContent(content, source, session, responsesTextParts));
  }
  if (type === 'function_call' || type === 'custom_tool_call') {
    return withString(
      withString(item, 'arguments', (text) => session.input(text, 'assistant')),
      'input',
      (text) => session.input(text, 'assistant'),
    );
  }
  if (typeof type === 'string' && type.endsWith('_output')) {
    return withField(item, 'output', (output) => guardContent(output, 'tool', session, responsesTextParts));
  }
  return item;
}

function chatSource(role: unknown): InputSource {
  if (role === 'system' || role === 'developer') return 'system';
  if (role === 'assistant') return 'assistant';
  if (role === 'tool' || role === 'function') return 'tool';
  return 'user';
}

/** A content field: a string, or an array of parts whose text parts (of `textTypes`) are guarded. */
function guardContent(content: unknown, source: InputSource, session: GuardSession, textTypes: readonly string[]): unknown {
  if (typeof content === 'string') return session.input(content, source);
  return mapArray(content, (part) =>
    isObject(part) && textTypes.includes(String(part['type'])) ? withString(part, 'text', (text) => session.input(text, source)) : part,
  );
}
