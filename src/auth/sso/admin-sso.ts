import { createHash } from 'node:crypto';
import { generateApiKey } from '../api-key.js';
import type { MerchantStore, SessionStore } from '../../ports/state-store.js';
import type { AuthSession } from '../auth-outcomes.js';
import type { TokenService } from '../token-service.js';

/** The store namespace of admin SSO handoff codes (decision-engine `hs_sso_code:`). */
export const ssoCodePurpose = 'sso';

export interface AdminSsoConfig {
  /** Life of a code (decision-engine: 60 s). */
  readonly codeTtlSeconds: number;
  /** Life of the session a code is exchanged for (decision-engine `hs_redirect_jwt_expiry_seconds`: 1200). */
  readonly sessionTtlSeconds: number;
}

export interface AdminSsoDependencies {
  readonly sessions: SessionStore;
  readonly merchants: MerchantStore;
  readonly tokens: TokenService;
  /** By default a fresh code made like an API key (`DE_` + 64 hex, 256 random bits), the peer's form. */
  readonly randomCode?: () => string;
}

export type MintCodeResult = { readonly kind: 'ok'; readonly code: string; readonly expiresIn: number } | { readonly kind: 'merchant_not_found' };

export type ExchangeCodeResult = { readonly kind: 'ok'; readonly session: AuthSession } | { readonly kind: 'invalid_code' };

/** What a stored code resolves to. */
interface HandoffGrant {
  readonly merchantId: string;
}

/** SHA-256 hex of a code: what the store keys on, so a store dump redeems nothing. */
export function hashSsoCode(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** The synthetic user of a handoff session (decision-engine: `hs_<merchant_id>`, no user row). */
export function ssoUserIdOf(merchantId: string): string {
  return `hs_${merchantId}`;
}

/**
 * Admin SSO handoff (decision-engine docs/hs-merchant-sso.md): a server holding the admin secret
 * mints a one-time code for a merchant; the browser exchanges it, once, for a short session of
 * kind `hs_redirect` limited to that merchant. The code is stored only as its SHA-256, with a
 * TTL, and consumed atomically (GETDEL), so two tabs racing with one code get one session.
 */
export class AdminSso {
  readonly #config: AdminSsoConfig;
  readonly #deps: AdminSsoDependencies;
  readonly #randomCode: () => string;

  constructor(config: AdminSsoConfig, dependencies: AdminSsoDependencies) {
    this.#config = config;
    this.#deps = dependencies;
    // decision-engine mints the code with its API-key generator, so its clients expect that form.
    this.#randomCode = dependencies.randomCode ?? (() => generateApiKey().raw);
  }

  /** The caller has shown the admin secret; the merchant must exist (decision-engine 404s otherwise). */
  async mint(merchantId: string): Promise<MintCodeResult> {
    if ((await this.#deps.merchants.get(merchantId)) === undefined) return { kind: 'merchant_not_found' };
    const code = this.#randomCode();
    const grant: HandoffGrant = { merchantId };
    await this.#deps.sessions.putOneTimeCode(ssoCodePurpose, hashSsoCode(code), JSON.stringify(grant), this.#config.codeTtlSeconds * 1000);
    return { kind: 'ok', code, expiresIn: this.#config.codeTtlSeconds };
  }

  /** Unknown, expired and already redeemed codes are one answer: `invalid_code`. */
  async exchange(code: string): Promise<ExchangeCodeResult> {
    const payload = await this.#deps.sessions.consumeOneTimeCode(ssoCodePurpose, hashSsoCode(code));
    const grant = payload === undefined ? undefined : parseGrant(payload);
    if (grant === undefined) return { kind: 'invalid_code' };
    const merchant = await this.#deps.merchants.get(grant.merchantId);
    // Deleted between mint and exchange: nothing to hand over.
    if (merchant === undefined) return { kind: 'invalid_code' };
    const userId = ssoUserIdOf(grant.merchantId);
    const issued = await this.#deps.tokens.issue(
      { userId, email: '', merchantId: grant.merchantId, role: 'admin', tokenType: 'hs_redirect' },
      { ttlSeconds: this.#config.sessionTtlSeconds },
    );
    return {
      kind: 'ok',
      session: {
        token: issued.token,
        tokenId: issued.tokenId,
        expiresAt: issued.expiresAt,
        userId,
        email: '',
        merchantId: grant.merchantId,
        role: 'admin',
        merchants: [{ merchantId: grant.merchantId, merchantName: merchant.merchantName, role: 'admin' }],
      },
    };
  }
}

function parseGrant(payload: string): HandoffGrant | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value === 'object' && value !== null && typeof (value as { merchantId?: unknown }).merchantId === 'string') {
      return { merchantId: (value as { merchantId: string }).merchantId };
    }
  } catch {
    return undefined;
  }
  return undefined;
}
