import { readCallControls, type CallControls } from '../call-controls.js';
import type { ChatMessage, DeclaredTool, MessagePart, PromptCacheMark, ToolCallRecord } from '../language-model-client.js';
import { readClientTools, readImages, readInputText } from '../normalize-options.js';
import { prepareSchema, type PreparedSchema } from '../output-schema.js';
import type { ProviderCallRequest } from '../provider-calls.js';
import type { JsonSchema } from '../tool-definition.js';

/** A turn of the conversation before the last user message, as a wire mapper reads it. */
export type TranslatedTurn = (
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCallRecord[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly toolName: string; readonly content: string }
) & { readonly cacheControl?: PromptCacheMark | undefined };

/** A tool the client runs, as its wire declares it. */
export interface TranslatedTool {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: Readonly<Record<string, unknown>>;
}

/** What a wire mapper reads from a request, in the same words on every wire. */
export interface TranslatedConversation {
  /** System and developer text, joined (an empty one is none). */
  readonly system?: string | undefined;
  /** A prompt-cache breakpoint after the system prompt. */
  readonly systemCache?: PromptCacheMark | undefined;
  /** The turns before the last user message (all of them when the conversation ends with tool results). */
  readonly history: readonly TranslatedTurn[];
  /** The last user message; absent when the conversation continues from tool results. */
  readonly input?: { readonly text: string; readonly images: readonly string[]; readonly cacheControl?: PromptCacheMark | undefined } | undefined;
  /** Whether `input.images` may be http(s) URLs (GATEWAY_ALLOW_IMAGE_URLS); else base64 data URLs only. */
  readonly allowImageUrls: boolean;
  readonly temperature?: number | undefined;
  readonly maxTokens?: number | undefined;
  /** Structured output: the answer must be JSON matching this schema. */
  readonly schema?: Readonly<Record<string, unknown>> | undefined;
  readonly clientTools: readonly TranslatedTool[];
  /** Sampling and tool-use controls, and headers for one provider kind (the client's `anthropic-*` for an Anthropic upstream). */
  readonly controls: CallControls;
}

/**
 * A gateway request translated for the provider-protocol layer: the port's request, with only what
 * the client sent (no toolkit default: no temperature, no output limit unless asked, no tools of the
 * gateway's own), and the schema its answer is checked against when it asked for structured output.
 */
export interface TranslatedCall {
  readonly request: ProviderCallRequest;
  /** Set for `response_format`/`text.format` JSON: the answer is checked and rendered as its JSON. */
  readonly schema?: PreparedSchema | undefined;
}

/**
 * The layer's request for a translated conversation, checked as the toolkit checks a call: a
 * non-empty user message, images as base64 data URLs (or URLs when allowed), client tools' names,
 * the controls' ranges, a compilable schema; each refusal an `InvalidRequestError` naming the field
 * in the toolkit's words, answered 400.
 */
export function translatedCallOf(conversation: TranslatedConversation): TranslatedCall {
  const controls = readCallControls(conversation.controls as Readonly<Record<string, unknown>>);
  const clientTools: DeclaredTool[] = readClientTools(conversation.clientTools.length > 0 ? conversation.clientTools : undefined);
  const schema = conversation.schema === undefined ? undefined : prepareSchema(conversation.schema as JsonSchema, 'toolkit');
  const messages: ChatMessage[] = conversation.history.map(messageOf);
  const { input } = conversation;
  if (input !== undefined) {
    const text = readInputText(input.text);
    const images = readImages(input.images.length > 0 ? input.images : undefined, conversation.allowImageUrls);
    const content: string | MessagePart[] = images.length === 0 ? text : [{ type: 'text', text }, ...images];
    messages.push({ role: 'user', content, ...(input.cacheControl !== undefined ? { cacheControl: input.cacheControl } : {}) });
  }
  const system = conversation.system === '' ? undefined : conversation.system;
  const request: ProviderCallRequest = {
    messages,
    ...(system !== undefined ? { system } : {}),
    ...(system !== undefined && conversation.systemCache !== undefined ? { systemCacheControl: conversation.systemCache } : {}),
    ...(conversation.temperature !== undefined ? { temperature: conversation.temperature } : {}),
    ...controls,
    ...(conversation.maxTokens !== undefined ? { maxTokens: conversation.maxTokens } : {}),
    ...(clientTools.length > 0 ? { clientTools } : {}),
    ...(schema !== undefined ? { schema: schema.json } : {}),
  };
  return schema === undefined ? { request } : { request, schema };
}

function messageOf(turn: TranslatedTurn): ChatMessage {
  const mark = turn.cacheControl !== undefined ? { cacheControl: turn.cacheControl } : {};
  if (turn.role === 'tool') return { role: 'tool', toolCallId: turn.toolCallId, toolName: turn.toolName, content: turn.content, ...mark };
  if (turn.role === 'assistant' && turn.toolCalls !== undefined)
    return { role: 'assistant', content: turn.content, toolCalls: turn.toolCalls.map((call) => ({ ...call, args: { ...call.args } })), ...mark };
  return { role: turn.role, content: turn.content, ...mark };
}
