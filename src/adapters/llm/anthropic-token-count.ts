import { APICallError } from '@ai-sdk/provider';
import type { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import type { NativeTokenCountRequest } from '../../generation/language-model-client.js';
import { mapAnthropicError } from './anthropic-error-mapping.js';
import { mapProviderError, providerMessage } from './map-provider-error.js';

export interface AnthropicTokenCountOptions {
  readonly apiKey: string;
  /** Anthropic's API base including `/v1` (ANTHROPIC_BASE_URL); default `https://api.anthropic.com/v1`. */
  readonly baseURL?: string;
  readonly modelId: string;
  readonly fetch?: typeof globalThis.fetch;
}

/** The API version sent when the caller names none (the one the AI SDK's Anthropic provider speaks). */
const defaultVersion = '2023-06-01';

/**
 * Asks Anthropic's own counter (`POST /v1/messages/count_tokens`) for a Messages request's input
 * tokens: the body as the client sent it with this client's model, the caller's
 * `anthropic-version` and `anthropic-beta` forwarded. Answers `{input_tokens}`.
 *
 * @returns `undefined` for a request in another wire's shape.
 * @throws the toolkit's provider errors, mapped as Anthropic's Messages errors are.
 */
export async function countAnthropicTokens(options: AnthropicTokenCountOptions, request: NativeTokenCountRequest): Promise<number | undefined> {
  if (request.wire !== 'anthropic-messages') return undefined;
  const url = `${(options.baseURL ?? 'https://api.anthropic.com/v1').replace(/\/+$/, '')}/messages/count_tokens`;
  const body = { ...request.body, model: options.modelId };
  const toError = (error: unknown): AIProviderError => mapAnthropicError('anthropic', error) ?? mapProviderError('anthropic', error);
  let text: string;
  let status: number;
  let headers: Record<string, string>;
  try {
    const response = await (options.fetch ?? globalThis.fetch)(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'anthropic-version': defaultVersion,
        ...request.headers,
        'x-api-key': options.apiKey,
      },
      body: JSON.stringify(body),
      ...(request.abortSignal === undefined ? {} : { signal: request.abortSignal }),
    });
    status = response.status;
    headers = Object.fromEntries(response.headers.entries());
    text = await response.text();
  } catch (error) {
    throw toError(error);
  }
  if (status < 200 || status >= 300)
    throw toError(
      new APICallError({
        message: providerMessage(text) ?? `status ${status}`,
        url,
        requestBodyValues: body,
        statusCode: status,
        responseHeaders: headers,
        responseBody: text,
      }),
    );
  const counted = parseCount(text);
  if (counted === undefined) throw toError(new Error(`anthropic: count_tokens answered without input_tokens: ${text.slice(0, 200)}`));
  return counted;
}

function parseCount(text: string): number | undefined {
  try {
    const parsed = JSON.parse(text) as { input_tokens?: unknown };
    return typeof parsed.input_tokens === 'number' && Number.isInteger(parsed.input_tokens) && parsed.input_tokens >= 0 ? parsed.input_tokens : undefined;
  } catch {
    return undefined;
  }
}
