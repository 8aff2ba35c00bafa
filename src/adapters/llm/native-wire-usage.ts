import type { TokenUsage } from '../../generation/language-model-client.js';
import type { NativeWire, NativeWireEvent, NativeWireSummary } from '../../generation/native-wire.js';

/**
 * Reading usage and the answering model out of the three native wires' answers, plain and
 * streamed, onto the toolkit's `TokenUsage`: `inputTokens` counts every input token, cached ones
 * included, and the cache and reasoning parts are kept apart (absent when the provider gave none).
 */

type Json = Record<string, unknown>;

const numberAt = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
const objectAt = (value: unknown): Json | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined);

/** The cache and reasoning parts that are present, as `TokenUsage` names them. */
function parts(read: number | undefined, write5m: number | undefined, write1h: number | undefined, reasoning: number | undefined): Partial<TokenUsage> {
  return {
    ...(read !== undefined ? { cacheReadTokens: read } : {}),
    ...(write5m !== undefined ? { cacheWriteTokens: write5m } : {}),
    ...(write1h !== undefined ? { cacheWrite1hTokens: write1h } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
  };
}

/**
 * Anthropic's usage: `input_tokens` is the uncached part only, so the whole input adds the cache
 * writes and reads. `cache_creation` splits writes by lifetime; without it every write is 5-minute.
 */
export function anthropicUsage(usage: Json | undefined): TokenUsage {
  const uncached = numberAt(usage?.['input_tokens']) ?? 0;
  const created = numberAt(usage?.['cache_creation_input_tokens']);
  const read = numberAt(usage?.['cache_read_input_tokens']);
  const creation = objectAt(usage?.['cache_creation']);
  const write1h = numberAt(creation?.['ephemeral_1h_input_tokens']);
  const write5m = creation === undefined ? created : numberAt(creation['ephemeral_5m_input_tokens']);
  const inputTokens = uncached + (created ?? 0) + (read ?? 0);
  const outputTokens = numberAt(usage?.['output_tokens']) ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, ...parts(read, write5m, write1h || undefined, undefined) };
}

/** Chat Completions' usage: `prompt_tokens` already includes the cached part. */
export function openAiChatUsage(usage: Json | undefined): TokenUsage {
  const inputTokens = numberAt(usage?.['prompt_tokens']) ?? 0;
  const outputTokens = numberAt(usage?.['completion_tokens']) ?? 0;
  const read = numberAt(objectAt(usage?.['prompt_tokens_details'])?.['cached_tokens']);
  const reasoning = numberAt(objectAt(usage?.['completion_tokens_details'])?.['reasoning_tokens']);
  return {
    inputTokens,
    outputTokens,
    totalTokens: numberAt(usage?.['total_tokens']) ?? inputTokens + outputTokens,
    ...parts(read, undefined, undefined, reasoning),
  };
}

/** The Responses API's usage: `input_tokens` already includes the cached part. */
export function responsesUsage(usage: Json | undefined): TokenUsage {
  const inputTokens = numberAt(usage?.['input_tokens']) ?? 0;
  const outputTokens = numberAt(usage?.['output_tokens']) ?? 0;
  const read = numberAt(objectAt(usage?.['input_tokens_details'])?.['cached_tokens']);
  const reasoning = numberAt(objectAt(usage?.['output_tokens_details'])?.['reasoning_tokens']);
  return {
    inputTokens,
    outputTokens,
    totalTokens: numberAt(usage?.['total_tokens']) ?? inputTokens + outputTokens,
    ...parts(read, undefined, undefined, reasoning),
  };
}

/** The toolkit's names for the three wires' stop reasons (the AI SDK's, which spans and records use). */
const finishReasons: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  stop: 'stop',
  completed: 'stop',
  max_tokens: 'length',
  length: 'length',
  incomplete: 'length',
  tool_use: 'tool-calls',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  refusal: 'content-filter',
  content_filter: 'content-filter',
};

/** A stop reason in the toolkit's names; undefined when the provider gave none. */
function finishReasonOf(reason: unknown): Partial<Pick<NativeWireSummary, 'finishReason'>> {
  return typeof reason === 'string' && reason !== '' ? { finishReason: finishReasons[reason] ?? 'other' } : {};
}

/** A Responses API response's stop: its function calls, else its status. */
function responseFinish(response: Json | undefined): unknown {
  const output = Array.isArray(response?.['output']) ? (response['output'] as unknown[]) : [];
  return output.some((item) => objectAt(item)?.['type'] === 'function_call') ? 'function_call' : response?.['status'];
}

/** The summary of a plain (non-streamed) answer's parsed body. */
export function summaryOfBody(wire: NativeWire, body: Json, requestedModel: string): NativeWireSummary {
  const model = typeof body['model'] === 'string' && body['model'] !== '' ? body['model'] : requestedModel;
  const usage = objectAt(body['usage']);
  const read = wire === 'anthropic-messages' ? anthropicUsage : wire === 'openai-chat' ? openAiChatUsage : responsesUsage;
  const reason =
    wire === 'anthropic-messages'
      ? body['stop_reason']
      : wire === 'openai-chat'
        ? objectAt((Array.isArray(body['choices']) ? body['choices'] : [])[0])?.['finish_reason']
        : responseFinish(body);
  return { usage: read(usage), estimated: usage === undefined, model, ...finishReasonOf(reason) };
}

/** A streamed answer's error as the provider's events say it: the error event's `type`/`code` and message. */
export interface StreamFailure {
  readonly type: string;
  readonly message: string;
  readonly data: string;
}

