import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import type { Admin } from '@platformatic/kafka';
import { pollUntil } from '../../fixtures/poll-until.js';

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
  if (action === 'stop') {
    const { host, port } = service === 'redis' ? hostPort(new URL(redisUrl).host) : hostPort(kafkaBrokers[0] ?? '');
    if (await accepts(host, port)) {
      throw new Error(
        `deploy/local/${service}.sh stop left ${host}:${port} answering: that server was not started by the script ` +
          `(another run dir?). Stop it and start it with \`bash deploy/local/${service}.sh start\` so fault tests can restart it.`,
      );
    }
  }
}

function hostPort(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  return { host: address.slice(0, colon), port: Number(address.slice(colon + 1)) };
}

/** One TCP connect attempt: true when something accepts connections on host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Deletes every key under a prefix (SCAN, never KEYS, so a shared server is not blocked). */
export async function deleteRedisNamespace(admin: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (found.length > 0) await admin.del(...found);
  } while (cursor !== '0');
}

/**
 * Removes a test's consumer groups and topics: every name under its prefix (a namespace no other
 * run shares, so the prefix alone is safe). The broker refuses to delete a group that still has a
 * member (NON_EMPTY_GROUP, which the client does not retry): a member no client speaks for any more
 * (a killed worker's, one left behind when a consumer rejoined under a new id after a broker restart,
 * or one whose LeaveGroup failed) stays until its session times out (10 s).
 * The whole deletion is therefore tried again until `timeoutMs`; past it the error names every
 * cause the client aggregated (pollUntil), so a failure says which group and why.
 */
export async function deleteKafkaNamespace(admin: Admin, prefix: string, timeoutMs = 30_000): Promise<void> {
  await pollUntil(
    `Kafka namespace ${prefix} deleted`,
    () => deleteKafkaNamespaceOnce(admin, prefix),
    () => true,
    timeoutMs,
  );
}

async function deleteKafkaNamespaceOnce(admin: Admin, prefix: string): Promise<void> {
  const groups = [...(await admin.listGroups()).keys()].filter((groupId) => groupId.startsWith(prefix));
  if (groups.length > 0) await admin.deleteGroups({ groups });
  // Only the topics that exist: a test that failed while creating them must still clean up.
  const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
  if (topics.length > 0) await admin.deleteTopics({ topics });
}

/**
 * A Redis client of the test file's own for looking at and cleaning up keys: connected before its
 * tests (an unreachable server fails them, never skips them), disconnected after.
 */
export function redisAdminForFile(): () => Redis {
  let admin: Redis | undefined;
  beforeAll(async () => {
    admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await admin.connect();
    } catch (error) {
      throw new Error(`Redis is not reachable at ${redisUrl}: start it with \`bash deploy/local/redis.sh start\``, { cause: error });
    }
  });
  afterAll(() => {
    admin?.disconnect();
  });
  return () => {
    if (admin === undefined) throw new Error('the Redis admin client is used before its beforeAll ran');
    return admin;
  };
}

/**
 * The S3-compatible server of deploy/local/s3.sh (versitygw) for FILE_STORE=s3: S3_* from the
 * environment (.run/services.env), else the script's defaults. An unreachable server fails the tests
 * that use it, never skips them.
 */
export const s3Settings = {
  endpoint: process.env['S3_ENDPOINT'] ?? 'http://127.0.0.1:7070',
  bucket: process.env['S3_BUCKET'] ?? 'switchyard-files',
  region: process.env['S3_REGION'] ?? 'us-east-1',
  accessKeyId: process.env['S3_ACCESS_KEY_ID'] ?? 'switchyard-local',
  secretAccessKey: process.env['S3_SECRET_ACCESS_KEY'] ?? 'switchyard-local-secret',
} as const;

/** The same settings as the service's environment (FILE_STORE=s3 and S3_*), under a key prefix of the caller's. */
export function s3Env(prefix: string): Record<string, string> {
  return {
    FILE_STORE: 's3',
    S3_ENDPOINT: s3Settings.endpoint,
    S3_BUCKET: s3Settings.bucket,
    S3_REGION: s3Settings.region,
    S3_ACCESS_KEY_ID: s3Settings.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3Settings.secretAccessKey,
    S3_PREFIX: prefix,
  };
}
