#!/usr/bin/env node
// Pipeline benchmark: the distributed spine on the local servers (deploy/local: Redis, Kafka,
// ClickHouse), running dist/ as child processes: the API (`switchyard serve`) and, by default, the
// two workers as their own processes (`switchyard worker analytics-sink|sr-windows`; WORKERS=embedded
// runs them inside the API instead). Prints:
//   (i)   decisions/s end to end into ClickHouse over a sustained run (LOAD_SECONDS of load at
//         LOAD_CONNECTIONS, closed loop, or RATE req/s when set), the time until ClickHouse holds every
//         decision, and the sink lag (decisions answered but not yet in ClickHouse) sampled every second;
//   (ii)  feedback-to-effect delay p50/p99 through Kafka and the sr-windows worker;
//   (iii) decide throughput and latency at CONNECTIONS (64) connections, distributed, beside the same
//         measurement on the embedded service (bench/decide-bench.mjs's procedure).
// Bounded: about 2 minutes with the defaults. Everything lives in a fresh namespace (Redis key prefix,
// Kafka topic prefix, ClickHouse database) that is removed at the end.
import { createClient } from '@clickhouse/client';
import { Redis } from 'ioredis';
import { Admin, FetchIsolationLevels, ListOffsetTimestamps } from '@platformatic/kafka';
import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { decideBody } from './lib/decide-body.mjs';
import { feedbackToEffect, measureDecide, percentile, setUpMerchant } from './lib/decide-load.mjs';
import { spawnService } from './lib/spawn-service.mjs';
import { spawnWorker } from './lib/spawn-worker.mjs';

const env = process.env;
const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const kafkaBrokers = env.KAFKA_BROKERS ?? '127.0.0.1:9092';
const clickhouseUrl = env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';
const loadSeconds = Number(env.LOAD_SECONDS ?? 20);
const loadConnections = Number(env.LOAD_CONNECTIONS ?? 32);
const rate = env.RATE === undefined ? undefined : Number(env.RATE);
const samples = Number(env.FEEDBACK_SAMPLES ?? 100);
const duration = Number(env.DURATION ?? 10);
const connections = Number(env.CONNECTIONS ?? 64);
const workersMode = env.WORKERS === 'embedded' ? 'embedded' : 'separate';
const drainTimeoutMs = 90_000;

const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const namespace = { redisKeyPrefix: `b${id}:`, kafkaTopicPrefix: `b${id}.`, database: `b_${id}` };
const workerDataDir = mkdtempSync(join(tmpdir(), 'switchyard-bench-workers-'));
const distributedEnv = {
  REDIS_URL: redisUrl,
  KAFKA_BROKERS: kafkaBrokers,
  CLICKHOUSE_URL: clickhouseUrl,
  REDIS_KEY_PREFIX: namespace.redisKeyPrefix,
  KAFKA_TOPIC_PREFIX: namespace.kafkaTopicPrefix,
  KAFKA_CLIENT_ID: `b${id}`,
  CLICKHOUSE_DATABASE: namespace.database,
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdef-0123456789',
  ADMIN_SECRET: 'bench-admin-secret-0123456789abcdef',
  EMBEDDED_WORKERS: String(workersMode === 'embedded'),
  // The API's own log: errors only (its warnings would interleave with the bench's output).
  LOG_LEVEL: 'error',
};
const clickhouse = createClient({ url: clickhouseUrl, clickhouse_settings: { output_format_json_quote_64bit_integers: 0 } });
// Connects on its first call (no connect()); closed at the end.
const kafkaAdmin = new Admin({ clientId: `b${id}-admin`, bootstrapBrokers: kafkaBrokers.split(',') });
const log = (text) => process.stderr.write(`${text}\n`);
const fmt = (value, digits = 0) => Number(value).toFixed(digits);

async function scalar(query) {
  const result = await clickhouse.query({ query, format: 'JSONEachRow' });
  const [row] = await result.json();
  return row;
}

