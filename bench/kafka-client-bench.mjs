#!/usr/bin/env node
// Kafka client comparison on the local broker (deploy/local/kafka.sh): kafkajs (the EventBus adapter's
// client) against @platformatic/kafka, each set up the way src/adapters/kafka uses its client:
//   produce  idempotent producer, acks=all, one request in flight, batches of BATCH (500) decision
//            events (~700 bytes of JSON, keyed by payment id) awaited one after another: events/s;
//   consume  a new consumer group reads the N events from the start, committing each fetched batch
//            per partition after "handling" it (no auto-commit): events/s until all are committed;
//   latency  one event at a time at RATE/s (200) for LATENCY_SECONDS (10) into a running group
//            consumer: publish-to-consume p50/p99/max (send call to handler, same process clock);
//   restart  (RESTART=1; stops and starts the broker of SWITCHYARD_RUN_DIR with deploy/local/kafka.sh)
//            the same trickle keeps publishing while the broker stops for OUTAGE_SECONDS (5) and starts
//            again: failed sends, time from the broker being back to the first acknowledged send and to
//            the first consumed event, acknowledged events never consumed (must be 0), duplicates.
// Plus the same produce and consume through the EventBus port (dist/, @platformatic/kafka since the
// switch: publisher with its spool and linger, subscription with caughtUp) to show what the port adds.
// N (default 200,000; at most 1,000,000) per client. Topics and groups get a fresh prefix and are
// deleted at the end. Only 127.0.0.1. @platformatic/kafka is loaded from PLATFORMATIC_KAFKA (a folder
// where it is installed) or from node_modules.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixKafkajsRequestQueue } from './lib/fix-kafkajs-request-queue.mjs';

const root = new URL('..', import.meta.url).pathname;
const env = process.env;
const brokers = (env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const total = Math.min(Number(env.N ?? 200_000), 1_000_000);
const batchSize = Number(env.BATCH ?? 500);
const partitions = Number(env.PARTITIONS ?? 3);
const rate = Number(env.RATE ?? 200);
const latencySeconds = Number(env.LATENCY_SECONDS ?? 10);
const outageSeconds = Number(env.OUTAGE_SECONDS ?? 5);
const restart = env.RESTART === '1';
const phaseTimeoutMs = 180_000;
const clients = (env.CLIENTS ?? 'kafkajs,platformatic').split(',');

for (const address of brokers) {
  if (!address.startsWith('127.0.0.1:') && !address.startsWith('localhost:')) throw new Error(`bench runs against 127.0.0.1 only, not ${address}`);
}
if (restart && (env.SWITCHYARD_RUN_DIR === undefined || env.KAFKA_PORT === undefined || !brokers[0].endsWith(`:${env.KAFKA_PORT}`))) {
  throw new Error('RESTART=1 stops a broker: set SWITCHYARD_RUN_DIR and KAFKA_PORT to the broker of KAFKA_BROKERS (your own run dir)');
}

const kafkajs = createRequire(import.meta.url)('kafkajs');
// kafkajs without its 1 ms timer loop per connection (see that module).
fixKafkajsRequestQueue();
const platformatic = await import(
  env.PLATFORMATIC_KAFKA === undefined ? '@platformatic/kafka' : pathToFileURL(join(env.PLATFORMATIC_KAFKA, 'node_modules/@platformatic/kafka/dist/index.js')).href
);

const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const prefix = `kb${id}.`;
const log = (text) => process.stderr.write(`${text}\n`);
const fmt = (value, digits = 0) => Number(value).toFixed(digits);
const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

function decisionMessage(index) {
  const paymentId = `pay_${id}_${index}`;
  const value = JSON.stringify({
    id: randomUUID(),
    type: 'decision.created',
    version: 1,
    occurredAt: Date.now(),
    merchantId: `merchant_${index % 20}`,
    payload: {
      paymentId,
      requestId: randomUUID(),
      gateway: 'stripe',
      routingApproach: 'SR_SELECTION_V3_ROUTING',
      gatewayPriorityMap: { stripe: 1, adyen: 0.95, checkout: 0.9 },
      rankingAlgorithm: 'SR_BASED_ROUTING',
      eliminationEnabled: true,
      latencyMs: index % 13,
      payment: { orderType: 'ORDER_PAYMENT', paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardType: 'CREDIT', cardNetwork: 'VISA', cardIsIn: '411111', currency: 'USD', country: 'US', authType: 'THREE_DS', amount: 100 + (index % 1000) },
      windowDimension: `m:merchant_${index % 20}|CARD|CREDIT|VISA`,
      eliminationDimension: `m:merchant_${index % 20}|CARD|CREDIT`,
    },
  });
  return { key: paymentId, value };
}

function deadline(label) {
  const at = performance.now() + phaseTimeoutMs;
  return () => {
    if (performance.now() > at) throw new Error(`${label}: not done within ${phaseTimeoutMs / 1000} s`);
  };
}

// ---- the two clients, configured as the EventBus adapter configures kafkajs ----

function kafkajsClient() {
  const kafka = new kafkajs.Kafka({ clientId: `${prefix}kafkajs`, brokers, logLevel: kafkajs.logLevel.NOTHING, connectionTimeout: 3000, retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 3000 } });
  return {
    name: 'kafkajs',
    async producer() {
      const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: kafkajs.Partitioners.DefaultPartitioner, retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 } });
      await producer.connect();
      return {
        send: (topic, messages) => producer.sendBatch({ acks: -1, topicMessages: [{ topic, messages }] }),
        close: () => producer.disconnect(),
      };
    },
    /** onBatch(messages as {value, partition}) is awaited, then the batch's offset is committed. */
    async consumer(groupId, topic, onBatch) {
      const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 500, minBytes: 1, sessionTimeout: 10_000, heartbeatInterval: 1000, retry: { retries: 8, initialRetryTime: 300, maxRetryTime: 5000 } });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat }) => {
          await onBatch(batch.messages.map((message) => ({ value: message.value.toString('utf8'), partition: batch.partition })));
          const last = batch.messages.at(-1).offset;
          resolveOffset(last);
          await commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: (BigInt(last) + 1n).toString() }] }] });
          await heartbeat();
        },
      });
      return { close: () => consumer.disconnect() };
    },
  };
}

