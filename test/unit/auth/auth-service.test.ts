import { describe, expect, it } from 'vitest';
import { AuthService } from '../../../src/auth/auth-service.js';
import { hashApiKey } from '../../../src/auth/api-key.js';
import { createTokenService, type SessionClaims } from '../../../src/auth/token-service.js';
import type { ApiKeyStore, UserStore } from '../../../src/ports/state-store.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const password = 'violet stapler orbit';

function setup(overrides: { users?: UserStore; apiKeys?: ApiKeyStore } = {}) {
  const clock = createManualClock(1_700_000_000_000);
  const { sessions, merchants, ...state } = memoryStateStore(clock);
  const users = overrides.users ?? state.users;
  const apiKeys = overrides.apiKeys ?? state.apiKeys;
  const tokens = createTokenService(
    { algorithms: ['HS256'], secret: 's'.repeat(32), issuer: 'switchyard', audience: 'dashboard', ttlSeconds: 3_600 },
    { sessions, clock },
  );
  let counter = 0;
  const generateId = () => `${(++counter).toString(16).padStart(8, '0')}-aaaa-4bbb-8ccc-dddddddddddd`;
  const auth = new AuthService({
    users,
    apiKeys,
    sessions,
    merchants,
    tokens,
    clock,
    generateId,
    passwordHashing: { logN: 4, r: 8, p: 1 },
  });
  return { auth, clock, users, merchants, apiKeys, tokens, sessions };
}

async function claimsOf(auth: AuthService, token: string): Promise<SessionClaims> {
  const result = await auth.authenticateBearer(token);
  if (result.kind !== 'ok') throw new Error(`token did not verify: ${result.reason}`);
  return result.claims;
}

describe('AuthService.signup', () => {
  it('creates a user without a merchant and returns an empty context', async () => {
    const { auth } = setup();
    const result = await auth.signup({ email: 'a@b.com', password });
    expect(result).toMatchObject({ kind: 'ok', session: { email: 'a@b.com', merchantId: '', role: 'admin', merchants: [] } });
  });

  it('links the user as admin to an existing merchant given by id', async () => {
    const { auth, merchants } = setup();
    await merchants.create({ merchantId: 'm1', merchantName: 'Shop', deciderInput: null, createdAt: 0 });
    const result = await auth.signup({ email: 'a@b.com', password, merchantId: ' m1 ' });
    expect(result).toMatchObject({
      kind: 'ok',
      session: { merchantId: 'm1', role: 'admin', merchants: [{ merchantId: 'm1', merchantName: 'Shop', role: 'admin' }] },
    });
  });

  it('treats an empty merchant id as none', async () => {
    const { auth } = setup();
    expect(await auth.signup({ email: 'a@b.com', password, merchantId: '  ' })).toMatchObject({ kind: 'ok' });
  });

  it('answers email_taken first, before password and merchant checks', async () => {
    const { auth } = setup();
    await auth.signup({ email: 'a@b.com', password });
    expect(await auth.signup({ email: 'a@b.com', password: 'short', merchantId: 'nope' })).toEqual({ kind: 'email_taken' });
  });

  it('answers weak_password with the rule before checking the merchant', async () => {
    const { auth } = setup();
    expect(await auth.signup({ email: 'a@b.com', password: 'short', merchantId: 'nope' })).toEqual({
      kind: 'weak_password',
      reason: 'too_short',
      message: 'Password must be at least 10 characters long',
    });
  });

  it('answers merchant_not_found when the merchant id is unknown', async () => {
    const { auth } = setup();
    expect(await auth.signup({ email: 'a@b.com', password, merchantId: 'nope' })).toEqual({ kind: 'merchant_not_found' });
  });

  it('answers email_taken when the store reports a concurrent signup', async () => {
    const inner = memoryStateStore(createManualClock()).users;
    const racing: UserStore = { ...inner, findByEmail: async () => undefined, create: async () => 'exists' };
    const { auth } = setup({ users: racing });
    expect(await auth.signup({ email: 'a@b.com', password })).toEqual({ kind: 'email_taken' });
  });

  it('stores a scrypt hash, never the password', async () => {
    const { auth, users } = setup();
    await auth.signup({ email: 'a@b.com', password });
    const user = await users.findByEmail('a@b.com');
    expect(user?.passwordHash).toMatch(/^\$scrypt\$ln=4,r=8,p=1\$/);
    expect(JSON.stringify(user)).not.toContain(password);
  });
});

