import { InvalidRequestError } from '../errors/provider-errors.js';
import type { ProviderAttempt } from '../generate-result.js';
import type { CallAttribution } from '../llm-call-record.js';
import { MAX_INPUT_LENGTH } from '../normalize-options.js';
import { parseTimeout } from '../parse-timeout.js';
import { normalizeProviderName, type ProviderName } from '../provider-name.js';

/** 2,048 texts: OpenAI's limit per embeddings request, which the other providers' batches stay under too. */
export const MAX_EMBED_INPUTS = 2048;
/** Largest vector any provider offers today is 3,072 wide; 65,536 only stops nonsense. */
export const MAX_EMBED_DIMENSIONS = 65_536;

export interface EmbedOptions {
  /** One text or several; the answer has one vector per text, in order. */
  readonly input: string | readonly string[];
  /** A provider kind or alias; absent or `auto`: the configured providers that have embeddings, in order. */
  readonly provider?: ProviderName | string;
  /** The provider's embedding model (its default when absent). */
  readonly model?: string;
  /** Shorter vectors, for models that offer them. */
  readonly dimensions?: number;
  /** Milliseconds, or text like `30s`. */
  readonly timeout?: number | string;
  readonly abortSignal?: AbortSignal;
  readonly attribution?: CallAttribution;
}

export interface EmbedResult {
  /** One vector per input text, in input order. */
  readonly embeddings: readonly (readonly number[])[];
  readonly provider: string;
  readonly model: string;
  readonly usage: { readonly inputTokens: number };
  /** Milliseconds for the whole call, failed candidates included. */
  readonly responseTime: number;
  /** Candidates that failed (retryably) before the one that answered. */
  readonly attempts: readonly ProviderAttempt[];
}

/** An embed call after validation: every field known-good. */
export interface NormalizedEmbedRequest {
  readonly values: readonly string[];
  readonly provider: ProviderName | 'auto' | undefined;
  readonly model: string | undefined;
  readonly dimensions: number | undefined;
  readonly timeoutMs: number | undefined;
  readonly abortSignal: AbortSignal | undefined;
  readonly attribution: CallAttribution;
}

function fail(option: string, message: string): never {
  throw new InvalidRequestError(`${option} ${message}`, 'toolkit', option);
}

/** Validates an embed call before any network call; each rejection names the option at fault. */
export function normalizeEmbedOptions(options: EmbedOptions): NormalizedEmbedRequest {
  if (typeof options !== 'object' || options === null) fail('options', 'must be an object { input, provider?, model?, dimensions? }');
  const input: unknown = options.input;
  const values = typeof input === 'string' ? [input] : Array.isArray(input) ? (input as unknown[]) : fail('input', 'must be a string or an array of strings');
  if (values.length === 0) fail('input', 'must name at least one text');
  if (values.length > MAX_EMBED_INPUTS) fail('input', `may hold at most ${MAX_EMBED_INPUTS} texts; got ${values.length}`);
  values.forEach((value, index) => {
    const at = typeof input === 'string' ? 'input' : `input[${index}]`;
    if (typeof value !== 'string') fail(at, 'must be a string');
    if (value === '') fail(at, 'must not be empty');
    if (value.length > MAX_INPUT_LENGTH) fail(at, `must be at most ${MAX_INPUT_LENGTH} characters`);
  });
  let provider: ProviderName | 'auto' | undefined;
  if (options.provider !== undefined) {
    if (typeof options.provider !== 'string') fail('provider', 'must be a string');
    provider = normalizeProviderName(options.provider) ?? fail('provider', `names no known provider: "${options.provider}"`);
  }
  if (options.model !== undefined && (typeof options.model !== 'string' || options.model.trim() === '')) fail('model', 'must be a non-empty string');
  const dimensions = options.dimensions;
  if (dimensions !== undefined && (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_EMBED_DIMENSIONS)) {
    fail('dimensions', `must be an integer from 1 to ${MAX_EMBED_DIMENSIONS}; got ${JSON.stringify(dimensions)}`);
  }
  if (options.abortSignal !== undefined && !(options.abortSignal instanceof AbortSignal)) fail('abortSignal', 'must be an AbortSignal');
  return {
    values: values as string[],
    provider,
    model: options.model,
    dimensions,
    timeoutMs: options.timeout === undefined ? undefined : parseTimeout(options.timeout),
    abortSignal: options.abortSignal,
    attribution: { surface: 'library', ...options.attribution },
  };
}
