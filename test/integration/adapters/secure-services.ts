import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The TLS-and-credentials servers of deploy/local/secure-services.sh (Redis over TLS with an ACL
 * user, Kafka with SASL_SSL and SSL listeners, ClickHouse over HTTPS with a password), on their own
 * ports beside the plain ones. Started (or reused) on first use: a test never skips when they are
 * missing; a start that fails fails the test with the script's output.
 */
export interface SecureServices {
  /** The script's `env` lines: REDIS_*, KAFKA_*, CLICKHOUSE_* as a Switchyard process would get them. */
  readonly env: Readonly<Record<string, string>>;
  /** Directory of ca.pem, client.pem, client.key and other-ca.pem (a CA that signed nothing of theirs). */
  readonly tlsDir: string;
  /** Kafka listener that requires a client certificate (SSL). */
  readonly kafkaSslBrokers: string;
}

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../../deploy/local/secure-services.sh', import.meta.url));
let started: Promise<SecureServices> | undefined;

async function sh(action: 'start' | 'env'): Promise<string> {
  try {
    const { stdout } = await run('bash', [script, action], { timeout: 240_000 });
    return stdout;
  } catch (error) {
    const output = error as { stderr?: string; stdout?: string };
    throw new Error(`deploy/local/secure-services.sh ${action} failed:\n${output.stderr ?? ''}${output.stdout ?? ''}`, { cause: error });
  }
}

export function secureServices(): Promise<SecureServices> {
  started ??= (async () => {
    await sh('start');
    const env = Object.fromEntries(
      (await sh('env'))
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const tlsDir = env['SECURE_TLS_DIR'];
    const kafkaSslBrokers = env['SECURE_KAFKA_SSL_BROKERS'];
    if (tlsDir === undefined || kafkaSslBrokers === undefined)
      throw new Error('deploy/local/secure-services.sh env printed no SECURE_TLS_DIR / SECURE_KAFKA_SSL_BROKERS');
    const serviceEnv = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('SECURE_')));
    return { env: serviceEnv, tlsDir, kafkaSslBrokers };
  })();
  return started;
}

/** Only the variables of one service (prefix REDIS_, KAFKA_ or CLICKHOUSE_). */
export function envOf(services: SecureServices, prefix: 'REDIS_' | 'KAFKA_' | 'CLICKHOUSE_'): Record<string, string> {
  return Object.fromEntries(Object.entries(services.env).filter(([name]) => name.startsWith(prefix)));
}