/** Decision rows of the merchant in ClickHouse; `final` de-duplicates (the reads' view), raw is cheaper. */
async function decisionRows(merchant, final) {
  const row = await scalar(
    `SELECT count() AS rows, uniqExact(event_id) AS unique FROM ${namespace.database}.analytics_domain_events ${final ? 'FINAL' : ''}
     WHERE merchant_id = '${merchant}' AND flow_type = 'decide_gateway_decision'`,
  );
  return { rows: Number(row.rows), unique: Number(row.unique) };
}

/**
 * Messages a worker's consumer group has not committed yet, over the topics it reads: each
 * partition's end (as a read_committed consumer sees it) minus the group's commit there (-1 = none, read as 0).
 */
async function groupLag(group = 'analytics-sink', topics = ['routing', 'scores', 'api']) {
  const names = topics.map((topic) => `${namespace.kafkaTopicPrefix}${topic}`);
  const metadata = await kafkaAdmin.metadata({ topics: [...names] }); // a copy: metadata() sorts the array it is given
  const partitionsOf = (name) => Array.from({ length: metadata.topics.get(name)?.partitionsCount ?? 0 }, (_, partition) => partition);
  const groupId = `${namespace.kafkaTopicPrefix}${group}`;
  const [ends, [committed]] = await Promise.all([
    kafkaAdmin.listOffsets({
      topics: names.map((name) => ({
        name,
        partitions: partitionsOf(name).map((partitionIndex) => ({ partitionIndex, timestamp: ListOffsetTimestamps.LATEST })),
      })),
      isolationLevel: FetchIsolationLevels.READ_COMMITTED,
    }),
    kafkaAdmin.listConsumerGroupOffsets({ groups: [{ groupId, topics: names.map((name) => ({ name, partitionIndexes: partitionsOf(name) })) }] }),
  ]);
  const done = new Map(
    (committed?.topics ?? []).flatMap((topic) =>
      topic.partitions.map((p) => [`${topic.name}#${p.partitionIndex}`, p.committedOffset < 0n ? 0n : p.committedOffset]),
    ),
  );
  let lag = 0n;
  for (const topic of ends) for (const p of topic.partitions) lag += p.offset - (done.get(`${topic.name}#${p.partitionIndex}`) ?? 0n);
  return Number(lag);
}

/** Least-squares slope of lag over time, in decisions per second. */
function slope(points) {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.lag, 0) / n;
  const num = points.reduce((s, p) => s + (p.t - mx) * (p.lag - my), 0);
  const den = points.reduce((s, p) => s + (p.t - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** One POST /decide-gateway on a keep-alive agent; resolves with the status once the body is read. */
function postDecide(agent, url, auth, body) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = httpRequest(
      `${url}/decide-gateway`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...auth } },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode));
        response.once('error', reject);
      },
    );
    request.once('error', reject);
    request.end(payload);
  });
}

/**
 * The sustained run's load: LOAD_CONNECTIONS lanes, each sending its next decision when the last
 * one was answered (closed loop) or at its share of RATE. Unlike autocannon, which drops the
 * requests in flight when its time is up, every request here is awaited, so the count of 200s is
 * exactly the number of decisions the API made: the figure ClickHouse must end up with.
 */
