import { createSigV4Signer } from '../aws/sigv4.js';
import type { NativeEndpoint } from './native-wire-client.js';

/** The API version Bedrock's Claude models take in the body instead of the `anthropic-version` header. */
export const bedrockAnthropicVersion = 'bedrock-2023-05-31';

export interface BedrockClaudeEndpointOptions {
  /** `https://bedrock-runtime.{region}.amazonaws.com`, or `BEDROCK_ENDPOINT`. */
  readonly baseURL: string;
  readonly region: string;
  readonly modelId: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string | undefined };
}

/**
 * Anthropic's Messages wire on Amazon Bedrock (InvokeModel): `POST /model/{id}/invoke`
 * (`/invoke-with-response-stream` for a stream, answered in AWS event-stream framing, see
 * aws-event-stream.ts), the client's body without `model` (in the URL) and `stream` (in the path),
 * with `anthropic_version: "bedrock-2023-05-31"` in place of the `anthropic-version` header and the
 * client's `anthropic-beta` header as the body's `anthropic_beta` array. Signed with SigV4
 * (service `bedrock`) over the exact payload.
 */
export function bedrockClaudeEndpoint(options: BedrockClaudeEndpointOptions): NativeEndpoint {
  const base = `${options.baseURL}/model/${encodeURIComponent(options.modelId)}`;
  const sign = createSigV4Signer({ service: 'bedrock', region: options.region, credentials: options.credentials });
  return {
    url: `${base}/invoke`,
    streamUrl: `${base}/invoke-with-response-stream`,
    headers: {},
    dropHeaders: ['anthropic-version', 'anthropic-beta'],
    bodyOf: (body, headers) => {
      const { model: _model, stream: _stream, ...rest } = body;
      const betas = (headers['anthropic-beta'] ?? '')
        .split(',')
        .map((value) => value.trim())
        .filter((value) => value !== '');
      return { ...rest, ...(betas.length > 0 ? { anthropic_beta: betas } : {}), anthropic_version: bedrockAnthropicVersion };
    },
    authorize: async (url, payload, headers) => {
      const signed = await sign({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, body: payload });
      const { host: _host, 'content-type': _type, ...added } = signed;
      return added;
    },
  };
}
