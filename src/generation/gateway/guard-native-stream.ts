import { GuardrailBlocked } from '../../guardrails/guardrail-blocked.js';
import type { GuardSession } from '../../guardrails/guard-session.js';
import type { StreamMasker } from '../../guardrails/stream-masker.js';
import type { NativeWire, NativeWireEvent } from '../native-wire.js';

/**
 * The output guards over a natively forwarded stream, event by event: each streamed text (a choice's
 * content, a content block, an output part, a tool call's arguments) has its own `StreamMasker`, so a value
 * split across events is masked whole and the request's placeholders are restored for the caller.
 *
 * What a masker holds back is released in a later event of the same text; at the text's end it is flushed:
 * into the finish chunk (Chat Completions), or as one more delta event before the block's stop (Messages) or
 * before the part's `done` event (Responses, whose later `sequence_number`s are shifted by one to stay
 * consecutive). The Responses API's `done` events and its final response carry the texts as released.
 * Events that carry no text pass as they came (their data untouched).
 */
export async function* guardNativeEvents(wire: NativeWire, events: AsyncIterable<NativeWireEvent>, session: GuardSession): AsyncGenerator<NativeWireEvent> {
  const state = new StreamState(session);
  for await (const event of events) {
    const guarded =
      wire === 'openai-chat' ? chatEvents(event, state) : wire === 'anthropic-messages' ? messagesEvents(event, state) : responsesEvents(event, state);
    for (const out of guarded) {
      const blocked = session.blocked;
      if (blocked !== undefined && blocked.stage !== 'input') throw new GuardrailBlocked(blocked);
      yield out;
    }
  }
}

type Json = Record<string, unknown>;

class StreamState {
  readonly #session: GuardSession;
  readonly #maskers = new Map<string, StreamMasker>();
  /** What was released per text, for the events that repeat a whole text (Responses' `done` events). */
  readonly released = new Map<string, string>();
  /** Chat: the last chunk, a template for a flush at `[DONE]`. */
  lastChunk: Json | undefined;
  /** Messages: each block's delta type. */
  readonly deltaTypes = new Map<number, string>();
  /** Responses: events inserted so far (later sequence numbers move up by as many). */
  inserted = 0;

  constructor(session: GuardSession) {
    this.#session = session;
  }

  push(key: string, text: string): string {
    let masker = this.#maskers.get(key);
    if (masker === undefined) {
      masker = this.#session.stream();
      this.#maskers.set(key, masker);
    }
    return this.#record(key, masker.push(text));
  }

  end(key: string): string {
    const masker = this.#maskers.get(key);
    if (masker === undefined) return '';
    this.#maskers.delete(key);
    return this.#record(key, masker.end());
  }

  /** Keys of texts still open whose key starts with `prefix`. */
  openKeys(prefix: string): string[] {
    return [...this.#maskers.keys()].filter((key) => key.startsWith(prefix));
  }

  #record(key: string, text: string): string {
    if (text !== '') this.released.set(key, (this.released.get(key) ?? '') + text);
    return text;
  }
}

function parse(data: string): Json | undefined {
  if (!data.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : undefined;
  } catch {
    // Not JSON: no text field to guard; the event passes as it came.
    return undefined;
  }
}

const asObject = (value: unknown): Json | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined);

function chatEvents(event: NativeWireEvent, state: StreamState): NativeWireEvent[] {
  if (event.data === '[DONE]') {
    // A stream that never sent a finish_reason: whatever is held goes out in one more chunk first.
    const flushed = flushChat(state, '');
    if (flushed === undefined || state.lastChunk === undefined) return [event];
    return [{ ...event, data: JSON.stringify({ ...state.lastChunk, choices: [{ index: 0, delta: flushed, finish_reason: null }] }) }, event];
  }
  const chunk = parse(event.data);
  const choices = chunk?.['choices'];
  if (chunk === undefined || !Array.isArray(choices)) return [event];
  state.lastChunk = { ...chunk, choices: [] };
  let changed = false;
  const nextChoices = choices.map((raw: unknown) => {
    const choice = asObject(raw);
    const delta = asObject(choice?.['delta']);
    if (choice === undefined || delta === undefined) return raw;
    const prefix = `c${String(choice['index'] ?? 0)}`;
    const nextDelta: Json = { ...delta };
    if (typeof delta['content'] === 'string') nextDelta['content'] = state.push(`${prefix}:text`, delta['content']);
    if (Array.isArray(delta['tool_calls'])) {
      nextDelta['tool_calls'] = delta['tool_calls'].map((rawCall: unknown) => {
        const call = asObject(rawCall);
        const fn = asObject(call?.['function']);
        if (call === undefined || fn === undefined || typeof fn['arguments'] !== 'string') return rawCall;
        return { ...call, function: { ...fn, arguments: state.push(`${prefix}:tool${String(call['index'] ?? 0)}`, fn['arguments']) } };
      });
    }
    if (choice['finish_reason'] !== null && choice['finish_reason'] !== undefined) {
      const flushed = flushChat(state, `${prefix}:`);
      if (flushed !== undefined) {
        if (typeof flushed['content'] === 'string') nextDelta['content'] = String(nextDelta['content'] ?? '') + flushed['content'];
        if (Array.isArray(flushed['tool_calls']))
          nextDelta['tool_calls'] = [...(Array.isArray(nextDelta['tool_calls']) ? nextDelta['tool_calls'] : []), ...flushed['tool_calls']];
      }
    }
    if (JSON.stringify(nextDelta) === JSON.stringify(delta)) return raw;
    changed = true;
    return { ...choice, delta: nextDelta };
  });
  return changed ? [{ ...event, data: JSON.stringify({ ...chunk, choices: nextChoices }) }] : [event];
}