describe('AuthService.login', () => {
  it('returns a session in the user’s current merchant with all memberships', async () => {
    const { auth, merchants } = setup();
    await merchants.create({ merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: 0 });
    await auth.signup({ email: 'a@b.com', password, merchantId: 'm1' });
    const result = await auth.login('a@b.com', password, { sourceAddress: '10.0.0.1' });
    expect(result).toMatchObject({
      kind: 'ok',
      session: { merchantId: 'm1', role: 'admin', merchants: [{ merchantId: 'm1', merchantName: null, role: 'admin' }] },
    });
    if (result.kind === 'ok') expect((await claimsOf(auth, result.session.token)).merchantId).toBe('m1');
  });

  it('gives the same answer for an unknown email and a wrong password', async () => {
    const { auth } = setup();
    await auth.signup({ email: 'a@b.com', password });
    expect(await auth.login('nobody@b.com', password, { sourceAddress: '10.0.0.1' })).toEqual({ kind: 'invalid_credentials' });
    expect(await auth.login('a@b.com', 'wrong password!', { sourceAddress: '10.0.0.1' })).toEqual({ kind: 'invalid_credentials' });
  });

  it('compares emails verbatim', async () => {
    const { auth } = setup();
    await auth.signup({ email: 'a@b.com', password });
    expect(await auth.login('A@b.com', password, { sourceAddress: '10.0.0.1' })).toEqual({ kind: 'invalid_credentials' });
  });

  it('answers inactive only when the password is right', async () => {
    const { users } = memoryStateStore(createManualClock());
    const { auth } = setup({ users });
    await auth.signup({ email: 'a@b.com', password });
    const user = await users.findByEmail('a@b.com');
    const inactive: UserStore = {
      ...users,
      findByEmail: async (email) => (email === user?.email ? { ...user, isActive: false } : undefined),
    };
    const { auth: second } = setup({ users: inactive });
    expect(await second.login('a@b.com', password, { sourceAddress: '10.0.0.1' })).toEqual({ kind: 'inactive' });
    expect(await second.login('a@b.com', 'wrong password!', { sourceAddress: '10.0.0.1' })).toEqual({ kind: 'invalid_credentials' });
  });

  it('throttles an account after five failures and lets it in after the delay', async () => {
    const { auth, clock } = setup();
    await auth.signup({ email: 'a@b.com', password });
    for (let i = 0; i < 5; i += 1) await auth.login('a@b.com', `wrong password ${i}`, { sourceAddress: '10.0.0.1' });
    expect(await auth.login('a@b.com', password, { sourceAddress: '10.0.0.2' })).toEqual({ kind: 'throttled', retryAfterMs: 1_000 });
    clock.advance(1_000);
    expect(await auth.login('a@b.com', password, { sourceAddress: '10.0.0.2' })).toMatchObject({ kind: 'ok' });
  });

  it('throttles unknown emails the same way as known ones', async () => {
    const { auth } = setup();
    for (let i = 0; i < 5; i += 1) await auth.login('nobody@b.com', 'whatever pass', { sourceAddress: '10.0.0.1' });
    expect(await auth.login('nobody@b.com', 'whatever pass', { sourceAddress: '10.0.0.1' })).toEqual({ kind: 'throttled', retryAfterMs: 1_000 });
  });

  it('resets the account failures after a successful login', async () => {
    const { auth } = setup();
    await auth.signup({ email: 'a@b.com', password });
    for (let i = 0; i < 4; i += 1) await auth.login('a@b.com', 'wrong password!', { sourceAddress: '10.0.0.1' });
    expect(await auth.login('a@b.com', password, { sourceAddress: '10.0.0.1' })).toMatchObject({ kind: 'ok' });
    await auth.login('a@b.com', 'wrong password!', { sourceAddress: '10.0.0.1' });
    expect(await auth.login('a@b.com', password, { sourceAddress: '10.0.0.1' })).toMatchObject({ kind: 'ok' });
  });
});

