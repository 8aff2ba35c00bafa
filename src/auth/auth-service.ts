import type { KeyPolicy } from '../governance/key-policy.js';
import { randomUUID } from 'node:crypto';
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { ApiKeyRecord, ApiKeyStore, MerchantRole, MerchantStore, SessionStore, UserRecord, UserStore } from '../ports/state-store.js';
import type { Clock } from '../time/clock.js';
import { generateApiKey, hashApiKey, isApiKeyFormat } from './api-key.js';
import { unknownOrigin, type AttemptOrigin, type AuthAttempt, type AuthAttemptRecorder } from './auth-attempt.js';
import type {
  ApiKeyAuthentication,
  AuthSession,
  Authentication,
  BearerAuthentication,
  CreatedApiKey,
  LoginResult,
  MerchantMembershipInfo,
  MeResult,
  MerchantsResult,
  OnboardMerchantResult,
  RevokeApiKeyResult,
  SignupResult,
  SwitchMerchantResult,
} from './auth-outcomes.js';
import { digestsEqual } from './constant-time.js';
import { LoginThrottle, type LoginThrottlePolicy } from './login-throttle.js';
import { defaultScryptParams, hashPassword, verifyPassword, type ScryptParams } from './password-hash.js';
import { checkPassword } from './password-policy.js';
import type { SessionClaims, TokenService } from './token-service.js';

export interface AuthServiceDependencies {
  readonly users: UserStore;
  readonly apiKeys: ApiKeyStore;
  readonly sessions: SessionStore;
  readonly merchants: MerchantStore;
  readonly tokens: TokenService;
  readonly clock: Clock;
  /** User ids, API key ids and the random part of onboarded merchant ids; UUID v4 by default. */
  readonly generateId?: () => string;
  /** scrypt cost for new hashes (tests inject a low `logN`); defaults to `defaultScryptParams`. */
  readonly passwordHashing?: ScryptParams;
  readonly loginThrottle?: LoginThrottlePolicy;
  /**
   * Receives the audit trail: every password login (success, failure, throttled) and every
   * refused API key. Unset: nothing is audited (unit tests, library use).
   */
  readonly audit?: AuthAttemptRecorder;
}

export interface SignupInput {
  readonly email: string;
  readonly password: string;
  /** An existing merchant to join as admin; trimmed, and '' means none (decision-engine). */
  readonly merchantId?: string | null | undefined;
}

/** `DE_` + 8 hex: the display prefix of a key (as listings show it), never more of a presented key. */
const keyDisplayPrefixLength = 11;

/** Tries at a fresh merchant id before giving up; 48 random bits make even a second try unlikely. */
const merchantIdAttempts = 3;

/**
 * Operator access: signup, login, sessions, merchant membership and API keys, over the state-store
 * ports. Expected failures come back as `kind` values (see `AuthFailure` for the wire mapping);
 * store outages and bugs throw. Knows no HTTP.
 */
export class AuthService {
  readonly #deps: AuthServiceDependencies;
  readonly #generateId: () => string;
  readonly #passwordHashing: ScryptParams;
  readonly #throttle: LoginThrottle;
  #dummyHash: Promise<string> | undefined;

  constructor(dependencies: AuthServiceDependencies) {
    this.#deps = dependencies;
    this.#generateId = dependencies.generateId ?? randomUUID;
    this.#passwordHashing = dependencies.passwordHashing ?? defaultScryptParams;
    this.#throttle = new LoginThrottle(dependencies.sessions, dependencies.loginThrottle);
  }

