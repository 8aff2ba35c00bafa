#!/usr/bin/env node
// Analytics-sink capacity, measured alone: the decision topic is filled first with N decision.created
// events (default 1,000,000; N=… for a quick run), then `switchyard worker analytics-sink` (dist/) is
// started as its own process and timed until its consumer group has committed every event (the sink
// commits a batch only after its insert returned, so "committed" means "in the store"). Then:
//   - exactly once: ClickHouse holds N rows read with FINAL and N distinct event ids;
//   - redelivery: the group's offsets go back to the start and the worker runs again over all N
//     events (every row is inserted a second time); the reads' view must still hold N rows.
// ENGINE=clickhouse (default; CLICKHOUSE_URL, the deploy/local 18.16 server) or ENGINE=chdb (the
// worker runs embedded chDB under its DATA_DIR; the bench opens that folder after the worker exited
// to count). Prints one JSON line per pass and a summary. Bounded: N ≤ 1,000,000 and DRAIN_TIMEOUT_S
// (300 s) per pass. Kafka at KAFKA_BROKERS; everything lives in a fresh namespace (topic prefix,
// consumer group, database, temp dir) that is removed at the end. Only 127.0.0.1 is accepted.
// Profiling: WORKER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" passes flags to the worker.
import { createClient } from '@clickhouse/client';
import { Admin, ListOffsetTimestamps } from '@platformatic/kafka';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSeconds } from './lib/proc-cpu.mjs';

const root = new URL('..', import.meta.url).pathname;
const { createKafkaEventBus } = await import(join(root, 'dist/src/adapters/kafka/kafka-event-bus.js'));
const { createEvent } = await import(join(root, 'dist/src/events/event-envelope.js'));
const { silentLogger } = await import(join(root, 'dist/src/logging/logger.js'));

