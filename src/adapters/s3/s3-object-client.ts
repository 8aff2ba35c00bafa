import { SwitchyardError } from '../../errors/switchyard-error.js';
import { createSigV4Signer, type AwsCredentials } from '../aws/sigv4.js';

export interface S3ObjectClientOptions {
  /** The server's base URL (`https://s3.eu-west-1.amazonaws.com`, `http://127.0.0.1:7070`); path-style addressing. */
  readonly endpoint: string;
  readonly bucket: string;
  readonly region: string;
  readonly credentials: AwsCredentials;
  /** A request without an answer after this many ms fails (SY_FILE_STORE_UNAVAILABLE). Default 60 s. */
  readonly timeoutMs?: number;
  /** `max-keys` of one ListObjectsV2 page (S3's own cap and default: 1000). */
  readonly listPageSize?: number;
  /** Tests: the fetch to call (default the global one). */
  readonly fetch?: typeof fetch;
}

/** One ListObjectsV2 page: the keys under a prefix and the token of the next page. */
interface ListPage {
  readonly keys: readonly string[];
  readonly next: string | undefined;
}

/** RFC 3986 percent-encoding, as SigV4's canonical request wants it (encodeURIComponent leaves !'()* alone). */
function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

const xmlEntities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of an XML element's content: the five named entities and numeric references decoded. */
function xmlText(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, entity: string) =>
    entity.startsWith('#x')
      ? String.fromCodePoint(Number.parseInt(entity.slice(2), 16))
      : entity.startsWith('#')
        ? String.fromCodePoint(Number.parseInt(entity.slice(1), 10))
        : (xmlEntities[entity] ?? ''),
  );
}

/** Every `<name>…</name>` of a flat S3 XML answer (no attributes, no nesting of the same name). */
function xmlValues(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((match) => xmlText(match[1] ?? ''));
}

/**
 * The few S3 calls the file store needs (PutObject, GetObject, DeleteObject, HeadBucket,
 * ListObjectsV2) over fetch, path-style (`<endpoint>/<bucket>/<key>`, so any S3-compatible server
 * and a bucket name with dots work), each signed with SigV4 over its exact payload (the payload's
 * SHA-256 in `x-amz-content-sha256`, so a body altered on the way is refused).
 *
 * Errors: GetObject of a missing key (404 `NoSuchKey`) is `undefined`; every other refusal (a
 * missing bucket, a wrong key or signature, 5xx) and every network failure or timeout is
 * SY_FILE_STORE_UNAVAILABLE naming the operation, the HTTP status and S3's error code, never a
 * credential (S3's own message is left out: a SignatureDoesNotMatch answer echoes what was signed).
 */