function platformaticClient() {
  const base = { clientId: `${prefix}platformatic`, bootstrapBrokers: brokers, connectTimeout: 3000 };
  return {
    name: '@platformatic/kafka',
    async producer() {
      const producer = new platformatic.Producer({ ...base, idempotent: true, acks: platformatic.ProduceAcks.ALL, autocreateTopics: false, retries: 3, retryDelay: 100, serializers: platformatic.stringSerializers });
      return {
        send: (topic, messages) => producer.send({ messages: messages.map((message) => ({ topic, key: message.key, value: message.value })) }),
        close: () => producer.close(),
      };
    },
    async consumer(groupId, topic, onBatch) {
      const consumer = new platformatic.Consumer({ ...base, groupId, deserializers: platformatic.stringDeserializers, autocommit: false, maxWaitTime: Number(env.PLATFORMATIC_MAX_WAIT ?? 500), minBytes: 1, sessionTimeout: 10_000, heartbeatInterval: 1000, retries: 8, retryDelay: 300 });
      const stream = await consumer.consume({ topics: [topic], mode: platformatic.MessagesStreamModes.COMMITTED, fallbackMode: platformatic.MessagesStreamFallbackModes.EARLIEST, autocommit: false });
      // The stream hands over messages one by one; whatever has arrived when the handler is free is
      // one batch (in order per partition), handled and then committed per partition, as with kafkajs.
      let pending = [];
      let running;
      const loop = async () => {
        while (pending.length > 0) {
          const batch = pending;
          pending = [];
          await onBatch(batch.map((message) => ({ value: message.value, partition: message.partition })));
          const lastPerPartition = new Map();
          for (const message of batch) lastPerPartition.set(message.partition, message);
          await Promise.all([...lastPerPartition.values()].map((message) => message.commit()));
        }
        running = undefined;
      };
      stream.on('data', (message) => {
        pending.push(message);
        running ??= new Promise(setImmediate).then(loop);
      });
      stream.on('error', (error) => log(`platformatic consumer stream error: ${error.message}`));
      return {
        async close() {
          while (running !== undefined) await running;
          await stream.close();
          await consumer.close();
        },
      };
    },
  };
}

// ---- phases ----

async function createTopic(name) {
  const admin = new kafkajs.Kafka({ clientId: `${prefix}admin`, brokers, logLevel: kafkajs.logLevel.NOTHING }).admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic: name, numPartitions: partitions }] });
  await admin.disconnect();
}

async function producePhase(client, topic) {
  const producer = await client.producer();
  const started = performance.now();
  for (let offset = 0; offset < total; offset += batchSize) {
    const messages = Array.from({ length: Math.min(batchSize, total - offset) }, (_, index) => decisionMessage(offset + index));
    await producer.send(topic, messages);
  }
  const seconds = (performance.now() - started) / 1000;
  await producer.close();
  return total / seconds;
}

