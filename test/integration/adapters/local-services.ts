import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * Where the integration and port tests find the local servers (deploy/local/), and how fault tests
 * stop and start them. The one place tests read the environment: REDIS_URL and KAFKA_BROKERS
 * override the deploy/local defaults.
 */
export const redisUrl: string = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
export const kafkaBrokers: readonly string[] = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092')
  .split(',')
  .map((broker) => broker.trim())
  .filter((broker) => broker.length > 0);

/** A namespace no other test run shares: Redis key prefix, Kafka topic prefix and group ids. */
export function uniqueNamespace(label: string): string {
  return `sytest-${label}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

const run = promisify(execFile);
const deployDir = fileURLToPath(new URL('../../../deploy/local/', import.meta.url));

/**
 * Runs `deploy/local/<service>.sh <action>`; the scripts wait until the server answers (start) or
 * has exited (stop), so the caller awaits the real condition, not a timer.
 */
export async function localService(service: 'redis' | 'kafka', action: 'start' | 'stop'): Promise<void> {
  try {
    await run('bash', [`${deployDir}${service}.sh`, action], { timeout: 240_000 });
  } catch (error) {
    const output = error as { stderr?: string; stdout?: string };
    throw new Error(`deploy/local/${service}.sh ${action} failed:\n${output.stderr ?? ''}${output.stdout ?? ''}`, { cause: error });
  }
}