describe('AuthService sessions', () => {
  async function signedIn() {
    const context = setup();
    const signup = await context.auth.signup({ email: 'a@b.com', password });
    if (signup.kind !== 'ok') throw new Error('signup failed');
    return { ...context, session: signup.session, claims: await claimsOf(context.auth, signup.session.token) };
  }

  it('revokes the token on logout and keeps other tokens valid', async () => {
    const { auth, claims, session } = await signedIn();
    const second = await auth.login('a@b.com', password, { sourceAddress: '10.0.0.1' });
    await auth.logout(claims);
    expect(await auth.authenticateBearer(session.token)).toEqual({ kind: 'invalid_token', reason: 'revoked' });
    if (second.kind === 'ok') expect((await auth.authenticateBearer(second.session.token)).kind).toBe('ok');
  });

  it('rejects an expired bearer token', async () => {
    const { auth, clock, session } = await signedIn();
    clock.advance(3_600_000);
    expect(await auth.authenticateBearer(session.token)).toEqual({ kind: 'invalid_token', reason: 'expired' });
  });

  it('describes the user in the token’s merchant context', async () => {
    const { auth, claims, session } = await signedIn();
    expect(await auth.me(claims)).toEqual({
      kind: 'ok',
      profile: { userId: session.userId, email: 'a@b.com', merchantId: '', role: 'admin', emailVerified: true, merchants: [] },
    });
  });

  it('answers invalid_token for a user that no longer exists', async () => {
    const { auth, claims } = await signedIn();
    const ghost = { ...claims, userId: 'gone' };
    expect(await auth.me(ghost)).toEqual({ kind: 'invalid_token', reason: 'unknown_user' });
    expect(await auth.merchants(ghost)).toEqual({ kind: 'invalid_token', reason: 'unknown_user' });
  });

  it('onboards a merchant, makes the user its admin and switches to it', async () => {
    const { auth, claims, merchants, users } = await signedIn();
    const result = await auth.onboardMerchant(claims, 'Acme');
    expect(result.kind).toBe('ok');
    if (result.kind !== 'ok') return;
    const { session } = result.onboarded;
    expect(session.merchantId).toBe('merchant_00000002aaaa');
    expect(session.merchantId).toMatch(/^merchant_[0-9a-f]{12}$/);
    expect(session).toMatchObject({ role: 'admin', merchants: [{ merchantId: session.merchantId, merchantName: 'Acme', role: 'admin' }] });
    expect(await merchants.get(session.merchantId)).toMatchObject({ merchantName: 'Acme' });
    expect((await users.findById(claims.userId))?.currentMerchantId).toBe(session.merchantId);
    expect((await claimsOf(auth, session.token)).merchantId).toBe(session.merchantId);
  });

  it('retries onboarding with a fresh id when the merchant id is taken', async () => {
    const { auth, claims, merchants } = await signedIn();
    await merchants.create({ merchantId: 'merchant_00000002aaaa', merchantName: 'x', deciderInput: null, createdAt: 0 });
    const result = await auth.onboardMerchant(claims, 'Acme');
    expect(result.kind === 'ok' && result.onboarded.session.merchantId).toBe('merchant_00000003aaaa');
  });

  it('lists the merchants the user belongs to', async () => {
    const { auth, claims } = await signedIn();
    await auth.onboardMerchant(claims, 'One');
    await auth.onboardMerchant(claims, 'Two');
    const result = await auth.merchants(claims);
    expect(result.kind === 'ok' && result.merchants.map((merchant) => merchant.merchantName)).toEqual(['One', 'Two']);
  });

  it('switches only to a merchant the user belongs to', async () => {
    const { auth, claims, merchants } = await signedIn();
    const one = await auth.onboardMerchant(claims, 'One');
    await auth.onboardMerchant(claims, 'Two');
    await merchants.create({ merchantId: 'foreign', merchantName: 'F', deciderInput: null, createdAt: 0 });
    expect(await auth.switchMerchant(claims, 'foreign')).toEqual({ kind: 'merchant_not_found' });
    expect(await auth.switchMerchant(claims, 'missing')).toEqual({ kind: 'merchant_not_found' });
    const target = one.kind === 'ok' ? one.onboarded.session.merchantId : '';
    const switched = await auth.switchMerchant(claims, target);
    expect(switched).toMatchObject({ kind: 'ok', session: { merchantId: target, role: 'admin' } });
    const relogin = await auth.login('a@b.com', password, { sourceAddress: '10.0.0.1' });
    expect(relogin.kind === 'ok' && relogin.session.merchantId).toBe(target);
  });
});

