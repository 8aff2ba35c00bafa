import { InvalidRequestError } from './errors/provider-errors.js';
import { providerNames, type ProviderName } from './provider-name.js';

/** How hard a reasoning model thinks before answering; `none` turns reasoning off where a model can. */
export const reasoningLevels = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningLevel = (typeof reasoningLevels)[number];

/**
 * Which tool the model must call: `auto` (its choice), `none` (no tool), `required` (some tool),
 * or the one named.
 */
export type ToolChoice = 'auto' | 'none' | 'required' | { readonly toolName: string };

/**
 * Sampling and tool-use settings passed on to the provider as they are (each provider adapter maps
 * them onto its wire and leaves out what its API does not take), and HTTP headers for one provider
 * kind only (e.g. a client's `anthropic-beta` for an Anthropic upstream).
 */
export interface CallControls {
  /** Nucleus sampling, 0..1. */
  readonly topP?: number;
  /** Sample from the K likeliest tokens only (integer ≥ 0; Anthropic, Google, Ollama take it). */
  readonly topK?: number;
  /** Up to 16 strings that end the answer. */
  readonly stopSequences?: readonly string[];
  /** Applies at every step; only meaningful with tools. */
  readonly toolChoice?: ToolChoice;
  /** `false`: at most one tool call per answer (OpenAI's `parallel_tool_calls`, Anthropic's `disable_parallel_tool_use`). */
  readonly parallelToolCalls?: boolean;
  /** Reasoning effort for models that reason (OpenAI `reasoning_effort`, Anthropic `thinking`); ignored by the others. */
  readonly reasoning?: ReasoningLevel;
  /** Extra request headers by provider kind: sent only when that kind answers (never to another upstream on failover). */
  readonly providerHeaders?: Readonly<Partial<Record<ProviderName, Readonly<Record<string, string>>>>>;
}

const label = 'toolkit';

function fail(option: string, message: string): never {
  throw new InvalidRequestError(`${option} ${message}`, label, option);
}

function readNumber(value: unknown, option: string, min: number, max: number, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max)
    fail(option, `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}; got ${JSON.stringify(value)}`);
  return value;
}

function readStopSequences(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > 16 || value.some((entry) => typeof entry !== 'string' || entry === ''))
    fail('stopSequences', 'must be an array of at most 16 non-empty strings');
  return value as string[];
}

function readToolChoice(value: unknown): ToolChoice | undefined {
  if (value === undefined) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toolName?: unknown }).toolName === 'string' &&
    (value as { toolName: string }).toolName !== ''
  )
    return { toolName: (value as { toolName: string }).toolName };
  return fail('toolChoice', 'must be auto, none, required or { toolName }');
}

function readProviderHeaders(value: unknown): CallControls['providerHeaders'] {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('providerHeaders', 'must be an object { <provider>: { <header>: <value> } }');
  for (const [provider, headers] of Object.entries(value)) {
    if (!(providerNames as readonly string[]).includes(provider)) fail(`providerHeaders.${provider}`, 'names no known provider');
    if (typeof headers !== 'object' || headers === null || Object.values(headers).some((header) => typeof header !== 'string'))
      fail(`providerHeaders.${provider}`, 'must map header names to string values');
  }
  return value as CallControls['providerHeaders'];
}

/** The call controls of generate options, validated; only the ones given are in the result. */
export function readCallControls(options: Readonly<Record<string, unknown>>): CallControls {
  const topP = readNumber(options['topP'], 'topP', 0, 1, false);
  const topK = readNumber(options['topK'], 'topK', 0, 1_000_000, true);
  const stopSequences = readStopSequences(options['stopSequences']);
  const toolChoice = readToolChoice(options['toolChoice']);
  const parallel = options['parallelToolCalls'];
  if (parallel !== undefined && typeof parallel !== 'boolean') fail('parallelToolCalls', 'must be a boolean');
  const reasoning = options['reasoning'];
  if (reasoning !== undefined && !(reasoningLevels as readonly unknown[]).includes(reasoning))
    fail('reasoning', `must be one of ${reasoningLevels.join(', ')}; got ${JSON.stringify(reasoning)}`);
  const providerHeaders = readProviderHeaders(options['providerHeaders']);
  return {
    ...(topP !== undefined ? { topP } : {}),
    ...(topK !== undefined ? { topK } : {}),
    ...(stopSequences !== undefined ? { stopSequences } : {}),
    ...(toolChoice !== undefined ? { toolChoice } : {}),
    ...(parallel !== undefined ? { parallelToolCalls: parallel as boolean } : {}),
    ...(reasoning !== undefined ? { reasoning: reasoning as ReasoningLevel } : {}),
    ...(providerHeaders !== undefined ? { providerHeaders } : {}),
  };
}