async function consumePhase(client, topic) {
  let seen = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const started = performance.now();
  const consumer = await client.consumer(`${prefix}${client.name.replace(/\W/g, '')}-consume`, topic, async (messages) => {
    for (const message of messages) JSON.parse(message.value);
    seen += messages.length;
    if (seen >= total) resolveDone();
  });
  const check = deadline(`${client.name} consume`);
  await Promise.race([done, (async () => { for (;;) { check(); await sleep(200); if (seen >= total) return; } })()]);
  const seconds = (performance.now() - started) / 1000;
  await consumer.close(); // commits the last batch before leaving
  return { perSecond: total / seconds, seen };
}

/** A trickle of single events at `rate`/s, each consumed by a running group member; returns its record. */
async function trickle(client, topic, seconds, during) {
  const sentAt = new Map();
  const acked = new Set();
  const received = new Map();
  const latencies = [];
  let failures = 0;
  let firstAckAfter;
  let firstConsumeAfter;
  let markAt;
  const consumer = await client.consumer(`${prefix}${client.name.replace(/\W/g, '')}-trickle-${randomBytes(2).toString('hex')}`, topic, async (messages) => {
    const now = performance.now();
    for (const message of messages) {
      const { seq } = JSON.parse(message.value);
      received.set(seq, (received.get(seq) ?? 0) + 1);
      if (received.get(seq) === 1 && sentAt.has(seq)) latencies.push(now - sentAt.get(seq));
      if (markAt !== undefined && firstConsumeAfter === undefined && sentAt.get(seq) >= markAt) firstConsumeAfter = now - markAt;
    }
  });
  const producer = await client.producer();
  // Let the member join and fetch before the clock starts.
  await sleep(2000);
  let seq = 0;
  const intervalMs = 1000 / rate;
  const started = performance.now();
  const sends = [];
  const duringDone = during === undefined ? Promise.resolve() : during({ mark: () => (markAt = performance.now()) });
  let duringFinished = during === undefined;
  duringDone.then(() => (duringFinished = true));
  while (performance.now() - started < seconds * 1000 || !duringFinished) {
    const current = seq++;
    const value = JSON.stringify({ seq: current, pad: 'x'.repeat(600) });
    sentAt.set(current, performance.now());
    sends.push(
      producer.send(topic, [{ key: `k${current}`, value }]).then(
        () => {
          acked.add(current);
          if (markAt !== undefined && firstAckAfter === undefined && sentAt.get(current) >= markAt) firstAckAfter = performance.now() - markAt;
        },
        () => failures++,
      ),
    );
    await sleep(Math.max(0, started + seq * intervalMs - performance.now()));
  }
  await duringDone;
  await Promise.allSettled(sends);
  // Every acknowledged event must arrive; after 30 s the missing ones are reported as lost.
  const drainUntil = performance.now() + 30_000;
  while ([...acked].some((value) => !received.has(value)) && performance.now() < drainUntil) await sleep(100);
  await producer.close();
  await consumer.close();
  latencies.sort((a, b) => a - b);
  return {
    sent: seq,
    acked: acked.size,
    failures,
    lost: [...acked].filter((value) => !received.has(value)).length,
    duplicates: [...received.values()].filter((count) => count > 1).length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
    firstAckAfter,
    firstConsumeAfter,
  };
}

function broker(action) {
  execFileSync('bash', [join(root, 'deploy/local/kafka.sh'), action], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 240_000 });
}

async function restartPhase(client, topic) {
  return trickle(client, topic, 0, async ({ mark }) => {
    await sleep(3000);
    log(`  ${client.name}: stopping the broker for ${outageSeconds} s…`);
    broker('stop');
    await sleep(outageSeconds * 1000);
    broker('start');
    mark();
    log(`  ${client.name}: broker back`);
    await sleep(10_000);
  });
}

