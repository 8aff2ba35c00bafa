import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Admin } from '@platformatic/kafka';
import { topics } from '../../../src/events/event-envelope.js';
import { deleteKafkaNamespace, deleteRedisNamespace, kafkaBrokers, redisUrl } from '../adapters/local-services.js';
import { groupLag, testKafkaAdmin } from '../../fixtures/kafka-client.js';
import { pollUntil } from '../../fixtures/poll-until.js';

/** The ClickHouse server from deploy/local (or CI). A server that is down fails the test, never skips it. */
export const clickhouseUrl: string = process.env['CLICKHOUSE_URL'] ?? 'http://127.0.0.1:8123';

/** 32+ characters: distributed mode refuses a shorter ADMIN_SECRET. */
export const adminSecret = 'pipeline-admin-secret-0123456789abcdef';

/**
 * One test's private corner of every shared server: a Redis key prefix, a Kafka topic (and group)
 * prefix, a ClickHouse database and a data directory. Nothing another test or run uses.
 */
export interface PipelineNamespace {
  readonly id: string;
  readonly redisKeyPrefix: string;
  readonly kafkaTopicPrefix: string;
  readonly clickhouseDatabase: string;
  readonly dataDir: string;
}

export async function createPipelineNamespace(): Promise<PipelineNamespace> {
  const id = `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
  return {
    id,
    redisKeyPrefix: `t${id}:`,
    kafkaTopicPrefix: `t${id}.`,
    clickhouseDatabase: `t_${id}`,
    dataDir: await mkdtemp(join(tmpdir(), `sytest-pipeline-${id}-`)),
  };
}

export interface PipelineEnvOptions {
  /** Redis, Kafka and ClickHouse URLs set (distributed), or none (embedded: memory bus and state, chDB). */
  readonly distributed: boolean;
  readonly embeddedWorkers: boolean;
  readonly extra?: Readonly<Record<string, string>>;
}

/** The environment `loadConfig` (or a child `switchyard` process) gets for this namespace. */
export function pipelineEnv(namespace: PipelineNamespace, options: PipelineEnvOptions): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ADMIN_SECRET: adminSecret,
    // Distributed mode refuses to start without a shared JWT secret (replicas must agree on it).
    JWT_SECRET: 'pipeline-jwt-secret-0123456789abcdef-0123456789',
    DATA_DIR: namespace.dataDir,
    REDIS_KEY_PREFIX: namespace.redisKeyPrefix,
    KAFKA_TOPIC_PREFIX: namespace.kafkaTopicPrefix,
    KAFKA_CLIENT_ID: `t${namespace.id}`,
    CLICKHOUSE_DATABASE: namespace.clickhouseDatabase,
    EMBEDDED_WORKERS: String(options.embeddedWorkers),
    ...(options.distributed ? { REDIS_URL: redisUrl, KAFKA_BROKERS: kafkaBrokers.join(','), CLICKHOUSE_URL: clickhouseUrl } : {}),
    ...options.extra,
  };
}

/**
 * Removes everything the namespace left on the shared servers, and its data directory. Every step
 * is attempted even when an earlier one fails; the failures are reported together at the end.
 */
export async function deletePipelineNamespace(
  namespace: PipelineNamespace,
  options: { readonly distributed: boolean /** Another Kafka than KAFKA_BROKERS (a test's own cluster). */; readonly kafkaBrokers?: readonly string[] },
): Promise<void> {
  const steps: (() => Promise<void>)[] = [() => rm(namespace.dataDir, { recursive: true, force: true })];
  if (options.distributed) {
    steps.push(
      async () => {
        const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
        try {
          await redis.connect();
          await deleteRedisNamespace(redis, namespace.redisKeyPrefix);
        } finally {
          redis.disconnect();
        }
      },
      async () => {
        const admin = createKafkaAdmin(namespace, options.kafkaBrokers);
        try {
          // A killed worker's member stays until its session expires: the deletion retries until then.
          await deleteKafkaNamespace(admin, namespace.kafkaTopicPrefix);
        } finally {
          await admin.close();
        }
      },
      async () => {
        const clickhouse = createClickHouse();
        try {
          await clickhouse.command({ query: `DROP DATABASE IF EXISTS ${namespace.clickhouseDatabase}` });
        } finally {
          await clickhouse.close();
        }
      },
    );
  }
  const failures = (await Promise.allSettled(steps.map((step) => step()))).filter((result) => result.status === 'rejected');
  if (failures.length > 0)
    throw new AggregateError(
      failures.map((failure) => failure.reason),
      `cleanup of namespace ${namespace.id} failed: ${failures.map((failure) => String(failure.reason)).join('; ')}`,
    );
}

/** Keys matching a pattern, by SCAN (never KEYS, which would block a shared server). */
export async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

export function createClickHouse(): ClickHouseClient {
  // The client's own error log is off: every failure is rethrown into the test that made the call.
  return createClient({ url: clickhouseUrl, clickhouse_settings: { output_format_json_quote_64bit_integers: 0 }, log: { level: ClickHouseLogLevel.OFF } });
}

/** Decision rows of one merchant in ClickHouse: rows as read (FINAL) and distinct event ids. */
export async function decisionRowCounts(clickhouse: ClickHouseClient, database: string, merchantId: string): Promise<{ rows: number; unique: number }> {
  // ClickHouse 18.16 has no query parameters; test merchant ids are plain words, checked here.
  if (!/^[A-Za-z0-9_-]+$/.test(merchantId) || !/^[A-Za-z0-9_]+$/.test(database)) throw new TypeError(`unsafe identifier: ${database} / ${merchantId}`);
  const result = await clickhouse.query({
    query: `SELECT count() AS rows, uniqExact(event_id) AS unique FROM ${database}.analytics_domain_events FINAL
            WHERE merchant_id = '${merchantId}' AND flow_type = 'decide_gateway_decision'`,
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ rows: number; unique: number }>();
  return { rows: Number(row?.rows ?? 0), unique: Number(row?.unique ?? 0) };
}

/**
 * One HTTP call against a listening server; JSON bodies are parsed (untyped: the assertions that
 * read them are the check), anything else is kept as text.
 */
export async function call(baseUrl: string, method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
}

/** Creates a merchant with a success-rate config that never hedges; returns its API-key headers. */
export async function createMerchant(baseUrl: string, merchantId: string): Promise<Record<string, string>> {
  const created = await call(baseUrl, 'POST', '/merchant-account/create', { merchant_id: merchantId }, { 'x-admin-secret': adminSecret });
  if (created.status !== 200) throw new Error(`merchant create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const auth = { 'x-api-key': String(created.body.api_key) };
  const rule = await call(
    baseUrl,
    'POST',
    '/rule/create',
    { merchant_id: merchantId, config: { type: 'successRate', data: { defaultBucketSize: 20, defaultHedgingPercent: 0 } } },
    auth,
  );
  if (rule.status !== 200) throw new Error(`rule create failed: ${rule.status} ${JSON.stringify(rule.body)}`);
  return auth;
}

