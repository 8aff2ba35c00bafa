import type { GuardrailSettings } from '../generated/schema-types.js';
import type { PromptCacheMark } from './language-model-client.js';
import type { CallControls } from './call-controls.js';
import type { FileInput } from './documents/document-input.js';
import type { CallAttribution } from './llm-call-record.js';
import type { AIProviderName } from './provider-name.js';
import type { JsonSchema, ToolDefinition } from './tool-definition.js';

/**
 * A turn of earlier conversation given to `generate`; `system` turns are folded into the system
 * prompt. An assistant turn may carry the tool calls it made, and a `tool` turn answers one of them
 * (the caller ran the tool: see `clientTools`).
 */
export type ConversationTurn = (
  | { readonly role: 'user' | 'system'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly { readonly toolCallId: string; readonly toolName: string; readonly args: Readonly<Record<string, unknown>> }[];
    }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly toolName: string; readonly content: string }
) & {
  /** A prompt-cache breakpoint after this turn (not on `system` turns: use `promptCache.system`). */
  readonly cacheControl?: PromptCacheMark;
};

/** Prompt-cache breakpoints of a call for providers that take them (Anthropic, Claude on Bedrock and Vertex). */
export interface PromptCacheMarks {
  /** After the system prompt. */
  readonly system?: PromptCacheMark;
  /** After the user message of `input`. */
  readonly input?: PromptCacheMark;
}

/**
 * A tool the caller runs itself: declared to the model, never executed here. When the model calls
 * one, the call ends with `finishReason` `tool-calls` and the calls in `toolCalls`; the caller runs
 * them and sends the results back as `tool` turns of `conversationHistory`.
 */
export interface ClientTool {
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the arguments. */
  readonly parameters?: Readonly<Record<string, unknown>>;
}

/**
 * A schema for structured output: a JSON Schema object, or a zod schema (converted with
 * `z.toJSONSchema` and also used to validate the answer).
 */
export type OutputSchema = JsonSchema | { readonly _zod: unknown };

/** Per-call override of the evaluation judge (else env `NEUROLINK_EVALUATION_*`). */
export interface EvaluationOptions {
  readonly provider?: string;
  readonly model?: string;
  /** Milliseconds or timeout text; default 10000. */
  readonly timeout?: number | string;
  /** Minimum passing overall score, 1–10 (else `NEUROLINK_EVALUATION_THRESHOLD`, default 7); the result says `passed`. */
  readonly threshold?: number;
}

/**
 * Options of `generate` (current form). See docs/toolkit.md for bounds. The call controls
 * (`topP`, `topK`, `stopSequences`, `toolChoice`, `parallelToolCalls`, `reasoning`,
 * `providerHeaders`) are passed on to the provider; see `CallControls`.
 */
export interface GenerateOptions extends CallControls {
  readonly input?: { readonly text: string };
  /** @deprecated Legacy call form; use `input: { text }`. Warned about once per process. */
  readonly prompt?: string;
  /**
   * `text` (default), `structured` or `json`. With `schema` the answer is validated against it;
   * `json`/`structured` without one asks the model for JSON only and parses it into `object`.
   */
  readonly output?: { readonly format?: 'text' | 'structured' | 'json' };
  /** A provider kind, an alias (`claude`, `gemini`…) or `auto`. */
  readonly provider?: AIProviderName | string;
  readonly model?: string;
  /** 0..1, default 0.7 (with `topP` and no temperature: the provider's own default). The LLM gateway never goes through these options, so its clients get no such default. */
  readonly temperature?: number;
  /** Integer 1..200000, default 1000. */
  readonly maxTokens?: number;
  readonly systemPrompt?: string;
  readonly schema?: OutputSchema;
  /** Milliseconds, or text `30s`, `1.5s`, `2m`, `0.5m`, `1h`; covers the whole call. */
  readonly timeout?: number | string;
  readonly disableTools?: boolean;
  readonly enableAnalytics?: boolean;
  readonly enableEvaluation?: boolean;
  /** Echoed into `analytics.context`. */
  readonly context?: Readonly<Record<string, unknown>>;
  /** Base64 data URLs (`data:image/png;base64,…`) for vision-capable models; http(s) URLs too with `allowImageUrls`. */
  readonly images?: readonly string[];
  /**
   * Take http(s) URLs in `images` (default false): the provider fetches them, or the AI SDK
   * downloads them in this process for a provider that cannot, so only allow URLs you trust.
   */
  readonly allowImageUrls?: boolean;
  /**
   * PDF and CSV documents beside the prompt: base64 data URLs (`data:application/pdf;base64,…`,
   * `data:text/csv;base64,…`) or `{ data: Uint8Array, mimeType, name? }`; at most 10, each at most
   * 10 MiB. Their text is extracted here (PDF with pdf.js, CSV parsed and re-quoted) and sent as
   * text, so every provider can read them; an unreadable file is an `InvalidRequestError` naming it.
   */
  readonly files?: readonly FileInput[];
  /** Model↔tool round trips, integer 1..20, default 5. */
  readonly maxSteps?: number;
  /** Tools the caller runs itself (declared to the model, never executed here); offered even with `disableTools`. */
  readonly clientTools?: readonly ClientTool[];
  /** Extra tools for this call only (on top of built-in, registered custom and MCP tools). */
  readonly tools?: readonly ToolDefinition[];
  readonly conversationHistory?: readonly ConversationTurn[];
  /** Prompt-cache breakpoints after the system prompt and the input (history turns carry their own `cacheControl`). */
  readonly promptCache?: PromptCacheMarks;
  /** Tools the caller grants for this call when they are flagged `requiresConfirmation`. */
  readonly confirmedTools?: readonly string[];
  /** Cancels the call (and a whole stream). */
  readonly abortSignal?: AbortSignal;
  readonly evaluation?: EvaluationOptions;
  /** Domain hint handed to the judge (`evaluationDomain` in NeuroLink). */
  readonly evaluationDomain?: string;
  /** Who the call is for (merchant, user, request, batch); goes into its `llm.call` record only. */
  /**
   * Guards this call adds (issue 38) to the toolkit's (`new NeuroLink({ guardrails })`) and the defaults
   * (card numbers masked); like every guardrail layer, it can only add guards or make them stricter.
   */
  readonly guardrails?: GuardrailSettings;
  readonly attribution?: CallAttribution;
  /**
   * Wraps each tool the toolkit runs itself inside this call (built-in, custom, MCP, the call's own
   * `tools`): `NeuroLink` sets it to put the call's guard session around their arguments and results
   * (issue 38), so what a tool hands back goes through the input guards before the model reads it.
   */
  readonly toolGuard?: (tool: ToolDefinition) => ToolDefinition;
}

/** Options of `stream`: the generate options plus streaming hints. */
export interface StreamOptions extends GenerateOptions {
  readonly output?: {
    readonly format?: 'text' | 'structured' | 'json';
    /**
     * `chunkSize` (integer 1..1048576): provider deltas longer than this many characters are cut
     * into several chunks. `bufferSize` (same bounds) and `enableProgress` are validated and
     * accepted for compatibility; chunks are never held back to fill a buffer.
     */
    readonly streaming?: { readonly chunkSize?: number; readonly bufferSize?: number; readonly enableProgress?: boolean };
  };
}
