import { convertUint8ArrayToBase64 } from '@ai-sdk/provider-utils';
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FilePart,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  SharedV4Warning,
} from '@ai-sdk/provider';
import {
  isRecord,
  numberOrUndefined,
  SageMakerResponseFormatError,
  toolOutputText,
  type SageMakerBodyCodec,
  type SageMakerParsedResponse,
  type SageMakerStreamEvent,
  type SageMakerUsage,
} from './sagemaker-body-codec.js';

function finishReasonOf(raw: unknown): LanguageModelV4FinishReason {
  const value = typeof raw === 'string' ? raw : undefined;
  switch (value) {
    case 'stop':
    case 'eos_token':
      return { unified: 'stop', raw: value };
    case 'length':
      return { unified: 'length', raw: value };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw: value };
    case 'content_filter':
      return { unified: 'content-filter', raw: value };
    default:
      return { unified: value === undefined ? 'stop' : 'other', raw: value };
  }
}

function usageOf(raw: unknown): SageMakerUsage | undefined {
  if (!isRecord(raw)) return undefined;
  return { inputTokens: numberOrUndefined(raw['prompt_tokens']), outputTokens: numberOrUndefined(raw['completion_tokens']) };
}

function imageUrl(part: LanguageModelV4FilePart): string | undefined {
  if (!part.mediaType.startsWith('image')) return undefined;
  const mediaType = part.mediaType.includes('/') ? part.mediaType : 'image/jpeg';
  switch (part.data.type) {
    case 'url':
      return part.data.url.toString();
    case 'data':
      return `data:${mediaType};base64,${typeof part.data.data === 'string' ? part.data.data : convertUint8ArrayToBase64(part.data.data)}`;
    default:
      return undefined;
  }
}

function toChatMessages(prompt: LanguageModelV4Prompt, warnings: SharedV4Warning[]): Array<Record<string, unknown>> {
  const messages: Array<Record<string, unknown>> = [];
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const parts: Array<Record<string, unknown>> = [];
        for (const part of message.content) {
          if (part.type === 'text') parts.push({ type: 'text', text: part.text });
          else {
            const url = imageUrl(part);
            if (url) parts.push({ type: 'image_url', image_url: { url } });
            else warnings.push({ type: 'unsupported', feature: `file part (${part.mediaType})` });
          }
        }
        const onlyText = parts.every((part) => part['type'] === 'text');
        messages.push({ role: 'user', content: onlyText ? parts.map((part) => part['text']).join('\n') : parts });
        break;
      }
      case 'assistant': {
        const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
        const toolCalls = message.content.flatMap((part) =>
          part.type === 'tool-call'
            ? [{ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) } }]
            : [],
        );
        messages.push({
          role: 'assistant',
          content: text === '' && toolCalls.length > 0 ? null : text,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        });
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type === 'tool-result') messages.push({ role: 'tool', tool_call_id: part.toolCallId, content: toolOutputText(part.output) });
        }
        break;
    }
  }
  return messages;
}

function toolFields(options: LanguageModelV4CallOptions, warnings: SharedV4Warning[]): Record<string, unknown> {
  const tools = (options.tools ?? []).flatMap((tool) => {
    if (tool.type !== 'function') {
      warnings.push({ type: 'unsupported', feature: `provider tool ${tool.name}` });
      return [];
    }
    return [{ type: 'function', function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.inputSchema } }];
  });
  if (tools.length === 0) return {};
  const choice = options.toolChoice;
  const toolChoice =
    choice === undefined || choice.type === 'auto' ? 'auto' : choice.type === 'tool' ? { type: 'function', function: { name: choice.toolName } } : choice.type;
  return { tools, tool_choice: toolChoice };
}

/**
 * OpenAI-style chat completions, which SageMaker chat containers speak (TGI's Messages API, LMI,
 * vLLM, JumpStart chat models): `{messages, max_tokens, temperature, top_p, stop, tools}` →
 * `{choices:[{message, finish_reason}], usage}`; streamed as `data: {chunk}` lines.
 */
