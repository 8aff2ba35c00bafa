import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

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

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string | undefined;
}

export interface SigV4Options {
  /** The signing name: `bedrock`, `s3`, … */
  readonly service: string;
  readonly region: string;
  readonly credentials: AwsCredentials;
  /**
   * Escape the path once more for the canonical request (every service but S3, whose canonical
   * path is the request's path as sent). Default true.
   */
  readonly uriEscapePath?: boolean;
}

export interface SigV4Request {
  readonly method: string;
  /** The URL as it will be sent: its path (already encoded) and its query are signed. */
  readonly url: URL;
  /** Headers to sign besides `host` (added here from the URL). */
  readonly headers: Readonly<Record<string, string>>;
  /** The exact payload: its SHA-256 is signed and sent as `x-amz-content-sha256`. */
  readonly body?: string | Uint8Array;
}

/**
 * Signs requests with AWS Signature Version 4 (@smithy/signature-v4 over node:crypto): answers the
 * request's headers plus `host`, `x-amz-date`, `x-amz-content-sha256` (the payload's SHA-256, which
 * S3 requires), `authorization` (and `x-amz-security-token` for a session), signed over the exact
 * payload. Shared by Bedrock (src/adapters/llm/) and the S3 file store (src/adapters/s3/); the
 * credentials stay inside the signer.
 */
export function createSigV4Signer(options: SigV4Options): (request: SigV4Request) => Promise<Record<string, string>> {
  const { accessKeyId, secretAccessKey, sessionToken } = options.credentials;
  const signer = new SignatureV4({
    service: options.service,
    region: options.region,
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken !== undefined ? { sessionToken } : {}) },
    sha256: Sha256,
    uriEscapePath: options.uriEscapePath ?? true,
  });
  return async ({ method, url, headers, body }) => {
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) query[name] = value;
    const signed = await signer.sign({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port !== '' ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query,
      headers: { ...headers, host: url.host },
      ...(body !== undefined ? { body } : {}),
    });
    return signed.headers;
  };
}