/** Follows one stream's events: its usage and model as they come, and whether an event is an error. */
export interface StreamTally {
  /** Reads one event; returns its failure when it is an error event. */
  take(event: NativeWireEvent): StreamFailure | undefined;
  summary(): NativeWireSummary;
}

function parse(data: string): Json | undefined {
  try {
    return objectAt(JSON.parse(data));
  } catch {
    return undefined;
  }
}

/** Anthropic's events: `message_start` carries the input usage, `message_delta` the output count so far; `error` fails. */
function anthropicTally(requestedModel: string): StreamTally {
  let usage: Json = {};
  let model = requestedModel;
  let stop: unknown;
  return {
    take(event) {
      const type = event.event ?? '';
      if (type !== 'message_start' && type !== 'message_delta' && type !== 'error') return undefined;
      const data = parse(event.data);
      if (type === 'error') {
        const error = objectAt(data?.['error']);
        return { type: String(error?.['type'] ?? 'api_error'), message: String(error?.['message'] ?? 'stream error'), data: event.data };
      }
      const message = objectAt(data?.['message']);
      if (typeof message?.['model'] === 'string') model = message['model'];
      const reported = objectAt(type === 'message_start' ? message?.['usage'] : data?.['usage']);
      if (reported !== undefined) usage = { ...usage, ...Object.fromEntries(Object.entries(reported).filter(([, value]) => value !== null)) };
      const delta = objectAt(data?.['delta']);
      if (delta?.['stop_reason'] !== undefined && delta['stop_reason'] !== null) stop = delta['stop_reason'];
      return undefined;
    },
    summary: () => ({ usage: anthropicUsage(usage), estimated: false, model, ...finishReasonOf(stop) }),
  };
}

/**
 * Chat Completions chunks: usage comes only in a last chunk, and only when the client asked for it
 * (`stream_options.include_usage`, which the gateway does not add to a client's body). Without it
 * the usage is estimated: the request body's length for the input, the streamed text's for the
 * output, at 4 characters a token (the registry's heuristic).
 */
function openAiChatTally(requestedModel: string, requestChars: number): StreamTally {
  let usage: Json | undefined;
  let model = requestedModel;
  let stop: unknown;
  let outputChars = 0;
  return {
    take(event) {
      if (event.data === '[DONE]') return undefined;
      const data = parse(event.data);
      if (data === undefined) return undefined;
      if (data['error'] !== undefined && data['error'] !== null) {
        const error = objectAt(data['error']);
        return { type: String(error?.['type'] ?? error?.['code'] ?? 'server_error'), message: String(error?.['message'] ?? 'stream error'), data: event.data };
      }
      if (typeof data['model'] === 'string' && data['model'] !== '') model = data['model'];
      const reported = objectAt(data['usage']);
      if (reported !== undefined) usage = reported;
      const choices = Array.isArray(data['choices']) ? data['choices'] : [];
      for (const choice of choices) {
        const finish = objectAt(choice)?.['finish_reason'];
        if (finish !== undefined && finish !== null) stop = finish;
        const delta = objectAt(objectAt(choice)?.['delta']);
        if (typeof delta?.['content'] === 'string') outputChars += delta['content'].length;
        for (const call of Array.isArray(delta?.['tool_calls']) ? delta['tool_calls'] : [])
          outputChars += String(objectAt(objectAt(call)?.['function'])?.['arguments'] ?? '').length;
      }
      return undefined;
    },
    summary() {
      if (usage !== undefined) return { usage: openAiChatUsage(usage), estimated: false, model, ...finishReasonOf(stop) };
      const inputTokens = Math.ceil(requestChars / 4);
      const outputTokens = Math.ceil(outputChars / 4);
      return { usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }, estimated: true, model, ...finishReasonOf(stop) };
    },
  };
}

/** Responses events: `response.completed` (or `.incomplete`) carries the usage; `error` and `response.failed` fail. */
function responsesTally(requestedModel: string): StreamTally {
  let usage: Json | undefined;
  let model = requestedModel;
  let stop: unknown;
  return {
    take(event) {
      const type = event.event ?? '';
      const terminal = type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed';
      if (!terminal && type !== 'error' && type !== 'response.created') return undefined;
      const data = parse(event.data);
      if (type === 'error') return { type: String(data?.['code'] ?? 'server_error'), message: String(data?.['message'] ?? 'stream error'), data: event.data };
      const response = objectAt(data?.['response']);
      if (typeof response?.['model'] === 'string') model = response['model'];
      if (terminal) {
        usage = objectAt(response?.['usage']) ?? usage;
        stop = responseFinish(response);
      }
      if (type === 'response.failed') {
        const error = objectAt(response?.['error']);
        return { type: String(error?.['code'] ?? 'server_error'), message: String(error?.['message'] ?? 'response failed'), data: event.data };
      }
      return undefined;
    },
    summary: () => ({ usage: responsesUsage(usage), estimated: usage === undefined, model, ...finishReasonOf(stop) }),
  };
}

/** The tally of one stream of `wire`; `requestChars` sizes an estimate when the provider reports no usage. */
export function streamTally(wire: NativeWire, requestedModel: string, requestChars: number): StreamTally {
  if (wire === 'anthropic-messages') return anthropicTally(requestedModel);
  if (wire === 'openai-chat') return openAiChatTally(requestedModel, requestChars);
  return responsesTally(requestedModel);
}
