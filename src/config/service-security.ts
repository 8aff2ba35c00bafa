import { readFileSync } from 'node:fs';
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { Config } from './load-config.js';

/**
 * TLS material and credentials for the distributed services (Redis, Kafka, ClickHouse), resolved
 * once at start from the config: files are read here, so a missing or unreadable file stops the
 * start naming its variable, and the adapters get bytes, never paths. Every problem is reported at
 * once, each naming its variable; no value of a password ever appears in a message.
 *
 * Variables: docs/services-tls.md.
 */

/** PEM bytes for a TLS client: `ca` replaces the system CAs; `cert` + `key` are a client certificate (mutual TLS). */
export interface TlsMaterial {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

export interface RedisSecurity {
  readonly username?: string;
  readonly password?: string;
  /** Set for `rediss://`: TLS on every connection (cluster nodes included). */
  readonly tls?: TlsMaterial;
  /** The variable to name when the password is refused: REDIS_PASSWORD, or REDIS_URL when the URL carries it. */
  readonly passwordVariable: 'REDIS_PASSWORD' | 'REDIS_URL';
}

export type KafkaSecurityProtocol = 'PLAINTEXT' | 'SSL' | 'SASL_PLAINTEXT' | 'SASL_SSL';
export type KafkaSaslMechanism = 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

export interface KafkaSecurity {
  readonly protocol: KafkaSecurityProtocol;
  /** Set for SSL and SASL_SSL. */
  readonly tls?: TlsMaterial;
  /** Set for SASL_PLAINTEXT and SASL_SSL. */
  readonly sasl?: { readonly mechanism: KafkaSaslMechanism; readonly username: string; readonly password: string };
}

export interface ClickHouseSecurity {
  /** CLICKHOUSE_URL without credentials (those are in username/password). */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** The variable to name when the password is refused. */
  readonly passwordVariable: 'CLICKHOUSE_PASSWORD' | 'CLICKHOUSE_URL';
  /** @clickhouse/client's shape: a CA is required by the client whenever TLS options are given. */
  readonly tls?: { readonly caCert: Buffer; readonly cert?: Buffer; readonly key?: Buffer };
}

export interface ServiceSecurity {
  /** Set when REDIS_URL (or REDIS_CLUSTER_NODES) is. */
  readonly redis?: RedisSecurity;
  /** Set when KAFKA_BROKERS is. */
  readonly kafka?: KafkaSecurity;
  /** Set when CLICKHOUSE_URL is. */
  readonly clickhouse?: ClickHouseSecurity;
}

type SecurityConfig = Pick<
  Config,
  | 'redisUrl'
  | 'redisUsername'
  | 'redisPassword'
  | 'redisTlsCaFile'
  | 'redisTlsCertFile'
  | 'redisTlsKeyFile'
  | 'kafkaBrokers'
  | 'kafkaSecurityProtocol'
  | 'kafkaSaslMechanism'
  | 'kafkaSaslUsername'
  | 'kafkaSaslPassword'
  | 'kafkaTlsCaFile'
  | 'kafkaTlsCertFile'
  | 'kafkaTlsKeyFile'
  | 'clickhouseUrl'
  | 'clickhouseUser'
  | 'clickhousePassword'
  | 'clickhouseTlsCaFile'
  | 'clickhouseTlsCertFile'
  | 'clickhouseTlsKeyFile'
>;

export type ReadFile = (path: string) => Buffer;

class Problems {
  readonly list: string[] = [];
  add(variable: string, problem: string): void {
    this.list.push(`${variable} ${problem}`);
  }
}

const pemMarkers = { ca: /-----BEGIN CERTIFICATE-----/, cert: /-----BEGIN CERTIFICATE-----/, key: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ } as const;

/** Reads one PEM file named by `variable`; a problem (never the content) when it cannot be read or is not PEM of the kind. */
function readPem(problems: Problems, readFile: ReadFile, variable: string, path: string | undefined, kind: keyof typeof pemMarkers): Buffer | undefined {
  if (path === undefined) return undefined;
  let content: Buffer;
  try {
    content = readFile(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    problems.add(variable, `cannot read ${path}${typeof code === 'string' ? ` (${code})` : ''}`);
    return undefined;
  }
  if (!pemMarkers[kind].test(content.toString('latin1'))) {
    problems.add(variable, `${path} holds no PEM ${kind === 'key' ? 'private key' : 'certificate'}`);
    return undefined;
  }
  return content;
}

/** Reads the files of one service; cert and key come as a pair. */
function readTls(
  problems: Problems,
  readFile: ReadFile,
  prefix: 'REDIS' | 'KAFKA' | 'CLICKHOUSE',
  files: { ca: string | undefined; cert: string | undefined; key: string | undefined },
): TlsMaterial {
  if ((files.cert === undefined) !== (files.key === undefined)) {
    const missing = files.cert === undefined ? `${prefix}_TLS_CERT_FILE` : `${prefix}_TLS_KEY_FILE`;
    const given = files.cert === undefined ? `${prefix}_TLS_KEY_FILE` : `${prefix}_TLS_CERT_FILE`;
    problems.add(missing, `must be set with ${given} (a client certificate needs its key)`);
  }
  const ca = readPem(problems, readFile, `${prefix}_TLS_CA_FILE`, files.ca, 'ca');
  const cert = readPem(problems, readFile, `${prefix}_TLS_CERT_FILE`, files.cert, 'cert');
  const key = readPem(problems, readFile, `${prefix}_TLS_KEY_FILE`, files.key, 'key');
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

function setVariables(prefix: string, entries: Record<string, unknown>): string[] {
  return Object.entries(entries)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => `${prefix}${name}`);
}

function parseUrl(problems: Problems, variable: string, url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    problems.add(variable, 'is not a URL');
    return undefined;
  }
}

function resolveRedis(config: SecurityConfig, problems: Problems, readFile: ReadFile): RedisSecurity | undefined {
  const files = { ca: config.redisTlsCaFile, cert: config.redisTlsCertFile, key: config.redisTlsKeyFile };
  if (config.redisUrl === undefined) {
    for (const name of setVariables('REDIS_', {
      USERNAME: config.redisUsername,
      PASSWORD: config.redisPassword,
      TLS_CA_FILE: files.ca,
      TLS_CERT_FILE: files.cert,
      TLS_KEY_FILE: files.key,
    })) {
      problems.add(name, 'is set but neither REDIS_URL nor REDIS_CLUSTER_NODES is');
    }
    return undefined;
  }
  const url = parseUrl(problems, 'REDIS_URL', config.redisUrl);
  if (url === undefined) return undefined;
  const secure = url.protocol === 'rediss:';
  if (!secure) {
    for (const name of setVariables('REDIS_', { TLS_CA_FILE: files.ca, TLS_CERT_FILE: files.cert, TLS_KEY_FILE: files.key })) {
      problems.add(name, 'needs TLS: REDIS_URL must start with rediss://');
    }
  }
  const username = config.redisUsername ?? (url.username === '' ? undefined : decodeURIComponent(url.username));
  const password = config.redisPassword ?? (url.password === '' ? undefined : decodeURIComponent(url.password));
  if (config.redisUsername !== undefined && password === undefined)
    problems.add('REDIS_PASSWORD', 'must be set with REDIS_USERNAME (or give the password in REDIS_URL)');
  const tls = secure ? readTls(problems, readFile, 'REDIS', files) : undefined;
  return {
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
    ...(tls === undefined ? {} : { tls }),
    passwordVariable: config.redisPassword === undefined && url.password !== '' ? 'REDIS_URL' : 'REDIS_PASSWORD',
  };
}

function resolveKafka(config: SecurityConfig, problems: Problems, readFile: ReadFile): KafkaSecurity | undefined {
  const protocol: KafkaSecurityProtocol = config.kafkaSecurityProtocol ?? 'PLAINTEXT';
  const files = { ca: config.kafkaTlsCaFile, cert: config.kafkaTlsCertFile, key: config.kafkaTlsKeyFile };
  const saslSettings = { SASL_MECHANISM: config.kafkaSaslMechanism, SASL_USERNAME: config.kafkaSaslUsername, SASL_PASSWORD: config.kafkaSaslPassword };
  const tlsSettings = { TLS_CA_FILE: files.ca, TLS_CERT_FILE: files.cert, TLS_KEY_FILE: files.key };
  if (config.kafkaBrokers === undefined) {
    const set = setVariables('KAFKA_', { ...saslSettings, ...tlsSettings, SECURITY_PROTOCOL: protocol === 'PLAINTEXT' ? undefined : protocol });
    for (const name of set) problems.add(name, 'is set but KAFKA_BROKERS is not');
    return undefined;
  }
  const usesSasl = protocol === 'SASL_PLAINTEXT' || protocol === 'SASL_SSL';
  const usesTls = protocol === 'SSL' || protocol === 'SASL_SSL';
  if (usesSasl) {
    for (const [name, value] of Object.entries(saslSettings)) {
      if (value === undefined) problems.add(`KAFKA_${name}`, `is required with KAFKA_SECURITY_PROTOCOL=${protocol}`);
    }
  } else {
    for (const name of setVariables('KAFKA_', saslSettings))
      problems.add(name, `is set but KAFKA_SECURITY_PROTOCOL=${protocol} uses no SASL (use SASL_SSL or SASL_PLAINTEXT)`);
  }
  if (!usesTls) {
    for (const name of setVariables('KAFKA_', tlsSettings))
      problems.add(name, `is set but KAFKA_SECURITY_PROTOCOL=${protocol} uses no TLS (use SSL or SASL_SSL)`);
  }
  const tls = usesTls ? readTls(problems, readFile, 'KAFKA', files) : undefined;
  const { kafkaSaslMechanism: mechanism, kafkaSaslUsername: username, kafkaSaslPassword: password } = config;
  return {
    protocol,
    ...(tls === undefined ? {} : { tls }),
    ...(usesSasl && mechanism !== undefined && username !== undefined && password !== undefined ? { sasl: { mechanism, username, password } } : {}),
  };
}

function resolveClickHouse(config: SecurityConfig, problems: Problems, readFile: ReadFile): ClickHouseSecurity | undefined {
  const files = { ca: config.clickhouseTlsCaFile, cert: config.clickhouseTlsCertFile, key: config.clickhouseTlsKeyFile };
  const tlsSettings = { TLS_CA_FILE: files.ca, TLS_CERT_FILE: files.cert, TLS_KEY_FILE: files.key };
  if (config.clickhouseUrl === undefined) {
    for (const name of setVariables('CLICKHOUSE_', tlsSettings)) problems.add(name, 'is set but CLICKHOUSE_URL is not');
    return undefined;
  }
  const url = parseUrl(problems, 'CLICKHOUSE_URL', config.clickhouseUrl);
  if (url === undefined) return undefined;
  const secure = url.protocol === 'https:';
  if (!secure) {
    for (const name of setVariables('CLICKHOUSE_', tlsSettings)) problems.add(name, 'needs TLS: CLICKHOUSE_URL must start with https://');
  }
  if (url.password !== '' && config.clickhousePassword !== '') {
    problems.add('CLICKHOUSE_PASSWORD', 'is set and CLICKHOUSE_URL carries a password too: give it once');
  }
  const username = url.username === '' ? config.clickhouseUser : decodeURIComponent(url.username);
  const password = url.password === '' ? config.clickhousePassword : decodeURIComponent(url.password);
  const passwordVariable = url.password === '' ? 'CLICKHOUSE_PASSWORD' : 'CLICKHOUSE_URL';
  url.username = '';
  url.password = '';
  const base = { url: url.toString().replace(/\/$/, ''), username, password, passwordVariable } as const;
  if (!secure) return base;
  if (files.ca === undefined && files.cert !== undefined) {
    problems.add('CLICKHOUSE_TLS_CA_FILE', 'must be set with CLICKHOUSE_TLS_CERT_FILE (the ClickHouse client takes a client certificate only with a CA)');
  }
  const tls = readTls(problems, readFile, 'CLICKHOUSE', files);
  if (tls.ca === undefined) return base;
  return { ...base, tls: { caCert: tls.ca, ...(tls.cert && tls.key ? { cert: tls.cert, key: tls.key } : {}) } };
}

/**
 * Resolves the TLS material and credentials of every configured service. Throws SY_CONFIG_INVALID
 * naming each bad variable (a file that cannot be read, a certificate without its key, TLS files
 * for a plain URL, SASL settings without a SASL protocol, …).
 */
export function resolveServiceSecurity(config: SecurityConfig, readFile: ReadFile = (path) => readFileSync(path)): ServiceSecurity {
  const problems = new Problems();
  const redis = resolveRedis(config, problems, readFile);
  const kafka = resolveKafka(config, problems, readFile);
  const clickhouse = resolveClickHouse(config, problems, readFile);
  if (problems.list.length > 0) {
    throw new SwitchyardError('SY_CONFIG_INVALID', {
      message: `invalid configuration: ${problems.list.join('; ')}`,
      details: { problems: problems.list },
    });
  }
  return { ...(redis ? { redis } : {}), ...(kafka ? { kafka } : {}), ...(clickhouse ? { clickhouse } : {}) };
}
