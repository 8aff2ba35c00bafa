import { createPrivateKey, createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import { envNameOf } from '../config/load-config.js';
import { SwitchyardError } from '../errors/switchyard-error.js';

/** The JWS algorithms the config may allow (the same list `schemas/config.json` accepts). */
export type TokenAlgorithm = 'HS256' | 'HS384' | 'HS512' | 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'ES256' | 'ES384' | 'EdDSA';

/** Key material from config: an HMAC secret, or PEM keys (PKCS#8 private, SPKI public) for asymmetric algorithms. */
export interface TokenKeyConfig {
  /** Allow-list; the first entry signs new tokens. */
  readonly algorithms: readonly TokenAlgorithm[];
  readonly secret?: string | undefined;
  readonly privateKey?: string | undefined;
  readonly publicKey?: string | undefined;
}

export interface TokenKeys {
  readonly signingAlgorithm: TokenAlgorithm;
  /** Undefined on a verify-only replica (public key configured, no private key). */
  readonly signKey: KeyObject | undefined;
  readonly verifyKey: KeyObject;
}

/** RFC 7518 §3.2: an HMAC key at least as long as the hash output. */
const hmacKeyBytes: Partial<Record<TokenAlgorithm, number>> = { HS256: 32, HS384: 48, HS512: 64 };

/**
 * Turns the configured key material into key objects and checks, once at start, that every
 * allowed algorithm fits the key. That check is what rules out algorithm confusion (an HMAC
 * token "signed" with a public key) and keeps attacker-chosen headers from reaching a key-type
 * error at verification time.
 */
export function resolveTokenKeys(config: TokenKeyConfig): TokenKeys {
  const [signingAlgorithm] = config.algorithms;
  if (signingAlgorithm === undefined) throw invalid('jwtAlgorithms', 'lists no algorithm');
  const symmetric = config.algorithms.filter((algorithm) => algorithm.startsWith('HS'));
  if (symmetric.length > 0 && symmetric.length !== config.algorithms.length) {
    throw invalid('jwtAlgorithms', 'mixes HMAC and asymmetric algorithms');
  }
  return symmetric.length > 0 ? resolveSecret(config, signingAlgorithm) : resolveKeyPair(config, signingAlgorithm);
}

function resolveSecret(config: TokenKeyConfig, signingAlgorithm: TokenAlgorithm): TokenKeys {
  if (config.secret === undefined || config.secret === '') throw invalid('jwtSecret', 'is required for HMAC algorithms');
  const bytes = Buffer.from(config.secret, 'utf8');
  for (const algorithm of config.algorithms) {
    const needed = hmacKeyBytes[algorithm] ?? 0;
    if (bytes.length < needed) throw invalid('jwtSecret', `must be at least ${needed} bytes for ${algorithm}`);
  }
  const key = createSecretKey(bytes);
  return { signingAlgorithm, signKey: key, verifyKey: key };
}

function resolveKeyPair(config: TokenKeyConfig, signingAlgorithm: TokenAlgorithm): TokenKeys {
  const signKey = config.privateKey ? parsePem(() => createPrivateKey(config.privateKey ?? ''), 'jwtPrivateKey') : undefined;
  const verifyKey = config.publicKey ? parsePem(() => createPublicKey(config.publicKey ?? ''), 'jwtPublicKey') : signKey && createPublicKey(signKey);
  if (verifyKey === undefined) throw invalid('jwtPublicKey', 'or jwtPrivateKey is required for asymmetric algorithms');
  if (signKey && !createPublicKey(signKey).equals(verifyKey)) {
    throw invalid('jwtPublicKey', 'does not belong to jwtPrivateKey');
  }
  for (const algorithm of config.algorithms) {
    const problem = keyMismatch(algorithm, verifyKey);
    if (problem) throw invalid('jwtAlgorithms', `${algorithm} ${problem}`);
  }
  return { signingAlgorithm, signKey, verifyKey };
}

function keyMismatch(algorithm: TokenAlgorithm, key: KeyObject): string | undefined {
  const type = key.asymmetricKeyType;
  const details = key.asymmetricKeyDetails ?? {};
  switch (algorithm) {
    case 'RS256':
    case 'RS384':
    case 'RS512':
    case 'PS256':
      if (type !== 'rsa' && !(algorithm === 'PS256' && type === 'rsa-pss')) return 'needs an RSA key';
      // 2048 bits: the minimum jose (and NIST SP 800-131A) accepts for RSA signatures.
      return (details.modulusLength ?? 0) < 2048 ? 'needs an RSA key of at least 2048 bits' : undefined;
    case 'ES256':
      return type === 'ec' && details.namedCurve === 'prime256v1' ? undefined : 'needs a P-256 EC key';
    case 'ES384':
      return type === 'ec' && details.namedCurve === 'secp384r1' ? undefined : 'needs a P-384 EC key';
    case 'EdDSA':
      return type === 'ed25519' ? undefined : 'needs an Ed25519 key';
    default:
      return 'is an HMAC algorithm';
  }
}

function parsePem(parse: () => KeyObject, option: string): KeyObject {
  try {
    return parse();
  } catch (error) {
    throw invalid(option, 'is not a readable PEM key', error);
  }
}

function invalid(option: string, problem: string, cause?: unknown): SwitchyardError {
  return new SwitchyardError('SY_CONFIG_INVALID', { message: `${envNameOf(option)} (${option}) ${problem}`, cause });
}