async function sustainedLoad(url, auth, merchant, onAnswer) {
  const agent = new Agent({ keepAlive: true, maxSockets: loadConnections });
  const latencies = [];
  const endAt = performance.now() + loadSeconds * 1000;
  const laneIntervalMs = rate === undefined ? 0 : (1000 * loadConnections) / rate;
  let counter = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: loadConnections }, async (_, lane) => {
      let nextAt = performance.now() + (laneIntervalMs * lane) / loadConnections;
      while (performance.now() < endAt) {
        if (laneIntervalMs > 0) {
          await sleep(Math.max(0, nextAt - performance.now()));
          nextAt += laneIntervalMs;
          if (performance.now() >= endAt) break;
        }
        const sent = performance.now();
        try {
          const status = await postDecide(agent, url, auth, decideBody(merchant, `sustained_${counter++}`));
          latencies.push(performance.now() - sent);
          onAnswer(status);
        } catch (error) {
          errors++;
          if (errors === 1) log(`sustained load: request failed: ${error.message}`);
        }
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { errors, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function sustainedRun(url, auth, merchant) {
  let answered = 0;
  let refused = 0;
  const started = performance.now();
  const lagSamples = [];
  let loading = true;
  const sampler = (async () => {
    for (let second = 1; loading; second++) {
      await sleep(Math.max(0, started + second * 1000 - performance.now()));
      if (!loading) break;
      const okAtSample = answered;
      const [{ rows }, kafkaLag] = await Promise.all([decisionRows(merchant, false), groupLag()]);
      lagSamples.push({ t: (performance.now() - started) / 1000, answered: okAtSample, rows, lag: Math.max(0, okAtSample - rows), kafkaLag });
    }
  })();
  const result = await sustainedLoad(url, auth, merchant, (status) => (status === 200 ? answered++ : refused++));
  const loadEnded = performance.now();
  loading = false;
  await sampler;
  const atEnd = await decisionRows(merchant, false);
  const lagAtEnd = Math.max(0, answered - atEnd.rows);
  let final = await decisionRows(merchant, true);
  while (final.rows < answered) {
    if (performance.now() - loadEnded > drainTimeoutMs)
      throw new Error(`ClickHouse holds ${final.rows} of ${answered} decisions ${drainTimeoutMs / 1000} s after the load`);
    await sleep(100);
    final = await decisionRows(merchant, true);
  }
  const drained = performance.now();
  // sr-windows reads the same decisions (to keep what feedback needs); the feedback probe below
  // starts once it has caught up, so it measures the steady state, not this backlog.
  while ((await groupLag('sr-windows', ['routing'])) > 0) {
    if (performance.now() - loadEnded > drainTimeoutMs) throw new Error(`sr-windows still behind ${drainTimeoutMs / 1000} s after the load`);
    await sleep(100);
  }
  const windowsCaughtUp = performance.now();
  return { answered, refused, errors: result.errors, final, started, loadEnded, drained, windowsCaughtUp, lagAtEnd, lagSamples, latency: result };
}

function printSustained(run) {
  const loadS = (run.loadEnded - run.started) / 1000;
  const totalS = (run.drained - run.started) / 1000;
  const lags = run.lagSamples.map((s) => s.lag);
  const half = Math.floor(lags.length / 2);
  const mean = (values) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
  const trend = slope(run.lagSamples);
  // "Grew" = the sink falls behind by more than 5 % of the input rate; below that the lag is batching noise.
  const share = trend / (run.answered / loadS);
  const verdict =
    share > 0.05 ? 'GREW during the run (the sink is slower than the API)' : share > 0.01 ? 'bounded (slight upward drift)' : 'flat (the sink kept up)';
  console.log(
    `(i) sustained load: ${rate === undefined ? `closed loop at ${loadConnections} connections` : `${rate} req/s fixed rate`}, ${fmt(loadS, 1)} s, workers ${workersMode}`,
  );
  console.log(
    `    API answered ${run.answered} decisions (${fmt(run.answered / loadS)} req/s, p50 ${fmt(run.latency.p50, 1)} ms, p99 ${fmt(run.latency.p99, 1)} ms; ${run.refused} non-200, ${run.errors} errors)`,
  );
  console.log(
    `    end to end into ClickHouse: ${fmt(run.answered / totalS)} decisions/s (all ${run.answered} rows present ${fmt((run.drained - run.loadEnded) / 1000, 2)} s after the load ended)`,
  );
  console.log(`    sr-windows caught up ${fmt((run.windowsCaughtUp - run.loadEnded) / 1000, 2)} s after the load ended`);
  console.log(
    `    exactly once: ${run.final.rows === run.answered && run.final.unique === run.final.rows ? 'yes' : 'NO'} (FINAL rows ${run.final.rows}, uniqExact(event_id) ${run.final.unique})`,
  );
  console.log(
    `    sink lag at end of load: ${run.lagAtEnd} decisions; max ${Math.max(0, ...lags)}; mean ${fmt(mean(lags.slice(0, half)))} (first half) → ${fmt(mean(lags.slice(half)))} (second half)`,
  );
  console.log(`    lag trend ${trend >= 0 ? '+' : ''}${fmt(trend, 1)} decisions/s (${fmt(100 * share, 1)} % of the input rate): ${verdict}`);
  console.log(`    lag per second (decisions not yet in ClickHouse): ${lags.join(' ')}`);
  console.log(`    kafka consumer lag per second (messages): ${run.lagSamples.map((s) => s.kafkaLag).join(' ')}`);
}

async function deleteNamespace() {
  const redis = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace.redisKeyPrefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
  const groups = [...(await kafkaAdmin.listGroups()).keys()].filter((group) => group.startsWith(namespace.kafkaTopicPrefix));
  if (groups.length > 0) await kafkaAdmin.deleteGroups({ groups });
  const topics = (await kafkaAdmin.listTopics()).filter((topic) => topic.startsWith(namespace.kafkaTopicPrefix));
  if (topics.length > 0) await kafkaAdmin.deleteTopics({ topics });
  await clickhouse.command({ query: `DROP DATABASE IF EXISTS ${namespace.database}` });
}

const benchStarted = performance.now();
const processes = [];
let distributed;
let embedded;
try {
  log(`starting the distributed service (namespace ${id}, workers ${workersMode})…`);
  const service = await spawnService(distributedEnv);
  processes.push(service);
  if (workersMode === 'separate') {
    for (const name of ['analytics-sink', 'sr-windows']) {
      processes.push(await spawnWorker(name, { ...distributedEnv, DATA_DIR: join(workerDataDir, name) }));
    }
  }
  const merchant = `bench_${id}`;
  const auth = await setUpMerchant(service.url, merchant);

  log(`(i) ${loadSeconds} s sustained load…`);
  const run = await sustainedRun(service.url, auth, merchant);

  log(`(ii) ${samples} feedback-to-effect samples…`);
  const delays = await feedbackToEffect(service.url, auth, merchant, samples);

  log(`(iii) decide throughput, distributed, ${duration} s at ${connections} connections…`);
  distributed = await measureDecide(service.url, auth, merchant, { connections, duration });
  for (const child of processes.splice(0).reverse()) await child.stop();

  log(`(iii) decide throughput, embedded, ${duration} s at ${connections} connections…`);
  const local = await spawnService({
    REDIS_URL: undefined,
    KAFKA_BROKERS: undefined,
    CLICKHOUSE_URL: undefined,
    ADMIN_SECRET: 'bench-admin-secret-0123456789abcdef',
  });
  processes.push(local);
  const localMerchant = `bench_embedded_${id}`;
  embedded = await measureDecide(local.url, await setUpMerchant(local.url, localMerchant), localMerchant, { connections, duration });
  for (const child of processes.splice(0).reverse()) await child.stop();

  console.log(`pipeline benchmark (distributed: Redis ${redisUrl}, Kafka ${kafkaBrokers}, ClickHouse ${clickhouseUrl}; workers ${workersMode})`);
  printSustained(run);
  console.log(
    `(ii) feedback-to-effect through Kafka: p50 ${fmt(percentile(delays, 50), 2)} ms, p99 ${fmt(percentile(delays, 99), 2)} ms, max ${fmt(delays.at(-1), 2)} ms over ${samples} samples`,
  );
  console.log(`(iii) decide at ${connections} connections, ${duration} s (after a 3 s warm-up):`);
  for (const [label, figures] of [
    ['distributed', distributed],
    ['embedded', embedded],
  ]) {
    console.log(
      `    ${label.padEnd(11)} ${fmt(figures.requestsPerSecond).padStart(6)} req/s   p50 ${String(figures.p50).padStart(3)} ms   p99 ${String(figures.p99).padStart(3)} ms   max ${figures.max} ms   (${figures.total} requests, ${figures.errors} errors/non-2xx)`,
    );
  }
  console.log(`total bench time ${fmt((performance.now() - benchStarted) / 1000, 1)} s`);
} finally {
  for (const child of processes.reverse()) await child.stop();
  await deleteNamespace().catch((error) => log(`namespace cleanup failed: ${error.message}`));
  await kafkaAdmin.close();
  await clickhouse.close();
  rmSync(workerDataDir, { recursive: true, force: true });
}