async function portPhase(topicPrefix) {
  const { createKafkaEventBus } = await import(join(root, 'dist/src/adapters/kafka/kafka-event-bus.js'));
  const { createEvent } = await import(join(root, 'dist/src/events/event-envelope.js'));
  const { silentLogger } = await import(join(root, 'dist/src/logging/logger.js'));
  const spoolDir = mkdtempSync(join(tmpdir(), 'kafka-client-bench-'));
  const bus = await createKafkaEventBus({ brokers, clientId: `${prefix}port`, topicPrefix, partitions, spoolDir, spoolMaxEvents: 1_000_000, lingerMs: 5, logger: silentLogger });
  try {
    const started = performance.now();
    let accepted = 0;
    for (let offset = 0; offset < total; offset += batchSize) {
      const events = Array.from({ length: Math.min(batchSize, total - offset) }, (_, index) => {
        const { value } = decisionMessage(offset + index);
        const parsed = JSON.parse(value);
        return createEvent('decision.created', parsed.merchantId, parsed.payload);
      });
      await bus.publish(events);
      accepted += events.length;
      while (bus.health().published < accepted - 10 * batchSize) await sleep(5); // bounded buffer
    }
    const check = deadline('port produce');
    while (bus.health().published < total) {
      check();
      await sleep(5);
    }
    const produced = total / ((performance.now() - started) / 1000);
    let seen = 0;
    const consumeStarted = performance.now();
    const subscription = await bus.subscribe({ group: 'port-consume', topics: ['routing'], handler: async (batch) => void (seen += batch.length) });
    await subscription.caughtUp();
    const consumed = total / ((performance.now() - consumeStarted) / 1000);
    await subscription.close();
    return { produced, consumed, seen };
  } finally {
    await bus.close();
    rmSync(spoolDir, { recursive: true, force: true });
  }
}

async function cleanup() {
  const admin = new kafkajs.Kafka({ clientId: `${prefix}cleanup`, brokers, logLevel: kafkajs.logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const { groups } = await admin.listGroups();
    const mine = groups.map((group) => group.groupId).filter((group) => group.startsWith(prefix));
    if (mine.length > 0) await admin.deleteGroups(mine);
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } catch (error) {
    log(`cleanup failed: ${error.message}`);
  } finally {
    await admin.disconnect();
  }
}

const results = {};
try {
  for (const make of [kafkajsClient, platformaticClient]) {
    const client = make();
    if (!clients.includes(client.name === 'kafkajs' ? 'kafkajs' : 'platformatic')) continue;
    const topic = `${prefix}${client.name.replace(/\W/g, '')}`;
    await createTopic(topic);
    log(`${client.name}: producing ${total} events…`);
    const produce = await producePhase(client, topic);
    log(`${client.name}: consuming…`);
    const consume = await consumePhase(client, topic);
    log(`${client.name}: publish-to-consume latency at ${rate}/s for ${latencySeconds} s…`);
    const latencyTopic = `${topic}-latency`;
    await createTopic(latencyTopic);
    const latency = await trickle(client, latencyTopic, latencySeconds);
    let outage;
    if (restart) {
      const restartTopic = `${topic}-restart`;
      await createTopic(restartTopic);
      outage = await restartPhase(client, restartTopic);
    }
    results[client.name] = { produce, consume, latency, outage };
    console.log(JSON.stringify({ bench: 'kafka-client', client: client.name, events: total, batch: batchSize, partitions, ...results[client.name] }));
  }
  if (clients.includes('port')) {
    log('the EventBus port (@platformatic/kafka)…');
    results.port = await portPhase(`${prefix}port.`);
    console.log(JSON.stringify({ bench: 'kafka-client', client: 'EventBus port', events: total, ...results.port }));
  }
  console.log(`kafka clients, ${total} decision events (~700 B), batches of ${batchSize}, ${partitions} partitions, broker ${brokers.join(',')}`);
  for (const [name, result] of Object.entries(results)) {
    if (name === 'port') {
      console.log(`  ${'EventBus port'.padEnd(20)} produce ${fmt(result.produced).padStart(7)}/s  consume ${fmt(result.consumed).padStart(7)}/s`);
      continue;
    }
    const { produce, consume, latency, outage } = result;
    console.log(
      `  ${name.padEnd(20)} produce ${fmt(produce).padStart(7)}/s  consume ${fmt(consume.perSecond).padStart(7)}/s  latency p50 ${fmt(latency.p50, 1)} ms p99 ${fmt(latency.p99, 1)} ms max ${fmt(latency.max, 1)} ms (${latency.acked} events, lost ${latency.lost}, dup ${latency.duplicates})`,
    );
    if (outage !== undefined) {
      console.log(
        `  ${''.padEnd(20)} restart: ${outage.sent} sent, ${outage.failures} failed sends, ${outage.acked} acked, lost ${outage.lost}, dup ${outage.duplicates}; first ack ${fmt(outage.firstAckAfter ?? NaN)} ms and first consume ${fmt(outage.firstConsumeAfter ?? NaN)} ms after the broker was back`,
      );
    }
  }
} finally {
  await cleanup();
}
