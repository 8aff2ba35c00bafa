import type { ConversationTurn, GenerateOptions } from '../generate-options.js';

/** The part of an OpenAI chat-completions request the gateway understands (the schema checks shapes). */
export interface OpenAiChatRequest {
  readonly model: string;
  readonly messages: readonly OpenAiMessage[];
  readonly temperature?: number;
  readonly max_tokens?: number;
  readonly max_completion_tokens?: number;
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly response_format?: { readonly type: 'text' | 'json_object' | 'json_schema'; readonly json_schema?: { readonly name?: string; readonly schema?: Record<string, unknown> } };
  readonly tools?: readonly unknown[];
  readonly user?: string;
}

export interface OpenAiMessage {
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  readonly content: string | null | readonly { readonly type: string; readonly text?: string; readonly image_url?: { readonly url: string } }[];
}

/** A request the gateway cannot serve, with the OpenAI `param` it concerns. */
export class UnsupportedChatRequest extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
    this.name = 'UnsupportedChatRequest';
  }
}

function textOf(message: OpenAiMessage, index: number): { text: string; images: string[] } {
  if (message.content === null) return { text: '', images: [] };
  if (typeof message.content === 'string') return { text: message.content, images: [] };
  const texts: string[] = [];
  const images: string[] = [];
  message.content.forEach((part, partIndex) => {
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part.type === 'image_url' && part.image_url !== undefined) images.push(part.image_url.url);
    else throw new UnsupportedChatRequest(`content part type "${part.type}" is not supported`, `messages[${index}].content[${partIndex}].type`);
  });
  return { text: texts.join('\n'), images };
}

/**
 * The toolkit's generate options for an OpenAI chat request: system and developer messages become
 * the system prompt, the last message (a user's) the input, the rest the conversation history.
 *
 * @throws UnsupportedChatRequest for what the gateway does not serve yet (client-side tools, tool
 * results) or a conversation that does not end with a user message.
 */
export function toGenerateOptions(request: OpenAiChatRequest): GenerateOptions {
  if (request.tools !== undefined && request.tools.length > 0) throw new UnsupportedChatRequest('client-side tools are not supported by this gateway yet', 'tools');
  const system: string[] = [];
  const turns: { role: 'user' | 'assistant'; text: string; images: string[] }[] = [];
  request.messages.forEach((message, index) => {
    if (message.role === 'tool') throw new UnsupportedChatRequest('tool result messages are not supported by this gateway yet', `messages[${index}].role`);
    const { text, images } = textOf(message, index);
    if (message.role === 'system' || message.role === 'developer') system.push(text);
    else turns.push({ role: message.role, text, images });
  });
  const last = turns.at(-1);
  if (last === undefined || last.role !== 'user') throw new UnsupportedChatRequest('the conversation must end with a user message', 'messages');
  const history: ConversationTurn[] = turns.slice(0, -1).map((turn) => ({ role: turn.role, content: turn.text }));
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  const schema = request.response_format?.type === 'json_schema' ? request.response_format.json_schema?.schema : request.response_format?.type === 'json_object' ? { type: 'object' } : undefined;
  return {
    input: { text: last.text },
    ...(system.length > 0 ? { systemPrompt: system.join('\n\n') } : {}),
    ...(history.length > 0 ? { conversationHistory: history } : {}),
    ...(last.images.length > 0 ? { images: last.images } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(schema !== undefined ? { schema } : {}),
    // OpenAI clients bring their own tools (not yet supported); the gateway never runs ours for them.
    disableTools: true,
  };
}

/** OpenAI's finish_reason for the AI SDK's. */
export function openAiFinishReason(reason: string): 'stop' | 'length' | 'tool_calls' | 'content_filter' {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}
