import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resolveTokenKeys } from '../../../src/auth/token-keys.js';
import { createTokenService } from '../../../src/auth/token-service.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const secret = 'x'.repeat(32);
const pem = (pair: ReturnType<typeof generateKeyPairSync>) => ({
  privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
});

describe('resolveTokenKeys', () => {
  it('signs with the first algorithm of the allow-list', () => {
    expect(resolveTokenKeys({ algorithms: ['HS256'], secret }).signingAlgorithm).toBe('HS256');
  });

  it('fails naming JWT_SECRET when an HMAC algorithm has no secret', () => {
    expect(() => resolveTokenKeys({ algorithms: ['HS256'] })).toThrow(/JWT_SECRET \(jwtSecret\)/);
  });

  it('fails when the secret is shorter than the hash output', () => {
    expect(() => resolveTokenKeys({ algorithms: ['HS256'], secret: 'x'.repeat(31) })).toThrow(/at least 32 bytes/);
    expect(() => resolveTokenKeys({ algorithms: ['HS512'], secret })).toThrow(/at least 64 bytes for HS512/);
  });

  it('fails when HMAC and asymmetric algorithms are mixed', () => {
    expect(() => resolveTokenKeys({ algorithms: ['HS256', 'RS256'], secret })).toThrow(/mixes/);
  });

  it('fails when the allow-list is empty', () => {
    expect(() => resolveTokenKeys({ algorithms: [], secret })).toThrow(/no algorithm/);
  });

  it('fails when an algorithm does not fit the key', () => {
    const ec = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }));
    expect(() => resolveTokenKeys({ algorithms: ['RS256'], ...ec })).toThrow(/RS256 needs an RSA key/);
    expect(() => resolveTokenKeys({ algorithms: ['ES256', 'ES384'], ...ec })).toThrow(/ES384 needs a P-384/);
  });

  it('fails when the public key does not belong to the private key', () => {
    const first = pem(generateKeyPairSync('ed25519'));
    const second = pem(generateKeyPairSync('ed25519'));
    expect(() => resolveTokenKeys({ algorithms: ['EdDSA'], privateKey: first.privateKey, publicKey: second.publicKey })).toThrow(/does not belong/);
  });

  it('fails naming the option when a PEM cannot be read', () => {
    expect(() => resolveTokenKeys({ algorithms: ['RS256'], publicKey: 'not a pem' })).toThrow(/JWT_PUBLIC_KEY/);
  });

  it('derives the public key from the private key', () => {
    const ed = pem(generateKeyPairSync('ed25519'));
    const keys = resolveTokenKeys({ algorithms: ['EdDSA'], privateKey: ed.privateKey });
    expect(keys.verifyKey.type).toBe('public');
  });
});

describe('createTokenService config checks', () => {
  it('fails at creation on a non-positive lifetime', () => {
    const clock = createManualClock();
    const config = { algorithms: ['HS256'] as const, secret, issuer: 'i', audience: 'a', ttlSeconds: 0 };
    expect(() => createTokenService(config, { sessions: memoryStateStore(clock).sessions, clock })).toThrow(/JWT_TTL_SECONDS/);
  });
});