/** The held text of a choice's content and tool calls, as a delta (undefined when nothing was held). */
function flushChat(state: StreamState, prefix: string): Json | undefined {
  const delta: Json = {};
  const toolCalls: Json[] = [];
  for (const key of state.openKeys(prefix === '' ? 'c' : prefix)) {
    const rest = state.end(key);
    if (rest === '') continue;
    const tool = /:tool(\d+)$/.exec(key);
    if (tool === null) delta['content'] = rest;
    else toolCalls.push({ index: Number(tool[1]), function: { arguments: rest } });
  }
  if (toolCalls.length > 0) delta['tool_calls'] = toolCalls;
  return Object.keys(delta).length === 0 ? undefined : delta;
}

function messagesEvents(event: NativeWireEvent, state: StreamState): NativeWireEvent[] {
  const data = parse(event.data);
  if (data === undefined) return [event];
  const index = typeof data['index'] === 'number' ? data['index'] : 0;
  if (data['type'] === 'content_block_delta') {
    const delta = asObject(data['delta']);
    const field = delta?.['type'] === 'text_delta' ? 'text' : delta?.['type'] === 'input_json_delta' ? 'partial_json' : undefined;
    if (delta === undefined || field === undefined || typeof delta[field] !== 'string') return [event];
    state.deltaTypes.set(index, String(delta['type']));
    const text = state.push(`b${index}`, delta[field] as string);
    return text === delta[field] ? [event] : [{ ...event, data: JSON.stringify({ ...data, delta: { ...delta, [field]: text } }) }];
  }
  if (data['type'] === 'content_block_stop') {
    const rest = state.end(`b${index}`);
    if (rest === '') return [event];
    const deltaType = state.deltaTypes.get(index) ?? 'text_delta';
    const delta = deltaType === 'input_json_delta' ? { type: deltaType, partial_json: rest } : { type: deltaType, text: rest };
    return [{ event: 'content_block_delta', data: JSON.stringify({ type: 'content_block_delta', index, delta }) }, event];
  }
  return [event];
}

function responsesEvents(event: NativeWireEvent, state: StreamState): NativeWireEvent[] {
  const data = parse(event.data);
  if (data === undefined) return [event];
  const type = data['type'];
  const key = `${String(data['output_index'] ?? 0)}:${String(data['content_index'] ?? 'args')}`;
  const shifted = (payload: Json): Json =>
    state.inserted > 0 && typeof payload['sequence_number'] === 'number'
      ? { ...payload, sequence_number: payload['sequence_number'] + state.inserted }
      : payload;
  const emit = (payload: Json, changed: boolean): NativeWireEvent =>
    changed || state.inserted > 0 ? { ...event, data: JSON.stringify(shifted(payload)) } : event;
  if ((type === 'response.output_text.delta' || type === 'response.function_call_arguments.delta') && typeof data['delta'] === 'string') {
    const text = state.push(key, data['delta']);
    return [emit({ ...data, delta: text }, text !== data['delta'])];
  }
  if (type === 'response.output_text.done' || type === 'response.function_call_arguments.done') {
    const field = type === 'response.output_text.done' ? 'text' : 'arguments';
    const rest = state.end(key);
    const out: NativeWireEvent[] = [];
    if (rest !== '') {
      const deltaType = type === 'response.output_text.done' ? 'response.output_text.delta' : 'response.function_call_arguments.delta';
      const { [field]: _whole, ...head } = data;
      out.push({ event: deltaType, data: JSON.stringify(shifted({ ...head, type: deltaType, delta: rest })) });
      state.inserted += 1;
    }
    const released = state.released.get(key);
    out.push(emit(released === undefined ? data : { ...data, [field]: released }, released !== undefined && released !== data[field]));
    return out;
  }
  if (type === 'response.content_part.done') {
    const part = asObject(data['part']);
    const released = state.released.get(key);
    if (part === undefined || released === undefined || typeof part['text'] !== 'string') return [emit(data, false)];
    return [emit({ ...data, part: { ...part, text: released } }, released !== part['text'])];
  }
  if (type === 'response.output_item.done') {
    const item = releasedItem(data['item'], String(data['output_index'] ?? 0), state);
    return [emit(item === data['item'] ? data : { ...data, item }, item !== data['item'])];
  }
  if (type === 'response.completed' || type === 'response.incomplete') {
    const response = asObject(data['response']);
    const output = response?.['output'];
    if (response === undefined || !Array.isArray(output)) return [emit(data, false)];
    let changed = false;
    const items = output.map((item: unknown, outputIndex) => {
      const next = releasedItem(item, String(outputIndex), state);
      changed ||= next !== item;
      return next;
    });
    return [emit(changed ? { ...data, response: { ...response, output: items } } : data, changed)];
  }
  return [emit(data, false)];
}

/** An output item with its texts as released (message parts, function-call arguments). */
function releasedItem(raw: unknown, outputIndex: string, state: StreamState): unknown {
  const item = asObject(raw);
  if (item === undefined) return raw;
  if (item['type'] === 'function_call') {
    const released = state.released.get(`${outputIndex}:args`);
    return released === undefined || released === item['arguments'] ? raw : { ...item, arguments: released };
  }
  const content = item['content'];
  if (item['type'] !== 'message' || !Array.isArray(content)) return raw;
  let changed = false;
  const parts = content.map((rawPart: unknown, contentIndex) => {
    const part = asObject(rawPart);
    const released = state.released.get(`${outputIndex}:${contentIndex}`);
    if (part === undefined || released === undefined || released === part['text']) return rawPart;
    changed = true;
    return { ...part, text: released };
  });
  return changed ? { ...item, content: parts } : raw;
}
