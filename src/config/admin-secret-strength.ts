import configSchema from '../../schemas/config.json' with { type: 'json' };
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { Config } from './load-config.js';

/**
 * 32 characters: the admin secret is typed into headers by operators and scripts, not hashed slowly,
 * so its own length is the only thing between it and an online guesser. 32 random characters from
 * `openssl rand -hex 16` (128 bits) are out of reach even without the throttle.
 */
export const adminSecretMinLength = 32;

/** The built-in secret (schemas/config.json), there so that embedded mode works out of the box. */
const defaultAdminSecret: string = configSchema.properties.adminSecret.default;

/** A URL for any port selects a distributed adapter (cli/create-runtime.ts); the API is then reachable by other machines. */
export function isDistributedMode(config: Pick<Config, 'redisUrl' | 'kafkaBrokers' | 'clickhouseUrl'>): boolean {
  return config.redisUrl !== undefined || config.kafkaBrokers !== undefined || config.clickhouseUrl !== undefined;
}

/**
 * Refuses to serve the API with a guessable admin secret where it would matter: in production
 * (NODE_ENV=production) or in distributed mode. The admin secret mints merchants and makes anyone
 * an existing merchant's admin, so the built-in `test_admin` or a short secret there is a takeover.
 * Embedded development keeps the default, so `npm start` still works with no set-up.
 *
 * @throws SwitchyardError `SY_CONFIG_INVALID`, naming ADMIN_SECRET, before anything listens.
 * @remarks Only the API calls this: workers never read the admin secret.
 */
export function assertAdminSecretStrength(config: Pick<Config, 'adminSecret' | 'nodeEnv' | 'redisUrl' | 'kafkaBrokers' | 'clickhouseUrl'>): void {
  const production = config.nodeEnv === 'production';
  const distributed = isDistributedMode(config);
  if (!production && !distributed) return;
  const where = production ? 'NODE_ENV=production' : 'distributed mode (REDIS_URL, KAFKA_BROKERS or CLICKHOUSE_URL set)';
  const fix = `set ADMIN_SECRET to a random value of at least ${adminSecretMinLength} characters (e.g. openssl rand -hex 32)`;
  if (config.adminSecret === defaultAdminSecret) {
    throw new SwitchyardError('SY_CONFIG_INVALID', {
      message: `ADMIN_SECRET (adminSecret) is the built-in default '${defaultAdminSecret}', refused with ${where}: ${fix}`,
      details: { variable: 'ADMIN_SECRET', reason: 'default' },
    });
  }
  if (config.adminSecret.length < adminSecretMinLength) {
    throw new SwitchyardError('SY_CONFIG_INVALID', {
      message: `ADMIN_SECRET (adminSecret) is ${config.adminSecret.length} characters, refused with ${where}: ${fix}`,
      details: { variable: 'ADMIN_SECRET', reason: 'too_short', minLength: adminSecretMinLength },
    });
  }
}
