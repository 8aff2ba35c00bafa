import { GuardrailBlocked } from '../../guardrails/guardrail-blocked.js';
import type { GuardSession } from '../../guardrails/guard-session.js';
import type { CachedCompletion } from '../../ports/state-store.js';
import type { StoredResponseItem } from '../../ports/state/response-store.js';
import type { NativeWire, NativeWireResponse } from '../native-wire.js';
import { guardStrings, isObject, mapArray, withField, withString } from '../../guardrails/json-texts.js';
import { guardNativeEvents } from './guard-native-stream.js';

/**
 * The output guards over a model's answer, whichever form it takes: the answer text and tool-call arguments
 * are guarded (a value the model wrote is masked for good) and the request's placeholders are restored, so
 * the caller reads its own values back and the provider never saw them. A guard with action `block` on the
 * answer refuses it (`GuardrailBlocked`); on a stream it ends the stream with the wire's error event.
 *
 * A body with nothing to change is passed on as the same text (the native pass-through's bytes).
 */

/** A natively forwarded answer: its JSON body's text fields, or its events one by one. A provider's refusal passes unchanged. */
export function guardNativeResponse(wire: NativeWire, response: NativeWireResponse, session: GuardSession): NativeWireResponse {
  if (response.kind === 'error') return response;
  if (response.kind === 'stream') return { ...response, events: guardNativeEvents(wire, response.events, session) };
  const body = parseObject(response.body);
  if (body === undefined) return response;
  const guard = (text: string) => session.output(text);
  const guarded =
    wire === 'openai-chat'
      ? guardChatAnswer(body, guard)
      : wire === 'anthropic-messages'
        ? guardMessagesAnswer(body, guard)
        : guardResponsesAnswer(body, guard);
  refuseBlocked(session);
  return guarded === body ? response : { ...response, body: JSON.stringify(guarded) };
}

/** A translated (or cached) answer: its text and its tool calls' arguments. */
export function guardCompletion(answer: CachedCompletion, session: GuardSession): CachedCompletion {
  const content = session.output(answer.content);
  let changed = content !== answer.content;
  const toolCalls = answer.toolCalls.map((call) => {
    const args = session.output(call.function.arguments);
    if (args === call.function.arguments) return call;
    changed = true;
    return { ...call, function: { ...call.function, arguments: args } };
  });
  refuseBlocked(session);
  return changed ? { ...answer, content, toolCalls } : answer;
}

/** A Responses API answer's output items (a stored response's, or a translated one's). */
export function guardResponseItems(items: readonly StoredResponseItem[], guard: (text: string) => string): readonly StoredResponseItem[] {
  return mapArray(items, (item) => guardResponsesOutputItem(item, guard)) as readonly StoredResponseItem[];
}

export function refuseBlocked(session: GuardSession): void {
  const blocked = session.blocked;
  if (blocked !== undefined && blocked.stage !== 'input') throw new GuardrailBlocked(blocked);
}

type Json = Readonly<Record<string, unknown>>;

function guardChatAnswer(body: Json, guard: (text: string) => string): Json {
  return withField(body, 'choices', (choices) =>
    mapArray(choices, (choice) =>
      isObject(choice)
        ? withField(choice, 'message', (message) => {
            if (!isObject(message)) return message;
            const next = withString(message, 'content', guard);
            return withField(next, 'tool_calls', (calls) =>
              mapArray(calls, (call) =>
                isObject(call) ? withField(call, 'function', (fn) => (isObject(fn) ? withString(fn, 'arguments', guard) : fn)) : call,
              ),
            );
          })
        : choice,
    ),
  );
}

function guardMessagesAnswer(body: Json, guard: (text: string) => string): Json {
  return withField(body, 'content', (content) =>
    mapArray(content, (block) => {
      if (!isObject(block)) return block;
      if (block['type'] === 'text') return withString(block, 'text', guard);
      if (block['type'] === 'tool_use') return withField(block, 'input', (input) => guardStrings(input, guard));
      return block;
    }),
  );
}

function guardResponsesAnswer(body: Json, guard: (text: string) => string): Json {
  return withField(body, 'output', (output) => mapArray(output, (item) => guardResponsesOutputItem(item, guard)));
}

function guardResponsesOutputItem(item: unknown, guard: (text: string) => string): unknown {
  if (!isObject(item)) return item;
  if (item['type'] === 'message') {
    return withField(item, 'content', (content) =>
      mapArray(content, (part) => (isObject(part) && part['type'] === 'output_text' ? withString(part, 'text', guard) : part)),
    );
  }
  if (item['type'] === 'function_call') return withString(item, 'arguments', guard);
  return item;
}

function parseObject(text: string): Json | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    // Not JSON (a provider's plain-text answer): nothing the guards can address by field; passed on.
    return undefined;
  }
}