describe('AuthService API keys', () => {
  it('creates a key, stores only its hash and prefix, and authenticates it', async () => {
    const { auth, apiKeys } = setup();
    const created = await auth.createApiKey('m1', 'ci key');
    expect(created.rawKey).toMatch(/^DE_[0-9a-f]{64}$/);
    expect(created.record).toMatchObject({ merchantId: 'm1', description: 'ci key', isActive: true, keyPrefix: created.rawKey.slice(0, 11) });
    const stored = await apiKeys.findById(created.record.keyId);
    expect(stored?.keyHash).toBe(hashApiKey(created.rawKey));
    expect(JSON.stringify(stored)).not.toContain(created.rawKey.slice(3));
    expect(await auth.authenticateApiKey(created.rawKey)).toEqual({ kind: 'ok', merchantId: 'm1', keyId: created.record.keyId });
  });

  it('rejects a malformed key without looking it up', async () => {
    const inner = memoryStateStore(createManualClock()).apiKeys;
    let lookups = 0;
    const counting: ApiKeyStore = {
      ...inner,
      findByHash: async (hash) => {
        lookups++;
        return inner.findByHash(hash);
      },
    };
    const { auth } = setup({ apiKeys: counting });
    expect(await auth.authenticateApiKey('DE_not-hex')).toEqual({ kind: 'invalid_api_key' });
    expect(lookups).toBe(0);
    expect(await auth.authenticateApiKey(`DE_${'0'.repeat(64)}`)).toEqual({ kind: 'invalid_api_key' });
    expect(lookups).toBe(1);
  });

  it('answers revoked_api_key after revocation, and revoking twice is ok', async () => {
    const { auth } = setup();
    const created = await auth.createApiKey('m1', null);
    expect(await auth.revokeApiKey(created.record.keyId)).toEqual({ kind: 'ok', keyId: created.record.keyId });
    expect(await auth.revokeApiKey(created.record.keyId)).toEqual({ kind: 'ok', keyId: created.record.keyId });
    expect(await auth.authenticateApiKey(created.rawKey)).toEqual({ kind: 'revoked_api_key' });
  });

  it('answers api_key_not_found when revoking an unknown key', async () => {
    const { auth } = setup();
    expect(await auth.revokeApiKey('nope')).toEqual({ kind: 'api_key_not_found' });
  });

  it('lists active and revoked keys of one merchant', async () => {
    const { auth, clock } = setup();
    const first = await auth.createApiKey('m1', 'a');
    // The stores list a merchant's keys by creation time (the memory adapter sorts on createdAt), so create them 1 ms apart.
    clock.advance(1);
    await auth.createApiKey('m1', 'b');
    await auth.createApiKey('m2', 'c');
    await auth.revokeApiKey(first.record.keyId);
    const listed = await auth.listApiKeys('m1');
    expect(listed.map((key) => [key.description, key.isActive])).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });

  it('refuses a record whose stored hash does not match the key', async () => {
    const inner = memoryStateStore(createManualClock()).apiKeys;
    const lying: ApiKeyStore = {
      ...inner,
      findByHash: async () => ({
        keyId: 'k',
        merchantId: 'm1',
        keyHash: 'f'.repeat(64),
        keyPrefix: 'DE_ffffffff',
        description: null,
        isActive: true,
        createdAt: 0,
      }),
    };
    const { auth } = setup({ apiKeys: lying });
    expect(await auth.authenticateApiKey(`DE_${'1'.repeat(64)}`)).toEqual({ kind: 'invalid_api_key' });
  });
});

describe('AuthService.authenticate', () => {
  it('uses the bearer token first and never falls back to the API key', async () => {
    const { auth } = setup();
    const key = await auth.createApiKey('m1', null);
    expect(await auth.authenticate({ bearerToken: 'junk', apiKey: key.rawKey })).toEqual({ kind: 'invalid_token', reason: 'malformed' });
  });

  it('accepts a valid bearer token as a user context', async () => {
    const { auth } = setup();
    const signup = await auth.signup({ email: 'a@b.com', password });
    const token = signup.kind === 'ok' ? signup.session.token : '';
    expect(await auth.authenticate({ bearerToken: token })).toMatchObject({ kind: 'ok', context: { via: 'bearer' } });
  });

  it('accepts an API key as a merchant context when there is no bearer token', async () => {
    const { auth } = setup();
    const key = await auth.createApiKey('m1', null);
    expect(await auth.authenticate({ apiKey: key.rawKey })).toEqual({
      kind: 'ok',
      context: { via: 'api_key', merchantId: 'm1', keyId: key.record.keyId },
    });
  });

  it('answers missing_credentials when neither is given', async () => {
    const { auth } = setup();
    expect(await auth.authenticate({})).toEqual({ kind: 'missing_credentials' });
  });
});
