import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Config } from '../src/config/load-config.js';
import { parseKeyEncryptionKeys, type KeyEncryptionKeys } from '../src/credentials/credential-vault.js';
import { SwitchyardError } from '../src/errors/switchyard-error.js';
import type { Logger } from '../src/logging/logger.js';

/** Where the embedded mode keeps its generated key encryption key. */
export function credentialKeyPath(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'provider-credential-key');
}

/**
 * The key encryption keys of merchants' provider credentials, worked out once at start:
 * PROVIDER_CREDENTIAL_KEYS when set; in embedded mode, one generated on first start and kept in
 * `DATA_DIR/provider-credential-key` (mode 0600); in distributed mode without it, none (every
 * replica must open what the others sealed, so a per-replica key would lose credentials): the
 * merchant credential routes then answer 503 and calls use the operator's credentials.
 */
export async function resolveCredentialKeys(
  config: Pick<Config, 'providerCredentialKeys' | 'redisUrl' | 'dataDir'>,
  log: Logger,
): Promise<KeyEncryptionKeys | undefined> {
  const parse = (text: string, from: string) => {
    try {
      return parseKeyEncryptionKeys(text);
    } catch (error) {
      throw new SwitchyardError('SY_CONFIG_INVALID', { message: `invalid configuration: ${from}: ${error instanceof Error ? error.message : String(error)}` });
    }
  };
  if (config.providerCredentialKeys !== undefined) return parse(config.providerCredentialKeys, 'PROVIDER_CREDENTIAL_KEYS (providerCredentialKeys)');
  if (config.redisUrl !== undefined) {
    log.warn(
      { setting: 'PROVIDER_CREDENTIAL_KEYS' },
      'merchants cannot store provider credentials of their own in distributed mode without PROVIDER_CREDENTIAL_KEYS',
    );
    return undefined;
  }
  const path = credentialKeyPath(config);
  try {
    await mkdir(dirname(path), { recursive: true });
    // 'wx': never overwrite a key that sealed credentials.
    await writeFile(path, `local:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    log.info({ path }, 'generated the provider credential key');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new SwitchyardError('SY_CONFIG_INVALID', { message: `cannot write ${path}: set PROVIDER_CREDENTIAL_KEYS or fix DATA_DIR (dataDir)`, cause: error });
  }
  return parse((await readFile(path, 'utf8')).trim(), path);
}
