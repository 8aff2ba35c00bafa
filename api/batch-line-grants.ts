import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyPolicy } from '../src/governance/key-policy.js';
import type { ApiKeyStore } from '../src/ports/state-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The grants of in-process OpenAI batch line calls: the composition root builds the line runner over them. */
    readonly batchLines: BatchLineGrants;
  }
}

/** The header an in-process batch line call carries its grant in (never set by clients: an unknown grant is ignored). */
export const batchLineHeader = 'x-switchyard-batch-line';

/** Which batch line a granted call runs: its `llm.call` records carry it. */
export interface BatchLineAttribution {
  readonly batchId: string;
  readonly jobId: string;
  readonly jobAttempt: number;
}

/** The API key a live grant stands for, read fresh, with the line it runs (the guard makes it the request's credential). */
export interface GrantedKey {
  readonly merchantId: string;
  readonly keyId: string;
  readonly policy?: KeyPolicy;
  readonly batchLine: BatchLineAttribution;
}

interface Grant {
  readonly token: string;
  readonly merchantId: string;
  readonly keyId: string;
  readonly line: BatchLineAttribution;
}

/**
 * Lets a batch line run through the gateway's routes as its batch's API key, without the key's
 * secret (only its hash is stored): the runner (api/gateway-line-runner.ts) takes a one-use grant,
 * sends its 256-bit random token in {@link batchLineHeader} with an in-process `inject`, and the
 * guard (api/plugins/authentication.ts) turns a live grant into that key's credential, read fresh
 * so a revoked key is refused as it would be on a direct call. A grant lives only while its call
 * runs; a token nobody granted is ignored and the request authenticates as any other.
 */
export class BatchLineGrants {
  readonly #grants = new Map<string, Grant>();

  constructor(private readonly apiKeys: Pick<ApiKeyStore, 'findById'>) {}

  grant(merchantId: string, keyId: string, line: BatchLineAttribution): { readonly token: string; revoke(): void } {
    const token = randomBytes(32).toString('base64url');
    this.#grants.set(token, { token, merchantId, keyId, line });
    return { token, revoke: () => this.#grants.delete(token) };
  }

  /**
   * The credential of a live grant's key; undefined when `token` grants nothing (then the request
   * authenticates as usual); 'revoked' when the key is gone, inactive, or another merchant's now.
   */
  async credentialOf(token: string | undefined): Promise<GrantedKey | 'revoked' | undefined> {
    if (token === undefined) return undefined;
    const grant = this.#grants.get(token);
    // The map lookup is by the token itself; the comparison only makes the match explicit.
    if (grant === undefined || !timingSafeEqual(Buffer.from(grant.token), Buffer.from(token))) return undefined;
    const key = await this.apiKeys.findById(grant.keyId);
    if (key === undefined || !key.isActive || key.merchantId !== grant.merchantId) return 'revoked';
    return {
      merchantId: key.merchantId,
      keyId: key.keyId,
      ...(key.policy !== undefined ? { policy: key.policy } : {}),
      batchLine: grant.line,
    };
  }
}
