import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { TokenAlgorithm, TokenConfig } from '../src/auth/token-service.js';
import type { Config } from '../src/config/load-config.js';
import { SwitchyardError } from '../src/errors/switchyard-error.js';
import type { Logger } from '../src/logging/logger.js';

/** 48 random bytes (384 bits), base64url: 64 characters, enough for HS256 to HS512 (RFC 7518 §3.2 wants 32 to 64 bytes). */
const generatedSecretBytes = 48;

/** The shortest secret accepted from the file: HS256's minimum key size (RFC 7518 §3.2). */
const minimumSecretBytes = 32;

/** Where the embedded mode keeps its generated signing secret. */
export function jwtSecretPath(config: Config): string {
  return join(config.dataDir, 'jwt-secret');
}

/**
 * Works out the session token settings once, at start, in the composition root.
 *
 * - JWT_SECRET (or PEM keys for asymmetric algorithms) wins when set.
 * - Embedded mode (no REDIS_URL) without a secret: one is generated on first start and kept in
 *   `DATA_DIR/jwt-secret` (mode 0600), so sessions survive restarts without any set-up.
 * - Distributed mode (REDIS_URL) without a secret refuses to start: every replica must verify the
 *   tokens the others sign, and a per-replica random key would log users out at random.
 *
 * @remarks Key material is checked (length, algorithm fit) later by `createTokenService`, which
 * buildApp calls; a bad key still fails at start.
 */
export async function resolveTokenConfig(config: Config, log: Logger): Promise<TokenConfig> {
  const algorithms = config.jwtAlgorithms.split(',') as TokenAlgorithm[];
  const base = {
    algorithms,
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    ttlSeconds: config.jwtTtlSeconds,
    privateKey: config.jwtPrivateKey,
    publicKey: config.jwtPublicKey,
  };
  const usesSecret = algorithms.some((algorithm) => algorithm.startsWith('HS'));
  if (!usesSecret || config.jwtSecret !== undefined) return { ...base, secret: config.jwtSecret };
  if (config.redisUrl !== undefined) {
    throw new SwitchyardError('SY_CONFIG_INVALID', {
      message: 'JWT_SECRET (jwtSecret) is required when REDIS_URL is set: every API replica must share the key that signs sessions',
    });
  }
  return { ...base, secret: await loadOrCreateSecret(jwtSecretPath(config), log) };
}

async function loadOrCreateSecret(path: string, log: Logger): Promise<string> {
  const fresh = randomBytes(generatedSecretBytes).toString('base64url');
  try {
    await mkdir(dirname(path), { recursive: true });
    // 'wx': never overwrite. Two processes starting at once on one data directory: the loser reads the winner's.
    await writeFile(path, `${fresh}\n`, { mode: 0o600, flag: 'wx' });
    log.info({ path }, 'generated the JWT signing secret');
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new SwitchyardError('SY_CONFIG_INVALID', { message: `cannot write ${path}: set JWT_SECRET (jwtSecret) or fix DATA_DIR (dataDir)`, cause: error });
    }
  }
  const stored = (await readFile(path, 'utf8')).trim();
  if (Buffer.byteLength(stored, 'utf8') < minimumSecretBytes) {
    throw new SwitchyardError('SY_CONFIG_INVALID', {
      message: `${path} holds a secret shorter than ${minimumSecretBytes} bytes: delete it to have a new one generated, or set JWT_SECRET (jwtSecret)`,
    });
  }
  const { mode } = await stat(path);
  // Readable by group or others: tighten it rather than refuse, and say so.
  if ((mode & 0o077) !== 0) {
    await chmod(path, 0o600);
    log.warn({ path, mode: (mode & 0o777).toString(8) }, 'JWT secret file was readable by others; set its mode to 0600');
  }
  return stored;
}