  /**
   * Creates a user. Checks in decision-engine's order: email taken, weak password, unknown
   * merchant. Joining a merchant makes the user its admin, as decision-engine does (so signup to an
   * existing merchant should sit behind the admin secret; the API layer decides).
   */
  async signup(input: SignupInput): Promise<SignupResult> {
    const { users, merchants, clock } = this.#deps;
    if (await users.findByEmail(input.email)) return { kind: 'email_taken' };
    const password = checkPassword(input.password, input.email);
    if (!password.ok) return { kind: 'weak_password', reason: password.reason, message: password.message };
    const merchantId = input.merchantId?.trim() ?? '';
    if (merchantId !== '' && !(await merchants.get(merchantId))) return { kind: 'merchant_not_found' };

    const user: UserRecord = {
      userId: this.#generateId(),
      email: input.email,
      passwordHash: await hashPassword(input.password, this.#passwordHashing),
      currentMerchantId: merchantId,
      isActive: true,
      createdAt: clock.now(),
    };
    // Two signups racing for one email both pass the lookup; the store settles it.
    if ((await users.create(user)) === 'exists') return { kind: 'email_taken' };
    if (merchantId !== '') await users.addMembership({ userId: user.userId, merchantId, role: 'admin' });
    return { kind: 'ok', session: await this.#sessionFor(user, merchantId) };
  }

  /**
   * Signs a user in. Unknown email and wrong password give the same answer, and an unknown email
   * still pays for one scrypt verification, so neither the answer nor its timing tells whether an
   * account exists. `inactive` is only told to someone who knows the password. Every outcome is
   * an audit record (with the email, never the password), in the user's current merchant's log.
   */
  async login(email: string, password: string, origin: AttemptOrigin): Promise<LoginResult> {
    const throttle = await this.#throttle.check(email, origin.sourceAddress);
    if (!throttle.allowed) {
      this.#recordLogin(await this.#deps.users.findByEmail(email), email, origin, 'throttled');
      return { kind: 'throttled', retryAfterMs: throttle.retryAfterMs };
    }

    const user = await this.#deps.users.findByEmail(email);
    const passwordMatches = user
      ? await verifyPassword(password, user.passwordHash)
      : await verifyPassword(password, await this.#dummyPasswordHash()).then(() => false);
    if (!user || !passwordMatches) {
      await this.#throttle.recordFailure(email, origin.sourceAddress);
      this.#recordLogin(user, email, origin, 'invalid_credentials');
      return { kind: 'invalid_credentials' };
    }
    await this.#throttle.recordSuccess(email);
    if (!user.isActive) {
      this.#recordLogin(user, email, origin, 'inactive');
      return { kind: 'inactive' };
    }
    this.#recordLogin(user, email, origin, null);
    return { kind: 'ok', session: await this.#sessionFor(user, await this.#homeMerchant(user)) };
  }

  /** Revokes this token only; the user's other sessions stay valid (decision-engine behaviour). */
  async logout(claims: SessionClaims): Promise<void> {
    await this.#deps.tokens.revoke(claims);
  }

  /** The signed-in user, in the merchant context of the token. */
  async me(claims: SessionClaims): Promise<MeResult> {
    // An SSO handoff session has no user row (decision-engine answers from the claims).
    if (claims.tokenType === 'hs_redirect') {
      const merchants = await this.#grantedMerchants(claims);
      return {
        kind: 'ok',
        profile: { userId: claims.userId, email: claims.email, merchantId: claims.merchantId, role: claims.role, emailVerified: true, merchants },
      };
    }
    const user = await this.#activeUser(claims);
    if (user.kind !== 'ok') return user;
    return {
      kind: 'ok',
      profile: {
        userId: user.user.userId,
        email: user.user.email,
        merchantId: claims.merchantId,
        role: claims.role,
        emailVerified: true,
        merchants: await this.#membershipInfos(user.user.userId),
      },
    };
  }

  async merchants(claims: SessionClaims): Promise<MerchantsResult> {
    if (claims.tokenType === 'hs_redirect') return { kind: 'ok', merchants: await this.#grantedMerchants(claims) };
    const user = await this.#activeUser(claims);
    if (user.kind !== 'ok') return user;
    return { kind: 'ok', merchants: await this.#membershipInfos(user.user.userId) };
  }

  /**
   * Issues a token for another merchant the user belongs to and makes it the user's current one.
   * Not a member answers `merchant_not_found`, as decision-engine does (it does not confirm that
   * the merchant exists). The old token stays valid.
   */
  async switchMerchant(claims: SessionClaims, merchantId: string): Promise<SwitchMerchantResult> {
    if ((claims.tokenType ?? 'standard') !== 'standard') return this.#switchWithinGrant(claims, merchantId.trim());
    const user = await this.#activeUser(claims);
    if (user.kind !== 'ok') return user;
    const target = merchantId.trim();
    const memberships = await this.#deps.users.memberships(user.user.userId);
    if (!memberships.some((membership) => membership.merchantId === target)) return { kind: 'merchant_not_found' };
    await this.#deps.users.setCurrentMerchant(user.user.userId, target);
    return { kind: 'ok', session: await this.#sessionFor(user.user, target) };
  }

  /** Creates a merchant (`merchant_` + 12 hex), makes the user its admin and switches to it. */
  async onboardMerchant(claims: SessionClaims, merchantName: string): Promise<OnboardMerchantResult> {
    const user = await this.#activeUser(claims);
    if (user.kind !== 'ok') return user;
    const merchantId = await this.#createMerchant(merchantName);
    const { userId } = user.user;
    await this.#deps.users.addMembership({ userId, merchantId, role: 'admin' });
    await this.#deps.users.setCurrentMerchant(userId, merchantId);
    return { kind: 'ok', onboarded: { merchantName, session: await this.#sessionFor(user.user, merchantId) } };
  }

  /**
   * Mints an API key for a merchant. Like decision-engine, it neither checks that the merchant
   * exists nor who asks; ownership rules, if any, belong to the API layer.
   */
  async createApiKey(merchantId: string, description: string | null, policy?: KeyPolicy): Promise<CreatedApiKey> {
    const key = generateApiKey();
    const record: ApiKeyRecord = {
      keyId: this.#generateId(),
      merchantId,
      keyHash: key.hash,
      keyPrefix: key.prefix,
      description,
      isActive: true,
      createdAt: this.#deps.clock.now(),
      ...(policy !== undefined && (policy.limits !== undefined || policy.cache !== undefined || policy.mcp !== undefined) ? { policy } : {}),
    };
    await this.#deps.apiKeys.create(record);
    return { record, rawKey: key.raw };
  }

  /** Active and revoked keys; records hold only hashes and prefixes. */
  async listApiKeys(merchantId: string): Promise<readonly ApiKeyRecord[]> {
    return this.#deps.apiKeys.listByMerchant(merchantId);
  }

  /** Idempotent: revoking a revoked key is `ok` again. */
  async revokeApiKey(keyId: string): Promise<RevokeApiKeyResult> {
    const previous = await this.#deps.apiKeys.revoke(keyId);
    return previous ? { kind: 'ok', keyId } : { kind: 'api_key_not_found' };
  }

  /**
   * Checks an `x-api-key` value. The format is checked before hashing; the store is searched by
   * hash, and the hash it returns is compared again in constant time, so no comparison of the raw
   * key (or of its hash) ever short-circuits on the first differing byte. A refused key is an
   * audit record (its display prefix when well-formed, never the key), in the key's merchant's
   * log when the key is known (revoked).
   */
  async authenticateApiKey(raw: string, origin: AttemptOrigin = unknownOrigin): Promise<ApiKeyAuthentication> {
    if (!isApiKeyFormat(raw)) return this.#refuseKey('invalid_api_key', null, null, origin);
    const hash = hashApiKey(raw);
    const record = await this.#deps.apiKeys.findByHash(hash);
    const prefix = raw.slice(0, keyDisplayPrefixLength);
    if (!record || !digestsEqual(record.keyHash, hash)) return this.#refuseKey('invalid_api_key', prefix, null, origin);
    if (!record.isActive) return this.#refuseKey('revoked_api_key', prefix, record, origin);
    return { kind: 'ok', merchantId: record.merchantId, keyId: record.keyId, ...(record.policy !== undefined ? { policy: record.policy } : {}) };
  }

  async authenticateBearer(token: string, options: { readonly allowRevoked?: boolean } = {}): Promise<BearerAuthentication> {
    const verification = await this.#deps.tokens.verify(token, options);
    return verification.ok ? { kind: 'ok', claims: verification.claims } : { kind: 'invalid_token', reason: verification.reason };
  }

  /**
   * decision-engine's precedence for protected routes: a Bearer token wins and, when invalid,
   * never falls back to an API key; then the API key; neither is `missing_credentials`.
   *
   * @remarks The admin-secret pass and compat mode (`apiKeyAuthEnabled=false`) depend on config
   * and stay in the API layer, between the Bearer and the API-key steps. `allowRevoked` accepts a
   * logged-out (but otherwise valid) token: only logout asks for it.
   */
  async authenticate(credentials: {
    readonly bearerToken?: string | undefined;
    readonly apiKey?: string | undefined;
    readonly allowRevoked?: boolean;
    /** The request, for the audit record of a refused key. */
    readonly origin?: AttemptOrigin;
  }): Promise<Authentication> {
    if (credentials.bearerToken !== undefined) {
      const bearer = await this.authenticateBearer(credentials.bearerToken, { allowRevoked: credentials.allowRevoked === true });
      return bearer.kind === 'ok' ? { kind: 'ok', context: { via: 'bearer', claims: bearer.claims } } : bearer;
    }
    if (credentials.apiKey === undefined) return { kind: 'missing_credentials' };
    const key = await this.authenticateApiKey(credentials.apiKey, credentials.origin);
    return key.kind === 'ok'
      ? { kind: 'ok', context: { via: 'api_key', merchantId: key.merchantId, keyId: key.keyId, ...(key.policy !== undefined ? { policy: key.policy } : {}) } }
      : key;
  }

  #recordLogin(user: UserRecord | undefined, email: string, origin: AttemptOrigin, reason: 'invalid_credentials' | 'inactive' | 'throttled' | null): void {
    this.#audit({
      credential: 'password',
      outcome: reason === null ? 'success' : 'failure',
      reason,
      merchantId: user !== undefined && user.currentMerchantId !== '' ? user.currentMerchantId : null,
      subject: email,
      userId: user?.userId ?? null,
      keyId: null,
      origin,
    });
  }

  #refuseKey(reason: 'invalid_api_key' | 'revoked_api_key', prefix: string | null, record: ApiKeyRecord | null, origin: AttemptOrigin): ApiKeyAuthentication {
    this.#audit({
      credential: 'api_key',
      outcome: 'failure',
      reason,
      merchantId: record?.merchantId ?? null,
      subject: prefix,
      userId: null,
      keyId: record?.keyId ?? null,
      origin,
    });
    return { kind: reason };
  }

  #audit(attempt: AuthAttempt): void {
    this.#deps.audit?.(attempt);
  }

  /** The merchant an SSO handoff or super-admin view session is limited to: the one it is on. */
  async #grantedMerchants(claims: SessionClaims): Promise<readonly MerchantMembershipInfo[]> {
    const merchantName = (await this.#deps.merchants.get(claims.merchantId))?.merchantName ?? null;
    return [{ merchantId: claims.merchantId, merchantName, role: claims.role }];
  }

  /**
   * decision-engine's switch_within_grant: a limited session moves only within its grant, which
   * here is the one merchant it is on; the new token keeps the kind and never outlives the old one.
   */
  async #switchWithinGrant(claims: SessionClaims, target: string): Promise<SwitchMerchantResult> {
    // The same answer whether or not the target exists: a handoff session learns nothing about other ids.
    if (target !== claims.merchantId) return { kind: 'outside_grant' };
    const ttlSeconds = Math.max(1, Math.floor((claims.expiresAt - this.#deps.clock.now()) / 1000));
    const subject = { userId: claims.userId, email: claims.email, merchantId: target, role: claims.role, tokenType: claims.tokenType };
    const issued = await this.#deps.tokens.issue(subject, { ttlSeconds });
    const merchants = claims.tokenType === 'hs_redirect' ? await this.#grantedMerchants(claims) : [];
    return { kind: 'ok', session: { token: issued.token, tokenId: issued.tokenId, expiresAt: issued.expiresAt, ...subject, merchants } };
  }

  async #activeUser(
    claims: SessionClaims,
  ): Promise<{ kind: 'ok'; user: UserRecord } | { kind: 'invalid_token'; reason: 'unknown_user' } | { kind: 'inactive' }> {
    const user = await this.#deps.users.findById(claims.userId);
    if (!user) return { kind: 'invalid_token', reason: 'unknown_user' };
    if (!user.isActive) return { kind: 'inactive' };
    return { kind: 'ok', user };
  }

  /**
   * The merchant a login enters: the user's current one while still a member of it; after a
   * removal, another membership (the first by id), else none (onboarding), so a removed member
   * is never issued a session the membership check would refuse.
   */
  async #homeMerchant(user: UserRecord): Promise<string> {
    if (user.currentMerchantId === '') return '';
    const memberships = await this.#deps.users.memberships(user.userId);
    if (memberships.some((membership) => membership.merchantId === user.currentMerchantId)) return user.currentMerchantId;
    return memberships[0]?.merchantId ?? '';
  }

  async #sessionFor(user: UserRecord, merchantId: string): Promise<AuthSession> {
    const merchants = await this.#membershipInfos(user.userId);
    // No merchant yet: decision-engine's users.role default ('admin'); a merchant without a
    // membership row (data drift) gets the least privilege.
    const role: MerchantRole = merchants.find((membership) => membership.merchantId === merchantId)?.role ?? (merchantId === '' ? 'admin' : 'member');
    const issued = await this.#deps.tokens.issue({ userId: user.userId, email: user.email, merchantId, role });
    return {
      token: issued.token,
      tokenId: issued.tokenId,
      expiresAt: issued.expiresAt,
      userId: user.userId,
      email: user.email,
      merchantId,
      role,
      merchants,
    };
  }

  async #membershipInfos(userId: string): Promise<readonly MerchantMembershipInfo[]> {
    const memberships = await this.#deps.users.memberships(userId);
    return Promise.all(
      memberships.map(async ({ merchantId, role }) => ({
        merchantId,
        merchantName: (await this.#deps.merchants.get(merchantId))?.merchantName ?? null,
        role,
      })),
    );
  }

  async #createMerchant(merchantName: string): Promise<string> {
    for (let attempt = 0; attempt < merchantIdAttempts; attempt += 1) {
      const merchantId = `merchant_${this.#generateId().replace(/-/g, '').slice(0, 12)}`;
      const outcome = await this.#deps.merchants.create({
        merchantId,
        merchantName,
        deciderInput: null,
        createdAt: this.#deps.clock.now(),
      });
      if (outcome === 'created') return merchantId;
    }
    throw new SwitchyardError('SY_INTERNAL', { message: 'could not find a free merchant id', details: { attempts: merchantIdAttempts } });
  }

  /** A real hash of a random password, made once with the current parameters, for unknown emails. */
  #dummyPasswordHash(): Promise<string> {
    this.#dummyHash ??= hashPassword(randomUUID(), this.#passwordHashing).catch((error: unknown) => {
      this.#dummyHash = undefined; // let the next login try again instead of caching the failure
      throw error;
    });
    return this.#dummyHash;
  }
}
