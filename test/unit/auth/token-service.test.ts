import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenService, type TokenConfig, type TokenSubject } from '../../../src/auth/token-service.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const secret = 'change_me_in_production_use_32chars!!';
const baseConfig: TokenConfig = {
  algorithms: ['HS256'],
  secret,
  issuer: 'switchyard',
  audience: 'switchyard-dashboard',
  ttlSeconds: 86_400,
};
const subject: TokenSubject = { userId: 'user-1', email: 'a@b.com', merchantId: 'm1', role: 'admin' };

function setup(config: TokenConfig = baseConfig) {
  const clock = createManualClock(1_700_000_000_000);
  const { sessions } = memoryStateStore(clock);
  let counter = 0;
  const tokens = createTokenService(config, { sessions, clock, generateTokenId: () => `jti-${++counter}` });
  return { clock, sessions, tokens };
}

function decodePart(token: string, index: number): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Signs arbitrary claims with the test secret, bypassing the service, to forge edge cases. */
function forge(claims: Record<string, unknown>, alg = 'HS256', key: Uint8Array = new TextEncoder().encode(secret)) {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

const nowSeconds = 1_700_000_000;
const validClaims = {
  sub: 'user-1',
  user_id: 'user-1',
  email: 'a@b.com',
  merchant_id: 'm1',
  role: 'admin',
  jti: 'jti-x',
  iat: nowSeconds,
  nbf: nowSeconds,
  exp: nowSeconds + 60,
  iss: 'switchyard',
  aud: 'switchyard-dashboard',
};

describe('TokenService', () => {
  it('verifies the token it issued and returns the same claims', async () => {
    const { tokens } = setup();
    const issued = await tokens.issue(subject);
    const verified = await tokens.verify(issued.token);
    expect(verified).toEqual({ ok: true, claims: issued.claims });
    expect(issued.claims).toMatchObject({ ...subject, tokenId: 'jti-1', issuedAt: 1_700_000_000_000 });
  });

  it('writes decision-engine claims plus nbf, iss and aud', async () => {
    const { tokens } = setup();
    const issued = await tokens.issue(subject);
    expect(decodePart(issued.token, 0)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(decodePart(issued.token, 1)).toEqual({ ...validClaims, token_type: 'standard', iat_ms: nowSeconds * 1000, jti: 'jti-1', exp: nowSeconds + 86_400 });
  });

  it('carries the session kind (token_type); a token without one is standard, an unknown kind is refused', async () => {
    const { tokens } = setup();
    const view = await tokens.issue({ ...subject, tokenType: 'super_admin_view' });
    expect(decodePart(view.token, 1)).toMatchObject({ token_type: 'super_admin_view' });
    expect(await tokens.verify(view.token)).toMatchObject({ ok: true, claims: { tokenType: 'super_admin_view' } });
    expect(await tokens.verify(await forge(validClaims))).toMatchObject({ ok: true, claims: { tokenType: 'standard' } });
    expect(await tokens.verify(await forge({ ...validClaims, token_type: 'root' }))).toEqual({ ok: false, reason: 'claims' });
  });

  it('shortens a token on request, never lengthens it past the configured lifetime', async () => {
    const { tokens } = setup();
    expect((await tokens.issue(subject, { ttlSeconds: 1200 })).expiresAt).toBe(1_700_000_000_000 + 1_200_000);
    expect((await tokens.issue(subject, { ttlSeconds: 999_999 })).expiresAt).toBe(1_700_000_000_000 + 86_400_000);
  });

  it('sets the expiry from the configured lifetime', async () => {
    const { tokens } = setup({ ...baseConfig, ttlSeconds: 900 });
    const issued = await tokens.issue(subject);
    expect(issued.expiresAt).toBe(1_700_000_000_000 + 900_000);
    expect(issued.tokenId).toBe('jti-1');
  });

  it('gives each token a unique id by default', async () => {
    const clock = createManualClock();
    const tokens = createTokenService(baseConfig, { sessions: memoryStateStore(clock).sessions, clock });
    const [first, second] = await Promise.all([tokens.issue(subject), tokens.issue(subject)]);
    expect(first.tokenId).not.toBe(second.tokenId);
    expect(first.tokenId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects a token as expired at its exp second, with no leeway', async () => {
    const { tokens, clock } = setup({ ...baseConfig, ttlSeconds: 60 });
    const issued = await tokens.issue(subject);
    clock.advance(59_999);
    expect((await tokens.verify(issued.token)).ok).toBe(true);
    clock.advance(1);
    expect(await tokens.verify(issued.token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('rejects a token whose nbf is in the future as not yet valid', async () => {
    const { tokens } = setup();
    const token = await forge({ ...validClaims, nbf: nowSeconds + 30 });
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'not_yet_valid' });
  });

  it('rejects a wrong issuer or audience', async () => {
    const { tokens } = setup();
    expect(await tokens.verify(await forge({ ...validClaims, iss: 'someone-else' }))).toEqual({ ok: false, reason: 'claims' });
    expect(await tokens.verify(await forge({ ...validClaims, aud: 'other-app' }))).toEqual({ ok: false, reason: 'claims' });
  });

  it('rejects a token missing a required claim', async () => {
    const { tokens } = setup();
    const { nbf: _nbf, ...withoutNbf } = validClaims;
    expect(await tokens.verify(await forge(withoutNbf))).toEqual({ ok: false, reason: 'claims' });
    const { jti: _jti, ...withoutJti } = validClaims;
    expect(await tokens.verify(await forge(withoutJti))).toEqual({ ok: false, reason: 'claims' });
  });

  it('rejects claims of the wrong shape', async () => {
    const { tokens } = setup();
    expect(await tokens.verify(await forge({ ...validClaims, role: 'owner' }))).toEqual({ ok: false, reason: 'claims' });
    expect(await tokens.verify(await forge({ ...validClaims, sub: 'user-2' }))).toEqual({ ok: false, reason: 'claims' });
    expect(await tokens.verify(await forge({ ...validClaims, merchant_id: 7 }))).toEqual({ ok: false, reason: 'claims' });
  });

  it('accepts a token forged with valid claims and the right key', async () => {
    const { tokens } = setup();
    expect((await tokens.verify(await forge(validClaims))).ok).toBe(true);
  });

  it('rejects a tampered payload or signature', async () => {
    const { tokens } = setup();
    const { token } = await tokens.issue(subject);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const promoted = Buffer.from(JSON.stringify({ ...decodePart(token, 1), role: 'admin', merchant_id: 'm2' })).toString('base64url');
    expect(await tokens.verify(`${header}.${promoted}.${signature}`)).toEqual({ ok: false, reason: 'bad_signature' });
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('rejects a token signed with another secret', async () => {
    const { tokens } = setup();
    const token = await forge(validClaims, 'HS256', new TextEncoder().encode('another_secret_of_at_least_32_bytes!'));
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('rejects an unsigned token with alg none', async () => {
    const { tokens } = setup();
    const token = new UnsecuredJWT(validClaims).encode();
    expect(token.endsWith('.')).toBe(true);
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('rejects HS512 with the right secret when only HS256 is allowed', async () => {
    const { tokens } = setup();
    const token = await forge(validClaims, 'HS512');
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('rejects garbage as malformed', async () => {
    const { tokens } = setup();
    for (const token of ['', 'not-a-jwt', 'a.b.c', 'bm90IGpzb24.e30.c2ln', `${'a'.repeat(9000)}.b.c`]) {
      expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('rejects a revoked token until it would expire', async () => {
    const { tokens, sessions, clock } = setup();
    const issued = await tokens.issue(subject);
    const other = await tokens.issue(subject);
    await tokens.revoke(issued.claims);
    expect(await tokens.verify(issued.token)).toEqual({ ok: false, reason: 'revoked' });
    expect((await tokens.verify(other.token)).ok).toBe(true);
    // The revocation is kept exactly until the token's own expiry: still there 1 ms before, gone at it.
    clock.advance(issued.expiresAt - clock.now() - 1);
    expect(await sessions.isTokenRevoked(issued.tokenId)).toBe(true);
    clock.advance(1);
    expect(await sessions.isTokenRevoked(issued.tokenId)).toBe(false);
  });

  it('accepts a revoked token only when asked to (logout), still checking signature and expiry', async () => {
    const { tokens, clock } = setup();
    const issued = await tokens.issue(subject);
    await tokens.revoke(issued.claims);
    const again = await tokens.verify(issued.token, { allowRevoked: true });
    expect(again.ok && again.claims.tokenId).toBe(issued.tokenId);
    expect(await tokens.verify(issued.token)).toEqual({ ok: false, reason: 'revoked' });
    expect(await tokens.verify('not-a-jwt', { allowRevoked: true })).toEqual({ ok: false, reason: 'malformed' });
    clock.advance(issued.expiresAt - clock.now() + 1000);
    expect(await tokens.verify(issued.token, { allowRevoked: true })).toEqual({ ok: false, reason: 'expired' });
  });

  it('keeps a revocation at least one second when the token is about to expire', async () => {
    const { tokens, sessions, clock } = setup({ ...baseConfig, ttlSeconds: 60 });
    const issued = await tokens.issue(subject);
    clock.advance(59_900);
    await tokens.revoke(issued.claims);
    // Kept exactly 1 s: still there 1 ms before, gone at it.
    clock.advance(999);
    expect(await sessions.isTokenRevoked(issued.tokenId)).toBe(true);
    clock.advance(1);
    expect(await sessions.isTokenRevoked(issued.tokenId)).toBe(false);
  });
});

describe('TokenService with asymmetric keys', () => {
  const pem = (pair: ReturnType<typeof generateKeyPairSync>) => ({
    privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  });
  const rsa = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }));
  const ec = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  const ed = pem(generateKeyPairSync('ed25519'));

  it.each([
    ['RS256', rsa],
    ['ES256', ec],
    ['EdDSA', ed],
  ] as const)('round-trips a token signed with %s', async (algorithm, keys) => {
    const { tokens } = setup({ ...baseConfig, secret: undefined, algorithms: [algorithm], ...keys });
    const issued = await tokens.issue(subject);
    expect(decodePart(issued.token, 0)['alg']).toBe(algorithm);
    expect((await tokens.verify(issued.token)).ok).toBe(true);
  });

  it('verifies with only the public key and refuses to issue', async () => {
    const signer = setup({ ...baseConfig, secret: undefined, algorithms: ['ES256'], ...ec }).tokens;
    const verifier = setup({ ...baseConfig, secret: undefined, algorithms: ['ES256'], publicKey: ec.publicKey }).tokens;
    const issued = await signer.issue(subject);
    expect((await verifier.verify(issued.token)).ok).toBe(true);
    await expect(verifier.issue(subject)).rejects.toThrow(/JWT_PRIVATE_KEY/);
  });

  it('rejects an HS256 token keyed with the RSA public key (algorithm confusion)', async () => {
    const { tokens } = setup({ ...baseConfig, secret: undefined, algorithms: ['RS256'], ...rsa });
    const token = await forge(validClaims, 'HS256', new TextEncoder().encode(rsa.publicKey));
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'bad_signature' });
  });
});

describe('verified-token memory', () => {
  it('serves a token verified before without losing expiry or revocation', async () => {
    const { clock, tokens } = setup({ ...baseConfig, ttlSeconds: 60 });
    const issued = await tokens.issue(subject);
    expect(await tokens.verify(issued.token)).toMatchObject({ ok: true });
    expect(await tokens.verify(issued.token)).toMatchObject({ ok: true, claims: { tokenId: issued.tokenId } });
    clock.advance(59_999);
    expect(await tokens.verify(issued.token)).toMatchObject({ ok: true });
    clock.advance(1);
    expect(await tokens.verify(issued.token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('still reads the revocation list on every use of a remembered token', async () => {
    const { tokens } = setup();
    const issued = await tokens.issue(subject);
    expect(await tokens.verify(issued.token)).toMatchObject({ ok: true });
    await tokens.revoke(issued.claims);
    expect(await tokens.verify(issued.token)).toEqual({ ok: false, reason: 'revoked' });
    expect(await tokens.verify(issued.token, { allowRevoked: true })).toMatchObject({ ok: true });
  });

  it('never serves a changed token from memory', async () => {
    const { tokens } = setup();
    const issued = await tokens.issue(subject);
    expect(await tokens.verify(issued.token)).toMatchObject({ ok: true });
    const [header, , signature] = issued.token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...decodePart(issued.token, 1), merchant_id: 'other' })).toString('base64url')}.${signature}`;
    expect(await tokens.verify(forged)).toEqual({ ok: false, reason: 'bad_signature' });
    // The forgery reused the remembered signature: the original is still served, and still checked.
    expect(await tokens.verify(issued.token)).toMatchObject({ ok: true, claims: { merchantId: subject.merchantId } });
    expect(await tokens.verify(` ${issued.token}`)).toMatchObject({ ok: false });
    expect(await tokens.verify(`${header}.${Buffer.from(JSON.stringify(decodePart(issued.token, 1))).toString('base64url')}x.${signature}`)).toMatchObject({
      ok: false,
    });
  });
});