const env = process.env;
const engine = env.ENGINE === 'chdb' ? 'chdb' : 'clickhouse';
const total = Math.min(Number(env.N ?? 1_000_000), 1_000_000);
const brokers = (env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const clickhouseUrl = env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';
const partitions = Number(env.PARTITIONS ?? 3);
const drainTimeoutMs = Number(env.DRAIN_TIMEOUT_S ?? 300) * 1000;
const redeliver = env.REDELIVER !== '0';
const workerFlags = (env.WORKER_NODE_FLAGS ?? '').split(' ').filter(Boolean);

for (const address of [...brokers, new URL(clickhouseUrl).host]) {
  if (!address.startsWith('127.0.0.1:') && !address.startsWith('localhost:')) throw new Error(`bench runs against 127.0.0.1 only, not ${address}`);
}

const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const topicPrefix = `sb${id}.`;
const database = `sb_${id}`;
const group = `${topicPrefix}analytics-sink`;
const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-sink-bench-'));
const log = (text) => process.stderr.write(`${text}\n`);
const fmt = (value, digits = 0) => Number(value).toFixed(digits);

// Connects on its first call (no connect()); closed at the end.
const admin = new Admin({ clientId: `sb${id}-admin`, bootstrapBrokers: brokers });
const clickhouse =
  engine === 'clickhouse'
    ? createClient({ url: clickhouseUrl, request_timeout: 300_000, clickhouse_settings: { output_format_json_quote_64bit_integers: 0 } })
    : undefined;

const gateways = ['stripe', 'adyen', 'checkout', 'braintree', 'razorpay'];
const networks = ['VISA', 'MASTERCARD', 'AMEX', 'RUPAY'];
const merchants = Array.from({ length: 20 }, (_, index) => `merchant_${index}`);

/** A decision.created as /decide-gateway publishes it (about 600 bytes of JSON). */
function decisionEvent(index, nowMs) {
  const gateway = gateways[index % gateways.length];
  const network = networks[index % networks.length];
  return createEvent(
    'decision.created',
    merchants[index % merchants.length],
    {
      paymentId: `pay_${id}_${index}`,
      requestId: randomUUID(),
      gateway,
      routingApproach: index % 7 === 0 ? 'SR_V3_HEDGING' : 'SR_SELECTION_V3_ROUTING',
      gatewayPriorityMap: Object.fromEntries(gateways.map((name, rank) => [name, 1 - rank * 0.05])),
      rankingAlgorithm: 'SR_BASED_ROUTING',
      eliminationEnabled: true,
      latencyMs: index % 13,
      payment: {
        orderType: 'ORDER_PAYMENT',
        paymentMethodType: 'CARD',
        paymentMethod: 'CREDIT',
        cardType: 'CREDIT',
        cardNetwork: network,
        cardIsIn: '411111',
        currency: 'USD',
        country: 'US',
        authType: 'THREE_DS',
        amount: 100 + (index % 1000),
      },
      windowDimension: `m:${merchants[index % merchants.length]}|CARD|CREDIT|${network}`,
      eliminationDimension: `m:${merchants[index % merchants.length]}|CARD|CREDIT`,
    },
    nowMs,
  );
}

/** Fills the topics through the project's own bus (its producer: idempotent, acks=all). */
async function fill() {
  const bus = await createKafkaEventBus({
    brokers,
    clientId: `sb${id}-fill`,
    topicPrefix,
    partitions,
    spoolDir: join(dataDir, 'fill-spool'),
    spoolMaxEvents: 1_000_000,
    lingerMs: 5,
    maxBatchEvents: 1000, // ~600 KB per request: under the broker's 1 MB message.max.bytes
    logger: silentLogger,
  });
  const started = performance.now();
  const chunk = 10_000;
  const base = Date.now() - 60_000;
  let accepted = 0;
  // publish() resolves once the events are buffered; the acknowledged count (acks=all) is polled.
  const delivered = async (target) => {
    while (bus.health().published < target) {
      if (bus.health().spooled > 0) throw new Error('the fill spooled events: is the broker up?');
      await sleep(10);
    }
  };
  for (let offset = 0; offset < total; offset += chunk) {
    const size = Math.min(chunk, total - offset);
    await bus.publish(Array.from({ length: size }, (_, index) => decisionEvent(offset + index, base + Math.floor((offset + index) / 100))));
    accepted += size;
    await delivered(accepted - chunk); // bounded memory: at most two chunks wait in the producer
  }
  await delivered(accepted);
  await bus.close();
  return performance.now() - started;
}

/** Committed offsets of the sink's group, summed over the routing topic's partitions (-1 = none yet). */
async function committed() {
  const routing = { name: `${topicPrefix}routing`, partitionIndexes: Array.from({ length: partitions }, (_, index) => index) };
  const [entry] = await admin.listConsumerGroupOffsets({ groups: [{ groupId: group, topics: [routing] }] });
  const topic = entry?.topics.find((candidate) => candidate.name === routing.name);
  return (topic?.partitions ?? []).reduce((sum, partition) => sum + (partition.committedOffset < 0n ? 0 : Number(partition.committedOffset)), 0);
}

/** Moves the (empty) group back to the first offset of every routing partition, so every event is delivered again. */
async function rewindGroup() {
  const name = `${topicPrefix}routing`;
  const [earliest] = await admin.listOffsets({
    topics: [{ name, partitions: Array.from({ length: partitions }, (_, partitionIndex) => ({ partitionIndex, timestamp: ListOffsetTimestamps.EARLIEST })) }],
  });
  const partitionOffsets = earliest.partitions.map(({ partitionIndex, offset }) => ({ partition: partitionIndex, offset }));
  await admin.alterConsumerGroupOffsets({ groupId: group, topics: [{ name, partitionOffsets }] });
}

function spawnSink(pass) {
  const childEnv = {
    ...process.env,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_PREFIX: topicPrefix,
    KAFKA_CLIENT_ID: `sb${id}-sink`,
    KAFKA_PARTITIONS: String(partitions),
    CLICKHOUSE_DATABASE: database,
    DATA_DIR: join(dataDir, 'worker'),
    LOG_LEVEL: 'info',
  };
  delete childEnv.REDIS_URL;
  if (engine === 'clickhouse') childEnv.CLICKHOUSE_URL = clickhouseUrl;
  else delete childEnv.CLICKHOUSE_URL;
  const child = spawn(process.execPath, [...workerFlags, join(root, 'dist/cli/main.js'), 'worker', 'analytics-sink'], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stderrLines = [];
  createInterface({ input: child.stderr }).on('line', (text) => {
    stderrLines.push(text);
    log(`[sink ${pass} stderr] ${text}`);
  });
  let errors = 0;
  createInterface({ input: child.stdout }).on('line', (text) => {
    if (!text.startsWith('{')) return;
    const line = JSON.parse(text);
    if (line.level >= 40) {
      errors += line.level >= 50 ? 1 : 0;
      log(`[sink ${pass}] ${line.msg}${line.err ? `: ${line.err.message}` : ''}`);
    }
  });
  return {
    exited,
    /** CPU seconds (user + system) the worker process has used so far (Linux /proc; undefined elsewhere). */
    cpuSeconds: () => cpuSeconds(child.pid),
    errors: () => errors,
    stderr: stderrLines,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs the sink until the group committed every event; returns timings and its rate. */
async function drainPass(pass) {
  const spawned = performance.now();
  const sink = spawnSink(pass);
  const samples = [];
  let first;
  let done = false;
  const dead = sink.exited.then((exit) => {
    if (!done) throw new Error(`the sink exited (${exit.code ?? exit.signal}) before it drained`);
  });
  dead.catch(() => undefined);
  while (!done) {
    const at = performance.now();
    if (at - spawned > drainTimeoutMs)
      throw new Error(`pass ${pass}: not drained after ${drainTimeoutMs / 1000} s (${samples.at(-1)?.count ?? 0} of ${total})`);
    const count = await Promise.race([committed(), dead]);
    samples.push({ at, count });
    if (first === undefined && count > 0) first = { at, count };
    if (count >= total) done = true;
    else await sleep(100);
  }
  const drainedAt = performance.now();
  const cpuSeconds = sink.cpuSeconds();
  const exit = await sink.stop();
  const steadyMs = first === undefined ? drainedAt - spawned : drainedAt - first.at;
  return {
    pass,
    events: total,
    totalSeconds: (drainedAt - spawned) / 1000,
    // From the first commit seen to the last: the sink's rate without process start, migration and group join.
    eventsPerSecond: first === undefined || first.count >= total ? total / ((drainedAt - spawned) / 1000) : (total - first.count) / (steadyMs / 1000),
    endToEndPerSecond: total / ((drainedAt - spawned) / 1000),
    // Less sensitive to other load on a shared machine than the rates: the worker's own CPU per event.
    workerCpuMicrosPerEvent: cpuSeconds === undefined ? undefined : (cpuSeconds * 1e6) / total,
    sinkErrors: sink.errors(),
    exit,
  };
}

async function countRows() {
  const sql = (final) =>
    `SELECT count() AS rows, uniqExact(event_id) AS ids FROM ${database}.analytics_domain_events ${final ? 'FINAL' : ''} WHERE flow_type = 'decide_gateway_decision'`;
  if (engine === 'clickhouse') {
    const read = async (final) => (await (await clickhouse.query({ query: sql(final), format: 'JSONEachRow' })).json())[0];
    const [raw, final] = [await read(false), await read(true)];
    return { raw: Number(raw.rows), final: Number(final.rows), ids: Number(final.ids) };
  }
  // chDB binds one folder per process: the worker has exited, so the bench can open it.
  const { Session } = createRequire(import.meta.url)('chdb');
  const session = new Session(join(dataDir, 'worker', 'analytics'));
  try {
    const read = (final) => JSON.parse(session.query(sql(final), 'JSONEachRow').trim());
    const [raw, final] = [read(false), read(true)];
    return { raw: Number(raw.rows), final: Number(final.rows), ids: Number(final.ids) };
  } finally {
    session.close();
  }
}

async function cleanup() {
  try {
    const groups = [...(await admin.listGroups()).keys()].filter((name) => name.startsWith(topicPrefix));
    if (groups.length > 0) await admin.deleteGroups({ groups });
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(topicPrefix));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } catch (error) {
    log(`kafka cleanup failed: ${error.message}`);
  }
  if (clickhouse !== undefined)
    await clickhouse.command({ query: `DROP DATABASE IF EXISTS ${database}` }).catch((error) => log(`clickhouse cleanup failed: ${error.message}`));
  rmSync(dataDir, { recursive: true, force: true });
}

const results = [];
try {
  log(`filling ${topicPrefix}routing with ${total} decision events (${partitions} partitions)…`);
  const fillMs = await fill();
  log(`filled in ${fmt(fillMs / 1000, 1)} s (${fmt(total / (fillMs / 1000))} events/s)`);

  log(`pass 1: analytics-sink into ${engine}…`);
  const first = await drainPass('first');
  const afterFirst = await countRows();
  results.push({ ...first, rows: afterFirst });
  console.log(JSON.stringify({ bench: 'sink', engine, ...results.at(-1) }));

  if (redeliver) {
    // Redelivery of everything: the group starts over, every row is inserted a second time.
    await rewindGroup();
    log('pass 2: offsets reset to the start; every event is delivered again…');
    const second = await drainPass('redelivery');
    const afterSecond = await countRows();
    results.push({ ...second, rows: afterSecond });
    console.log(JSON.stringify({ bench: 'sink', engine, ...results.at(-1) }));
  }

  const exactlyOnce = results.every((result) => result.rows.final === total && result.rows.ids === total);
  console.log(`analytics-sink into ${engine}: ${total} decision events, ${partitions} partitions, fill ${fmt(total / (fillMs / 1000))} events/s`);
  for (const result of results) {
    console.log(
      `  ${result.pass.padEnd(10)} ${fmt(result.eventsPerSecond).padStart(7)} events/s (drain rate)  ${fmt(result.endToEndPerSecond).padStart(7)} events/s incl. start  ${fmt(result.totalSeconds, 1)} s  worker CPU ${fmt(result.workerCpuMicrosPerEvent ?? NaN, 1)} µs/event  rows raw ${result.rows.raw} FINAL ${result.rows.final} ids ${result.rows.ids}  sink errors ${result.sinkErrors}`,
    );
  }
  console.log(`  exactly once (FINAL rows == distinct ids == ${total} after every pass): ${exactlyOnce ? 'yes' : 'NO'}`);
  if (!exactlyOnce) process.exitCode = 1;
} finally {
  await cleanup();
  await admin.close();
  await clickhouse?.close();
}
