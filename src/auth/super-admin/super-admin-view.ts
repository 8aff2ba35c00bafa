import type { MerchantRole, MerchantStore, UserStore } from '../../ports/state-store.js';
import type { AuthSession, MerchantMembershipInfo } from '../auth-outcomes.js';
import type { SessionClaims, TokenService } from '../token-service.js';
import { isRosteredSession } from './roster.js';

/** Why a super-admin request was refused (wire: 403, 403, 404, 401). */
export type SuperAdminRefusal = 'unsupported_session' | 'not_super_admin' | 'merchant_not_found' | 'unknown_user';

export type SuperAdminSessionResult = { readonly kind: 'ok'; readonly session: AuthSession } | { readonly kind: SuperAdminRefusal };

export interface MerchantLookupMember {
  readonly email: string;
  readonly role: MerchantRole;
}

export interface MerchantLookupEntry {
  readonly merchantId: string;
  readonly merchantName: string;
  readonly members: readonly MerchantLookupMember[];
}

export type LookupResult = { readonly kind: 'ok'; readonly merchants: readonly MerchantLookupEntry[] } | { readonly kind: SuperAdminRefusal };

export interface SuperAdminViewDependencies {
  readonly roster: ReadonlySet<string>;
  readonly users: UserStore;
  readonly merchants: MerchantStore;
  readonly tokens: TokenService;
}

/** A query shorter than this (after trimming) finds nothing (decision-engine's minimum). */
export const minLookupQueryLength = 2;

/** Cap on lookup results: a "find the id to enter" helper, not a directory dump. */
export const maxLookupResults = 25;

/**
 * The platform super-admin view (decision-engine enter_merchant / exit_merchant / lookup_merchants):
 * a rostered user enters any merchant in a `super_admin_view` session that keeps their own user id
 * and email (so every action is theirs), and exits back to their own standard session. The roster
 * is read live on every call: removing an email takes effect at the next request.
 */
export class SuperAdminView {
  readonly #deps: SuperAdminViewDependencies;

  constructor(dependencies: SuperAdminViewDependencies) {
    this.#deps = dependencies;
  }

  isSuperAdmin(claims: SessionClaims): boolean {
    return isRosteredSession(this.#deps.roster, claims);
  }

  /** Only from a standard session: a view session exits first, so the way back is never lost. */
  async enter(claims: SessionClaims, merchantId: string): Promise<SuperAdminSessionResult> {
    if ((claims.tokenType ?? 'standard') !== 'standard') return { kind: 'unsupported_session' };
    if (!this.isSuperAdmin(claims)) return { kind: 'not_super_admin' };
    const target = merchantId.trim();
    if ((await this.#deps.merchants.get(target)) === undefined) return { kind: 'merchant_not_found' };
    const issued = await this.#deps.tokens.issue({
      userId: claims.userId,
      email: claims.email,
      merchantId: target,
      role: 'admin',
      tokenType: 'super_admin_view',
    });
    return {
      kind: 'ok',
      session: {
        token: issued.token,
        tokenId: issued.tokenId,
        expiresAt: issued.expiresAt,
        userId: claims.userId,
        email: claims.email,
        merchantId: target,
        role: 'admin',
        merchants: [],
      },
    };
  }

  /** Only from a view session, re-checking the roster; the view token is revoked on the way out. */
  async exit(claims: SessionClaims): Promise<SuperAdminSessionResult> {
    if (claims.tokenType !== 'super_admin_view') return { kind: 'unsupported_session' };
    if (!this.isSuperAdmin(claims)) return { kind: 'not_super_admin' };
    const user = await this.#deps.users.findById(claims.userId);
    if (user === undefined || !user.isActive) return { kind: 'unknown_user' };
    const merchants = await this.#membershipInfos(user.userId);
    const home = user.currentMerchantId !== '' ? user.currentMerchantId : (merchants[0]?.merchantId ?? '');
    const role: MerchantRole = merchants.find((membership) => membership.merchantId === home)?.role ?? (home === '' ? 'admin' : 'member');
    const issued = await this.#deps.tokens.issue({ userId: user.userId, email: user.email, merchantId: home, role, tokenType: 'standard' });
    await this.#deps.tokens.revoke(claims);
    return {
      kind: 'ok',
      session: {
        token: issued.token,
        tokenId: issued.tokenId,
        expiresAt: issued.expiresAt,
        userId: user.userId,
        email: user.email,
        merchantId: home,
        role,
        merchants,
      },
    };
  }

  /**
   * Merchants whose id is exactly the query, then merchants of the user whose email is the query
   * (case-insensitive), each with all its members. An empty or one-character query finds nothing.
   */
  async lookup(claims: SessionClaims, query: string): Promise<LookupResult> {
    if ((claims.tokenType ?? 'standard') !== 'standard') return { kind: 'unsupported_session' };
    if (!this.isSuperAdmin(claims)) return { kind: 'not_super_admin' };
    const trimmed = query.trim();
    if ([...trimmed].length < minLookupQueryLength) return { kind: 'ok', merchants: [] };
    const ids: string[] = [];
    if ((await this.#deps.merchants.get(trimmed)) !== undefined) ids.push(trimmed);
    for (const email of new Set([trimmed, trimmed.toLowerCase()])) {
      const user = await this.#deps.users.findByEmail(email);
      if (user === undefined) continue;
      for (const membership of await this.#deps.users.memberships(user.userId)) {
        if (!ids.includes(membership.merchantId)) ids.push(membership.merchantId);
      }
    }
    const merchants = await Promise.all(ids.slice(0, maxLookupResults).map(async (merchantId) => this.#entryOf(merchantId)));
    return { kind: 'ok', merchants };
  }

  async #entryOf(merchantId: string): Promise<MerchantLookupEntry> {
    const account = await this.#deps.merchants.get(merchantId);
    const memberships = await this.#deps.users.membersOf(merchantId);
    const members = await Promise.all(memberships.map(async ({ userId, role }) => ({ email: (await this.#deps.users.findById(userId))?.email ?? '', role })));
    return {
      merchantId,
      merchantName: account?.merchantName ?? merchantId,
      members: members.filter((member) => member.email !== '').sort((a, b) => a.email.localeCompare(b.email)),
    };
  }

  async #membershipInfos(userId: string): Promise<readonly MerchantMembershipInfo[]> {
    const memberships = await this.#deps.users.memberships(userId);
    return Promise.all(
      memberships.map(async ({ merchantId, role }) => ({ merchantId, merchantName: (await this.#deps.merchants.get(merchantId))?.merchantName ?? null, role })),
    );
  }
}