/** Decision count shown by GET /analytics/decisions (the "Decisions" tile), over the last day. */
export async function decisionsTile(baseUrl: string, auth: Record<string, string>): Promise<number> {
  const report = await call(baseUrl, 'GET', '/analytics/decisions?range=1d', undefined, auth);
  if (report.status !== 200) throw new Error(`/analytics/decisions → ${report.status} ${JSON.stringify(report.body)}`);
  const tile = (report.body.tiles as { label: string; value: string }[]).find((entry) => entry.label === 'Decisions');
  return Number(tile?.value ?? Number.NaN);
}

/** Rejects when `promise` has not settled within `timeoutMs`: awaited conditions get a bounded deadline. */
export async function withDeadline<T>(what: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The namespace's admin client; it connects on its first call (close() it when done). */
export function createKafkaAdmin(namespace: PipelineNamespace, brokers?: readonly string[]): Admin {
  return brokers === undefined ? testKafkaAdmin(`t${namespace.id}-admin`) : new Admin({ clientId: `t${namespace.id}-admin`, bootstrapBrokers: [...brokers] });
}

/**
 * Messages a consumer group (`<topic prefix><group>`) has not committed yet, over every topic of
 * the namespace: 0 means a worker in another process has handled everything on the broker.
 */
export function consumerGroupLag(admin: Admin, namespace: PipelineNamespace, group: string): Promise<number> {
  return groupLag(
    admin,
    `${namespace.kafkaTopicPrefix}${group}`,
    topics.map((topic) => `${namespace.kafkaTopicPrefix}${topic}`),
  );
}

/**
 * Reads an analytics report until `accept` holds: embedded, once, after every in-process worker
 * caught up (the read must then hold at once); distributed, polled until the sink has written.
 */
export async function readReport(
  server: { readonly url: string; readonly workers: readonly { caughtUp(): Promise<void> }[] },
  options: { readonly distributed: boolean; readonly auth: Record<string, string> },
  path: string,
  accept: (response: Awaited<ReturnType<typeof call>>) => boolean,
): Promise<Awaited<ReturnType<typeof call>>> {
  const read = () => call(server.url, 'GET', path, undefined, options.auth);
  if (!options.distributed) {
    for (const worker of server.workers) await worker.caughtUp();
    const response = await read();
    if (!accept(response)) throw new Error(`${path}: unexpected report ${JSON.stringify(response.body)}`);
    return response;
  }
  return pollUntil(path, read, accept);
}