export class S3ObjectClient {
  private readonly sign: ReturnType<typeof createSigV4Signer>;
  private readonly base: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: S3ObjectClientOptions) {
    this.sign = createSigV4Signer({ service: 's3', region: options.region, credentials: options.credentials, uriEscapePath: false });
    this.base = `${options.endpoint.replace(/\/+$/, '')}/${encodeRfc3986(options.bucket)}`;
    this.fetch = options.fetch ?? fetch;
  }

  get bucket(): string {
    return this.options.bucket;
  }

  /** HeadBucket: resolves when the bucket is there and these credentials may use it. */
  async checkBucket(): Promise<void> {
    const response = await this.send('HeadBucket', 'HEAD', '', undefined);
    if (!response.ok) throw await this.failure('HeadBucket', response);
  }

  async put(key: string, body: Uint8Array | string, contentType: string): Promise<void> {
    const response = await this.send('PutObject', 'PUT', this.pathOf(key), typeof body === 'string' ? new TextEncoder().encode(body) : body, {
      'content-type': contentType,
    });
    if (!response.ok) throw await this.failure('PutObject', response);
    await response.body?.cancel();
  }

  /** The object's bytes, or undefined when there is no such key. */
  async get(key: string): Promise<Uint8Array | undefined> {
    const response = await this.send('GetObject', 'GET', this.pathOf(key), undefined);
    if (response.ok) return new Uint8Array(await response.arrayBuffer());
    const failure = await this.failure('GetObject', response);
    if (failure.details?.['s3Code'] === 'NoSuchKey' || (response.status === 404 && failure.details?.['s3Code'] === undefined)) return undefined;
    throw failure;
  }

  /** DeleteObject: S3 answers 204 whether or not the key was there. */
  async delete(key: string): Promise<void> {
    const response = await this.send('DeleteObject', 'DELETE', this.pathOf(key), undefined);
    if (!response.ok && response.status !== 404) throw await this.failure('DeleteObject', response);
    await response.body?.cancel();
  }

  /** Every key under `prefix`, page by page (ListObjectsV2 with its continuation token). */
  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.listPage(prefix, token);
      keys.push(...page.keys);
      token = page.next;
    } while (token !== undefined);
    return keys;
  }

  private async listPage(prefix: string, token: string | undefined): Promise<ListPage> {
    const query = new Map<string, string>([
      ['list-type', '2'],
      ['max-keys', String(this.options.listPageSize ?? 1000)],
      ['prefix', prefix],
    ]);
    if (token !== undefined) query.set('continuation-token', token);
    const search = [...query]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]) => `${encodeRfc3986(name)}=${encodeRfc3986(value)}`)
      .join('&');
    const response = await this.send('ListObjectsV2', 'GET', `?${search}`, undefined);
    if (!response.ok) throw await this.failure('ListObjectsV2', response);
    const xml = await response.text();
    const truncated = xmlValues(xml, 'IsTruncated')[0] === 'true';
    const next = xmlValues(xml, 'NextContinuationToken')[0];
    if (truncated && next === undefined) throw this.error('ListObjectsV2', { message: 'a truncated page without NextContinuationToken' });
    return { keys: xmlValues(xml, 'Key'), next: truncated ? next : undefined };
  }

  private pathOf(key: string): string {
    return `/${key.split('/').map(encodeRfc3986).join('/')}`;
  }

  private async send(operation: string, method: string, suffix: string, body: Uint8Array | undefined, headers: Record<string, string> = {}): Promise<Response> {
    const url = new URL(`${this.base}${suffix}`);
    try {
      const signed = await this.sign({ method, url, headers, ...(body !== undefined ? { body } : {}) });
      const { host: _host, ...sent } = signed;
      return await this.fetch(url, {
        method,
        headers: sent,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
      });
    } catch (error) {
      const reason = (error as { name?: unknown }).name === 'TimeoutError' ? 'no answer in time' : 'the server cannot be reached';
      throw this.error(operation, { message: reason, cause: error });
    }
  }

  /** The error of a refused request: its status and S3's error code (from the XML body when there is one). */
  private async failure(operation: string, response: Response): Promise<SwitchyardError> {
    const text = response.status === 204 || operation === 'HeadBucket' ? '' : await response.text().catch(() => '');
    const code = xmlValues(text, 'Code')[0];
    return this.error(operation, { status: response.status, ...(code !== undefined ? { s3Code: code } : {}) });
  }

  private error(operation: string, facts: { status?: number; s3Code?: string; message?: string; cause?: unknown }): SwitchyardError {
    const what =
      facts.message !== undefined
        ? `${operation} failed: ${facts.message} (${new URL(this.options.endpoint).origin})`
        : `${operation} answered ${facts.s3Code !== undefined ? `${facts.s3Code} (HTTP ${facts.status})` : `HTTP ${facts.status}`}`;
    return new SwitchyardError('SY_FILE_STORE_UNAVAILABLE', {
      message: `the file store (S3 bucket ${this.options.bucket}): ${what}`,
      ...(facts.cause !== undefined ? { cause: facts.cause } : {}),
      details: {
        operation,
        bucket: this.options.bucket,
        ...(facts.status !== undefined ? { status: facts.status } : {}),
        ...(facts.s3Code !== undefined ? { s3Code: facts.s3Code } : {}),
      },
      // Throttling, 5xx and the network may pass; a refused signature or a missing bucket will not.
      isRetryable: facts.status === undefined || facts.status >= 500 || facts.s3Code === 'SlowDown',
    });
  }
}
