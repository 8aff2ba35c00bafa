import { Ajv } from 'ajv';
import configSchema from '../../schemas/config.json' with { type: 'json' };
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { SwitchyardConfig } from '../generated/schema-types.js';

export type Config = Readonly<SwitchyardConfig>;

/** `dataDir` → `DATA_DIR`: the environment variable behind each config property. */
export function envNameOf(property: string): string {
  return property.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

const properties = configSchema.properties as Record<string, { type?: string | string[] }>;
const validate = new Ajv({ useDefaults: true, coerceTypes: true, allErrors: true }).compile<SwitchyardConfig>(configSchema);

/**
 * Builds the one typed, frozen config from an environment record. Pure: it never reads
 * `process.env` itself, so entry points pass it in and tests pass literals. Defaults live only in
 * schemas/config.json. A bad value fails here, at start, naming the variable.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const raw: Record<string, unknown> = {};
  for (const property of Object.keys(properties)) {
    const value = env[envNameOf(property)];
    if (value !== undefined && value !== '') raw[property] = value;
  }
  // A cluster alone is distributed mode too: its first seed stands in for REDIS_URL, which then only
  // carries credentials and TLS when given.
  if (typeof raw['redisClusterNodes'] === 'string' && raw['redisUrl'] === undefined) {
    const first = raw['redisClusterNodes'].split(',')[0]?.trim();
    if (first) raw['redisUrl'] = `redis://${first}`;
  }
  if (!validate(raw)) {
    const problems = (validate.errors ?? []).map((error) => {
      const property = error.instancePath.replace(/^\//, '') || String(error.params['missingProperty'] ?? '');
      return `${envNameOf(property)} (${property}) ${error.message ?? 'is invalid'}`;
    });
    throw new SwitchyardError('SY_CONFIG_INVALID', {
      message: `invalid configuration: ${problems.join('; ')}`,
      details: { problems },
    });
  }
  return Object.freeze(raw as unknown as SwitchyardConfig);
}
