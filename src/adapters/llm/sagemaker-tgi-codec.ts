import type { LanguageModelV4CallOptions, LanguageModelV4FinishReason, LanguageModelV4Prompt, SharedV4Warning } from '@ai-sdk/provider';
import {
  isRecord,
  numberOrUndefined,
  SageMakerResponseFormatError,
  toolOutputText,
  type SageMakerBodyCodec,
  type SageMakerParsedResponse,
  type SageMakerStreamEvent,
} from './sagemaker-body-codec.js';

function finishReasonOf(raw: unknown): LanguageModelV4FinishReason {
  const value = typeof raw === 'string' ? raw : undefined;
  if (value === 'length') return { unified: 'length', raw: value };
  if (value === 'eos_token' || value === 'stop_sequence') return { unified: 'stop', raw: value };
  return { unified: value === undefined ? 'stop' : 'other', raw: value };
}

/**
 * Renders the conversation as one prompt string. A lone user message is sent verbatim (what a
 * base model or a container applying its own template expects); a conversation becomes a plain
 * "System/User/Assistant" transcript ending with the assistant's turn.
 */
function renderPrompt(prompt: LanguageModelV4Prompt, warnings: SharedV4Warning[]): string {
  const textOf = (parts: ReadonlyArray<{ type: string; text?: string }>): string =>
    parts.flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : [])).join('\n');
  if (prompt.length === 1 && prompt[0]?.role === 'user') {
    if (prompt[0].content.some((part) => part.type === 'file'))
      warnings.push({ type: 'unsupported', feature: 'file parts', details: 'TGI-style SageMaker endpoints take text only' });
    return textOf(prompt[0].content);
  }
  const lines: string[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        lines.push(`System: ${message.content}`);
        break;
      case 'user':
        if (message.content.some((part) => part.type === 'file'))
          warnings.push({ type: 'unsupported', feature: 'file parts', details: 'TGI-style SageMaker endpoints take text only' });
        lines.push(`User: ${textOf(message.content)}`);
        break;
      case 'assistant':
        lines.push(`Assistant: ${textOf(message.content)}`);
        break;
      case 'tool':
        for (const part of message.content) if (part.type === 'tool-result') lines.push(`Tool (${part.toolName}): ${toolOutputText(part.output)}`);
        break;
    }
  }
  lines.push('Assistant:');
  return lines.join('\n');
}

/**
 * Hugging Face Text Generation Inference (and custom containers mimicking it):
 * `{inputs, parameters:{max_new_tokens, temperature, top_p, stop, …}}` → `[{generated_text, details}]`
 * (or the bare object); streamed as `data:{"token":{…},"generated_text":…,"details":…}` events.
 * No tool calling: TGI's generate route has none.
 */
export const tgiCodec: SageMakerBodyCodec = {
  supportsTools: false,
  requestBody(options: LanguageModelV4CallOptions, stream: boolean) {
    const warnings: SharedV4Warning[] = [];
    if (options.tools && options.tools.length > 0)
      warnings.push({ type: 'unsupported', feature: 'tools', details: 'TGI-style SageMaker endpoints cannot call tools' });
    const parameters: Record<string, unknown> = { max_new_tokens: options.maxOutputTokens ?? 512, details: true, return_full_text: false };
    // TGI rejects temperature <= 0 and top_p outside (0, 1): greedy decoding is "do_sample: false".
    if (options.temperature !== undefined && options.temperature > 0) {
      parameters['temperature'] = options.temperature;
      parameters['do_sample'] = true;
    } else if (options.temperature !== undefined) {
      parameters['do_sample'] = false;
    }
    if (options.topP !== undefined && options.topP > 0 && options.topP < 1) parameters['top_p'] = options.topP;
    if (options.topK !== undefined) parameters['top_k'] = options.topK;
    if (options.seed !== undefined) parameters['seed'] = options.seed;
    if (options.stopSequences && options.stopSequences.length > 0) parameters['stop'] = options.stopSequences;
    if (options.responseFormat?.type === 'json') {
      // TGI's guided generation constrains decoding to the schema.
      if (options.responseFormat.schema) parameters['grammar'] = { type: 'json', value: options.responseFormat.schema };
      else warnings.push({ type: 'unsupported', feature: 'responseFormat', details: 'JSON without a schema is not enforced by TGI' });
    }
    return { body: { inputs: renderPrompt(options.prompt, warnings), parameters, ...(stream ? { stream: true } : {}) }, warnings };
  },
  parseResponse(body: unknown): SageMakerParsedResponse {
    const item = Array.isArray(body) ? body[0] : body;
    if (!isRecord(item)) throw new SageMakerResponseFormatError('expected [{"generated_text": …}] or {"generated_text": …} from a TGI-style endpoint');
    const text = typeof item['generated_text'] === 'string' ? item['generated_text'] : typeof item['generation'] === 'string' ? item['generation'] : undefined;
    if (text === undefined) throw new SageMakerResponseFormatError('the endpoint answer has no "generated_text"');
    const details = isRecord(item['details']) ? item['details'] : {};
    return {
      content: text === '' ? [] : [{ type: 'text', text }],
      finishReason: finishReasonOf(details['finish_reason']),
      usage: { inputTokens: undefined, outputTokens: numberOrUndefined(details['generated_tokens']) },
    };
  },
  parseStreamEvent(event: unknown): SageMakerStreamEvent[] {
    if (!isRecord(event)) return [];
    if (typeof event['error'] === 'string') return [{ type: 'error', message: event['error'] }];
    const events: SageMakerStreamEvent[] = [];
    const token = isRecord(event['token']) ? event['token'] : undefined;
    if (token && token['special'] !== true && typeof token['text'] === 'string' && token['text'] !== '') events.push({ type: 'text', delta: token['text'] });
    if (isRecord(event['details'])) {
      events.push({ type: 'usage', usage: { inputTokens: undefined, outputTokens: numberOrUndefined(event['details']['generated_tokens']) } });
      events.push({ type: 'finish', finishReason: finishReasonOf(event['details']['finish_reason']) });
    }
    return events;
  },
};
