import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import type { NativeEndpoint } from './native-wire-client.js';

/** The API version Bedrock's Claude models take in the body instead of the `anthropic-version` header. */
export const bedrockAnthropicVersion = 'bedrock-2023-05-31';

type SourceData = string | ArrayBuffer | ArrayBufferView;

const bytesOf = (data: SourceData): Buffer =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** SHA-256 (an HMAC when given a secret) on node:crypto, in the shape the SigV4 signer takes. */
class Sha256 {
  readonly #secret: SourceData | undefined;
  #hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.#secret = secret;
    this.#hash = this.#fresh();
  }
  #fresh(): Hash | Hmac {
    return this.#secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(this.#secret));
  }
  update(data: Uint8Array): void {
    this.#hash.update(data);
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.#hash.digest()));
  }
  reset(): void {
    this.#hash = this.#fresh();
  }
}

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
  const { accessKeyId, secretAccessKey, sessionToken } = options.credentials;
  const signer = new SignatureV4({
    service: 'bedrock',
    region: options.region,
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken !== undefined ? { sessionToken } : {}) },
    sha256: Sha256,
  });
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
      const signed = await signer.sign({
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port !== '' ? { port: Number(url.port) } : {}),
        path: url.pathname,
        query: {},
        headers: { ...headers, host: url.host, 'content-type': 'application/json' },
        body: payload,
      });
      const { host: _host, 'content-type': _type, ...added } = signed.headers;
      return added;
    },
  };
}