export const messagesCodec: SageMakerBodyCodec = {
  supportsTools: true,
  requestBody(options: LanguageModelV4CallOptions, stream: boolean) {
    const warnings: SharedV4Warning[] = [];
    const body: Record<string, unknown> = { messages: toChatMessages(options.prompt, warnings), max_tokens: options.maxOutputTokens ?? 512 };
    if (options.temperature !== undefined) body['temperature'] = options.temperature;
    if (options.topP !== undefined) body['top_p'] = options.topP;
    if (options.seed !== undefined) body['seed'] = options.seed;
    if (options.presencePenalty !== undefined) body['presence_penalty'] = options.presencePenalty;
    if (options.frequencyPenalty !== undefined) body['frequency_penalty'] = options.frequencyPenalty;
    if (options.stopSequences && options.stopSequences.length > 0) body['stop'] = options.stopSequences;
    if (options.responseFormat?.type === 'json') {
      body['response_format'] = options.responseFormat.schema
        ? { type: 'json_schema', json_schema: { name: options.responseFormat.name ?? 'response', schema: options.responseFormat.schema } }
        : { type: 'json_object' };
    }
    Object.assign(body, toolFields(options, warnings));
    if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
    return { body, warnings };
  },
  parseResponse(body: unknown): SageMakerParsedResponse {
    const choice = isRecord(body) && Array.isArray(body['choices']) ? body['choices'][0] : undefined;
    const message = isRecord(choice) && isRecord(choice['message']) ? choice['message'] : undefined;
    if (!isRecord(body) || message === undefined)
      throw new SageMakerResponseFormatError('expected an OpenAI-style {"choices":[{"message":…}]} from a chat endpoint');
    const content: LanguageModelV4Content[] = [];
    if (typeof message['content'] === 'string' && message['content'] !== '') content.push({ type: 'text', text: message['content'] });
    const toolCalls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
    toolCalls.forEach((call, index) => {
      const fn = isRecord(call) && isRecord(call['function']) ? call['function'] : undefined;
      if (!fn || typeof fn['name'] !== 'string') return;
      const args = fn['arguments'];
      content.push({
        type: 'tool-call',
        toolCallId: isRecord(call) && typeof call['id'] === 'string' ? call['id'] : `call_${index}`,
        toolName: fn['name'],
        input: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
      });
    });
    return {
      content,
      finishReason: finishReasonOf(isRecord(choice) ? choice['finish_reason'] : undefined),
      usage: usageOf(body['usage']) ?? { inputTokens: undefined, outputTokens: undefined },
      ...(typeof body['model'] === 'string' ? { modelId: body['model'] } : {}),
    };
  },
  parseStreamEvent(event: unknown): SageMakerStreamEvent[] {
    if (!isRecord(event)) return [];
    if (isRecord(event['error'])) return [{ type: 'error', message: String(event['error']['message'] ?? 'stream error') }];
    if (typeof event['error'] === 'string') return [{ type: 'error', message: event['error'] }];
    const events: SageMakerStreamEvent[] = [];
    const choice = Array.isArray(event['choices']) ? event['choices'][0] : undefined;
    if (isRecord(choice)) {
      const delta = isRecord(choice['delta']) ? choice['delta'] : {};
      if (typeof delta['content'] === 'string' && delta['content'] !== '') events.push({ type: 'text', delta: delta['content'] });
      if (Array.isArray(delta['tool_calls'])) {
        delta['tool_calls'].forEach((call, position) => {
          if (!isRecord(call)) return;
          const fn = isRecord(call['function']) ? call['function'] : {};
          events.push({
            type: 'tool-delta',
            index: numberOrUndefined(call['index']) ?? position,
            ...(typeof call['id'] === 'string' ? { id: call['id'] } : {}),
            ...(typeof fn['name'] === 'string' ? { name: fn['name'] } : {}),
            argumentsDelta: typeof fn['arguments'] === 'string' ? fn['arguments'] : '',
          });
        });
      }
      if (typeof choice['finish_reason'] === 'string') events.push({ type: 'finish', finishReason: finishReasonOf(choice['finish_reason']) });
    }
    const usage = usageOf(event['usage']);
    if (usage) events.push({ type: 'usage', usage });
    return events;
  },
};
