// Per-unit costs for the capacity model (docs/scaling.md), measured on this machine in distributed
// mode, against 127.0.0.1 only:
//   API      CPU µs per decision (POST /decide-gateway) and per LLM call (POST /v1/chat/completions
//            to a loopback fake OpenAI provider in its own process), process.cpuUsage() around N
//            requests through fastify's inject on the real composition root (cli/start-service.ts,
//            EMBEDDED_WORKERS=false): routing, Redis round trips and the Kafka producer, no socket I/O;
//   Redis    commands (INFO commandstats, script-internal calls included) and Redis CPU µs (INFO cpu)
//            per decision and per LLM call, on a private redis-server this bench starts (so no other
//            client's commands are counted), and per event in the sr-windows worker;
//   Kafka    events and bytes (key + JSON value, as the publisher sends them) per decision and per LLM
//            call, read back from the topics; broker CPU per event from /proc when the broker runs here;
//   workers  CPU µs per event of `worker sr-windows` and `worker analytics-sink` (each in this process
//            after the API has stopped, consuming what it published, until caught up);
//   ClickHouse rows written per decision, and insert rows/s per server core: the sink's own rows copied
//            into a scratch table in batches of CH_BATCH, server CPU from /proc (ClickHouse on
//            127.0.0.1:8123, a scratch database dropped at the end).
// Bounded: DECISIONS (default 5000) and LLM_CALLS (2000) requests at CONCURRENCY (32), each phase at
// most PHASE_SECONDS (90); CH_ROWS (200000) rows. Prints a table on stdout and one JSON line last.
// Run: set -a; . /tmp/services.env; set +a; npx vite-node bench/unit-costs.ts
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createLogger } from '../cli/create-logger.js';
import { createRuntime, runtimeDefaults } from '../cli/create-runtime.js';
import { startServer } from '../cli/start-service.js';
import { loadConfig } from '../src/config/load-config.js';
import { partitionKeyOf } from '../src/events/event-envelope.js';
import { type EventEnvelope, type EventType, topicOf } from '../src/ports/event-envelope.js';
import * as analyticsSink from '../workers/analytics-sink.js';
import * as srWindows from '../workers/sr-windows.js';
import { decideMixBody } from './lib/decide-body.mjs';

const decisions = Number(process.env.DECISIONS ?? 5000);
const llmCalls = Number(process.env.LLM_CALLS ?? 2000);
const concurrency = Number(process.env.CONCURRENCY ?? 32);
const phaseMs = Number(process.env.PHASE_SECONDS ?? 90) * 1000;
const chRows = Number(process.env.CH_ROWS ?? 200_000);
const chBatch = Number(process.env.CH_BATCH ?? 10_000);
const kafkaBrokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:9092';
const clickhouseUrl = process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';
for (const [name, value] of [
  ['KAFKA_BROKERS', kafkaBrokers],
  ['CLICKHOUSE_URL', clickhouseUrl],
] as const) {
  if (!/^(https?:\/\/)?127\.0\.0\.1[:/]/.test(value) || value.includes(','))
    throw new Error(`${name} must be one 127.0.0.1 address for this bench, got ${value}`);
}
const log = (line: string) => process.stderr.write(`${line}\n`);
const started = Date.now();
const load = loadavg().map((value) => value.toFixed(2));

// ---------------------------------------------------------------- helpers
async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** CPU µs this process has used (all threads). */
const ownCpu = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

/** CPU µs used so far by the first process whose command line matches, from /proc (undefined when none runs here). */
function procCpuOf(match: RegExp): (() => number) | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\u0000', ' ');
    } catch {
      continue; // the process ended while listing
    }
    if (!match.test(cmdline)) continue;
    return () => {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6; // utime + stime, USER_HZ 100
    };
  }
  return undefined;
}
const clickhouseCpu = procCpuOf(new RegExp(process.env.CLICKHOUSE_CMDLINE ?? 'clickhouse-server'));
const kafkaCpu = procCpuOf(new RegExp(process.env.KAFKA_CMDLINE ?? 'java .*kafka'));

/** Runs `total` requests `concurrency` at a time, stopping early at the phase bound; returns how many answered 2xx. */
async function drive(total: number, request: (index: number) => Promise<number>): Promise<{ ok: number; sent: number; ms: number }> {
  const deadline = Date.now() + phaseMs;
  const begin = performance.now();
  let next = 0;
  let ok = 0;
  const lane = async () => {
    while (next < total && Date.now() < deadline) {
      const status = await request(next++);
      if (status >= 200 && status < 300) ok++;
      else if (ok === 0 && next < 5) throw new Error(`request answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { ok, sent: next, ms: performance.now() - begin };
}

interface RedisSample {
  readonly commands: number;
  readonly scripts: number;
  readonly cpuUs: number;
}
async function redisSample(redis: Redis): Promise<RedisSample> {
  const stats = await redis.info('commandstats');
  let commands = 0;
  let scripts = 0;
  for (const match of stats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    const [, name, calls] = match;
    // The sampling connection's own INFO calls are not the workload's.
    if (name === 'info') continue;
    commands += Number(calls);
    if (/^(evalsha|eval|fcall)/.test(name!)) scripts += Number(calls);
  }
  const cpu = await redis.info('cpu');
  const seconds = (key: string) => Number(new RegExp(`^${key}:([\\d.]+)`, 'm').exec(cpu)?.[1] ?? 0);
  return { commands, scripts, cpuUs: (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6 };
}
const redisDelta = (before: RedisSample, after: RedisSample) => ({
  commands: after.commands - before.commands,
  scripts: after.scripts - before.scripts,
  cpuUs: after.cpuUs - before.cpuUs,
});

async function clickhouse(query: string, body?: string): Promise<string> {
  const url = `${clickhouseUrl}/?query=${encodeURIComponent(query)}`;
  const response = await fetch(url, body === undefined ? { method: 'POST' } : { method: 'POST', body });
  const text = await response.text();
  if (!response.ok) throw new Error(`ClickHouse: ${text.slice(0, 300)}`);
  return text;
}

// ---------------------------------------------------------------- the fake provider and private Redis
const fakeProviderSource = `
const http = require('node:http');
const answer = JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion', created: 1, model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 } });
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(answer); }); });
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;
const children: ChildProcess[] = [];
async function startChild(command: string, args: string[]): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return child;
}
const provider = await startChild(process.execPath, ['-e', fakeProviderSource]);
const [providerPortText] = (await once(provider.stdout!, 'data')) as [Buffer];
const providerUrl = `http://127.0.0.1:${String(providerPortText).trim()}`;

const redisPort = await freePort();
const redisServer = await startChild('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
// Ready when it says so on stdout (no connection attempts before: they would only fail).
await new Promise<void>((resolve, reject) => {
  let output = '';
  redisServer.stdout!.on('data', (chunk: Buffer) => {
    output += String(chunk);
    if (output.includes('Ready to accept connections')) resolve();
  });
  redisServer.once('exit', (code) => reject(new Error(`private redis-server exited with ${code}: ${output.slice(-500)}`)));
});
const redisUrl = `redis://127.0.0.1:${redisPort}`;
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });

// ---------------------------------------------------------------- the API
const run = `unitcosts_${Date.now()}`;
const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-unit-costs-'));
// The process ends with process.exit (below); its data directory goes with it.
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const env = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  ADMIN_SECRET: 'bench-admin-secret-0123456789abcdef',
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789',
  EMBEDDED_WORKERS: 'false',
  REDIS_URL: redisUrl,
  KAFKA_BROKERS: kafkaBrokers,
  KAFKA_TOPIC_PREFIX: `${run}.`,
  KAFKA_PARTITIONS: '3',
  CLICKHOUSE_URL: clickhouseUrl,
  CLICKHOUSE_DATABASE: run,
};
const config = loadConfig(env);
const logger = createLogger(config);
log(`unit-costs: load average ${load.join(' ')}; decisions ${decisions}, LLM calls ${llmCalls}, concurrency ${concurrency}`);
const server = await startServer(config, logger, {
  toolkit: { env: { OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${providerUrl}/v1` }, cwd: env.DATA_DIR },
});
const { app } = server;
const injectJson = async (url: string, payload: unknown, headers: Record<string, string>) => {
  const response = await app.inject({ method: 'POST', url, payload: payload as object, headers });
  if (response.statusCode >= 300) throw new Error(`${url} → ${response.statusCode} ${response.body.slice(0, 300)}`);
  return response.json() as Record<string, unknown>;
};
const admin = { 'x-admin-secret': env.ADMIN_SECRET };
const merchantId = `${run}_m`;
const merchant = await injectJson('/merchant-account/create', { merchant_id: merchantId }, admin);
const session = await injectJson(
  '/auth/signup',
  { email: `${merchantId}@bench.example`, password: 'violet-harbour-lantern-42', merchant_id: merchantId },
  admin,
);
const bearer = { authorization: `Bearer ${String(session.token)}` };
await injectJson(
  '/rule/create',
  { merchant_id: merchantId, config: { type: 'successRate', data: { defaultBucketSize: 125, defaultHedgingPercent: 5 } } },
  bearer,
);

const decide = async (prefix: string, index: number) =>
  (
    await app.inject({
      method: 'POST',
      url: '/decide-gateway',
      headers: bearer,
      payload: decideMixBody(merchantId, `${prefix}_${index}`, index),
    })
  ).statusCode;
const chat = async (index: number) =>
  (
    await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${String(merchant.api_key)}` },
      payload: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: `ping ${index}` }] },
    })
  ).statusCode;

log('warming up…');
const warmDecisions = (await drive(Math.min(500, decisions), (index) => decide('warm', index))).ok;
const warmCalls = (await drive(Math.min(200, llmCalls), chat)).ok;

/** A measured phase: CPU of this process, the private Redis, the broker and events published around it. */
async function measure(label: string, total: number, request: (index: number) => Promise<number>) {
  log(`measuring ${label}…`);
  const redisBefore = await redisSample(redis);
  const published = server.runtime.bus.health().published;
  const [cpu, broker] = [ownCpu(), kafkaCpu?.()];
  const result = await drive(total, request);
  const cpuUs = ownCpu() - cpu;
  const brokerUs = broker === undefined ? undefined : kafkaCpu!() - broker;
  const redisUsed = redisDelta(redisBefore, await redisSample(redis));
  const events = server.runtime.bus.health().published - published;
  return { label, ...result, cpuUs, brokerUs, redis: redisUsed, events };
}
const decidePhase = await measure('decisions', decisions, (index) => decide('pay', index));
const llmPhase = await measure('LLM calls', llmCalls, chat);
log('stopping the API (the bus flushes)…');
await server.stop();

// ---------------------------------------------------------------- what reached Kafka
log('reading the events back…');
const counting = await createRuntime(config, logger, { analytics: false });
const bytes = new Map<string, { count: number; bytes: number }>();
const subscription = await counting.bus.subscribe({
  group: 'unit-costs-bytes',
  topics: ['routing', 'scores', 'api', 'llm'],
  handler: async (batch: readonly EventEnvelope[]) => {
    for (const event of batch) {
      const entry = bytes.get(event.type) ?? { count: 0, bytes: 0 };
      entry.count += 1;
      entry.bytes += Buffer.byteLength(JSON.stringify(event)) + Buffer.byteLength(partitionKeyOf(event));
      bytes.set(event.type, entry);
    }
  },
});
await subscription.caughtUp();
await subscription.close();
await counting.close();

// ---------------------------------------------------------------- the workers
async function workerPhase(
  name: string,
  start: (runtime: Awaited<ReturnType<typeof createRuntime>>) => Promise<{ caughtUp(): Promise<void>; close(): Promise<void> }>,
  analytics: boolean,
) {
  log(`worker ${name} catching up…`);
  const runtime = await createRuntime(config, logger, { analytics });
  const redisBefore = await redisSample(redis);
  const [cpu, ch] = [ownCpu(), clickhouseCpu?.()];
  const begin = performance.now();
  const handle = await start(runtime);
  await handle.caughtUp();
  const result = {
    cpuUs: ownCpu() - cpu,
    clickhouseUs: ch === undefined ? undefined : clickhouseCpu!() - ch,
    ms: performance.now() - begin,
    redis: redisDelta(redisBefore, await redisSample(redis)),
  };
  await handle.close();
  await runtime.close();
  return result;
}
const { clock, routingDefaults } = runtimeDefaults;
const srPhase = await workerPhase(
  'sr-windows',
  (runtime) => srWindows.start({ bus: runtime.bus, state: runtime.state, clock, logger, defaults: routingDefaults }),
  false,
);
const sinkPhase = await workerPhase(
  'analytics-sink',
  (runtime) =>
    analyticsSink.start({
      bus: runtime.bus,
      analytics: runtime.analytics!,
      handoff: runtime.analyticsHandoff,
      logger,
      clock,
      retentionDays: config.analyticsRetentionDays,
    }),
  true,
);
const tables = (
  await clickhouse(
    `SELECT name, total FROM (SELECT table AS name, sum(rows) AS total FROM system.parts WHERE database = '${run}' AND active GROUP BY table) FORMAT TSV`,
  )
)
  .trim()
  .split('\n')
  .filter(Boolean)
  .map((line) => line.split('\t'))
  .map(([name, total]) => ({ name: name!, rows: Number(total) }));
const sinkRows = tables.reduce((sum, table) => sum + table.rows, 0);

// ---------------------------------------------------------------- ClickHouse insert rate
log('ClickHouse inserts…');
const source = 'analytics_domain_events';
await clickhouse(`CREATE TABLE ${run}.bench_rows AS ${run}.${source}`);
const sample = (await clickhouse(`SELECT * FROM ${run}.${source} LIMIT 1000 FORMAT JSONEachRow`)).trim().split('\n');
const body = Array.from({ length: chBatch }, (_, index) => sample[index % sample.length]).join('\n');
const chBefore = clickhouseCpu?.();
const chBegin = performance.now();
let inserted = 0;
const chDeadline = Date.now() + phaseMs;
while (inserted < chRows && Date.now() < chDeadline) {
  await clickhouse(`INSERT INTO ${run}.bench_rows FORMAT JSONEachRow`, body);
  inserted += chBatch;
}
const chMs = performance.now() - chBegin;
const chUs = chBefore === undefined ? undefined : clickhouseCpu!() - chBefore;
const rowBytes = Buffer.byteLength(body) / chBatch;
await clickhouse(`DROP DATABASE IF EXISTS ${run}`);
await redis.quit();
for (const child of children) child.kill('SIGTERM');

// ---------------------------------------------------------------- the table
const per = (value: number | undefined, count: number, digits = 0) => (value === undefined || count === 0 ? 'n/a' : (value / count).toFixed(digits));
const kafkaOf = (types: string[]) => {
  const picked = types.map((type) => bytes.get(type) ?? { count: 0, bytes: 0 });
  return { count: picked.reduce((sum, entry) => sum + entry.count, 0), bytes: picked.reduce((sum, entry) => sum + entry.bytes, 0) };
};
const otherEvents = kafkaOf([...bytes.keys()].filter((type) => type !== 'llm.call'));
const llmEvents = kafkaOf(['llm.call']);
const allEvents = [...bytes.values()].reduce((sum, entry) => sum + entry.count, 0);
/** sr-windows reads the routing and llm topics only. */
const srTypes = [...bytes.keys()].filter((type) => ['routing', 'llm'].includes(topicOf[type as EventType]));
const srEvents = kafkaOf(srTypes).count;
const d = decidePhase.ok;
const l = llmPhase.ok;
const rows: [string, string, string][] = [
  ['API CPU µs per decision (inject, no socket)', per(decidePhase.cpuUs, d), `${d} decisions in ${(decidePhase.ms / 1000).toFixed(1)} s`],
  ['API CPU µs per LLM call (fake provider)', per(llmPhase.cpuUs, l), `${l} calls in ${(llmPhase.ms / 1000).toFixed(1)} s`],
  ['Redis commands per decision (API)', per(decidePhase.redis.commands, d, 1), `of which scripts ${per(decidePhase.redis.scripts, d, 2)}`],
  ['Redis CPU µs per decision (API)', per(decidePhase.redis.cpuUs, d), 'private redis-server, INFO cpu'],
  ['Redis commands per LLM call (API)', per(llmPhase.redis.commands, l, 1), `of which scripts ${per(llmPhase.redis.scripts, l, 2)}`],
  ['Redis CPU µs per LLM call (API)', per(llmPhase.redis.cpuUs, l), ''],
  ['Kafka events per decision', per(otherEvents.count, d + warmDecisions, 2), 'read back, all decisions sent (warm-up included)'],
  ['Kafka bytes per decision (its events)', per(otherEvents.bytes, d + warmDecisions), 'key + JSON value, before compression'],
  ['Kafka events per LLM call', per(llmEvents.count, l + warmCalls, 2), ''],
  ['Kafka bytes per LLM call (its events)', per(llmEvents.bytes, l + warmCalls), ''],
  ...[...bytes].map(([type, entry]): [string, string, string] => [`  bytes per ${type} event`, per(entry.bytes, entry.count), `${entry.count} read back`]),
  [
    'Kafka broker CPU µs per event (API phases)',
    per(
      sum(decidePhase.brokerUs, llmPhase.brokerUs),
      (otherEvents.count / Math.max(1, d + warmDecisions)) * d + (llmEvents.count / Math.max(1, l + warmCalls)) * l,
    ),
    'shared broker, /proc',
  ],
  ['sr-windows CPU µs per event', per(srPhase.cpuUs, srEvents), `${srEvents} events (routing, llm) in ${(srPhase.ms / 1000).toFixed(1)} s`],
  ['sr-windows Redis commands per event', per(srPhase.redis.commands, srEvents, 2), `Redis CPU µs/event ${per(srPhase.redis.cpuUs, srEvents, 1)}`],
  ['analytics-sink CPU µs per event', per(sinkPhase.cpuUs, allEvents), `${allEvents} events in ${(sinkPhase.ms / 1000).toFixed(1)} s`],
  ['ClickHouse rows per event (sink)', per(sinkRows, allEvents, 2), tables.map((table) => `${table.name.replace('analytics_', '')} ${table.rows}`).join(', ')],
  ['ClickHouse server CPU µs per sink row', per(sinkPhase.clickhouseUs, sinkRows, 1), 'batches of ≤ 1,000, /proc'],
  [
    'ClickHouse insert rows/s (one client)',
    chMs === 0 ? 'n/a' : Math.round((inserted / chMs) * 1000).toString(),
    `${inserted} rows, ${chBatch}/insert, ${rowBytes.toFixed(0)} B/row JSON`,
  ],
  ['ClickHouse insert rows per server core-second', chUs === undefined ? 'n/a' : Math.round(inserted / (chUs / 1e6)).toString(), 'server CPU from /proc'],
];
function sum(...values: (number | undefined)[]): number | undefined {
  return values.some((value) => value === undefined) ? undefined : values.reduce<number>((total, value) => total + value!, 0);
}
const width = Math.max(...rows.map(([name]) => name.length));
process.stdout.write(`\nunit costs, ${new Date().toISOString()}, load average ${load.join(' ')} at start, ${loadavg()[0]!.toFixed(2)} at end\n`);
for (const [name, value, note] of rows) process.stdout.write(`${name.padEnd(width)}  ${value.padStart(9)}  ${note}\n`);
process.stdout.write(
  `${JSON.stringify({ at: new Date().toISOString(), load, seconds: Math.round((Date.now() - started) / 1000), rows: Object.fromEntries(rows.map(([name, value]) => [name, value])) })}\n`,
);

// ---------------------------------------------------------------- the capacity model (docs/scaling.md)
// Assumptions, stated in docs/scaling.md: pods and Redis shards run at ≤ 60 % of a core (the HPA target),
// ClickHouse at ≤ 50 % for inserts (merges and queries need the rest), HTTP parsing and socket I/O cost
// HTTP_US per request beside the inject figure, a partition carries ≤ PARTITION_MBPS and partitions are
// provisioned at twice the consumers needed (they cannot shrink, and adding some remaps keys), a broker
// takes ≤ BROKER_MBPS of writes including replication, a ClickHouse server has CH_CORES cores.
const model = {
  utilisation: 0.6,
  clickhouseUtilisation: 0.5,
  httpUs: Number(process.env.HTTP_US ?? 50),
  partitionMBps: Number(process.env.PARTITION_MBPS ?? 5),
  brokerMBps: Number(process.env.BROKER_MBPS ?? 30),
  replicationFactor: 3,
  clickhouseCores: Number(process.env.CH_CORES ?? 16),
};
const unit = (value: number | undefined, count: number) => (value === undefined || count === 0 ? Number.NaN : value / count);
const routingPerDecision = kafkaOf(srTypes.filter((type) => type !== 'llm.call')).count / Math.max(1, d + warmDecisions);
const eventsPerDecision = otherEvents.count / Math.max(1, d + warmDecisions);
const eventsPerCall = llmEvents.count / Math.max(1, l + warmCalls);
const rowsPerEvent = unit(sinkRows - (tables.find((table) => table.name === 'schema_migrations')?.rows ?? 0), allEvents);
const costs = {
  decision: {
    apiUs: unit(decidePhase.cpuUs, d) + model.httpUs,
    redisCommands: unit(decidePhase.redis.commands, d) + unit(srPhase.redis.commands, srEvents) * routingPerDecision,
    redisUs: unit(decidePhase.redis.cpuUs, d) + unit(srPhase.redis.cpuUs, srEvents) * routingPerDecision,
    events: eventsPerDecision,
    routingEvents: routingPerDecision,
    bytes: otherEvents.bytes / Math.max(1, d + warmDecisions),
  },
  call: {
    apiUs: unit(llmPhase.cpuUs, l) + model.httpUs,
    redisCommands: unit(llmPhase.redis.commands, l) + unit(srPhase.redis.commands, srEvents) * eventsPerCall,
    redisUs: unit(llmPhase.redis.cpuUs, l) + unit(srPhase.redis.cpuUs, srEvents) * eventsPerCall,
    events: eventsPerCall,
    routingEvents: eventsPerCall,
    bytes: llmEvents.bytes / Math.max(1, l + warmCalls),
  },
  srUsPerEvent: unit(srPhase.cpuUs, srEvents),
  sinkUsPerEvent: unit(sinkPhase.cpuUs, allEvents),
  // The higher of the two server-CPU figures (the sink's small batches, the bulk inserts): both include other users' load.
  clickhouseUsPerRow: Math.max(unit(sinkPhase.clickhouseUs, sinkRows), unit(chUs, inserted)),
  rowsPerEvent,
};
function size(kind: 'decision' | 'call', rate: number) {
  const c = costs[kind];
  const cores = (us: number) => (rate * us) / 1e6;
  const api = Math.max(2, Math.ceil(cores(c.apiUs) / model.utilisation));
  const sr = Math.max(1, Math.ceil(cores(c.routingEvents * costs.srUsPerEvent) / model.utilisation));
  const sink = Math.max(1, Math.ceil(cores(c.events * costs.sinkUsPerEvent) / model.utilisation));
  const mbps = (rate * c.bytes) / 1e6;
  const partitions = Math.max(3, 2 * Math.max(sr, sink), Math.ceil(mbps / model.partitionMBps));
  const brokers = Math.max(3, Math.ceil((mbps * model.replicationFactor) / model.brokerMBps));
  const redisShards = Math.max(1, Math.ceil(cores(c.redisUs) / model.utilisation));
  const rows = rate * c.events * costs.rowsPerEvent;
  const clickhouseCores = (rows * costs.clickhouseUsPerRow) / 1e6 / model.clickhouseUtilisation;
  const shards = Math.max(1, Math.ceil(clickhouseCores / model.clickhouseCores));
  return { rate, api, mbps, partitions, brokers, sr, sink, redisOps: rate * c.redisCommands, redisShards, rows, clickhouseCores, shards };
}
const fmt = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1));
process.stdout.write(`\ncapacity model (${JSON.stringify(model)})\n`);
process.stdout.write(
  '| load | API pods (1 vCPU) | Kafka MB/s in (×3 replicated) | partitions per topic | brokers | sr-windows | analytics-sink | Redis ops/s | Redis shards (each + 1 replica) | ClickHouse rows/s | ClickHouse cores (≤ 50 %) | ClickHouse shards × replicas |\n',
);
process.stdout.write('|---|---|---|---|---|---|---|---|---|---|---|---|\n');
for (const [kind, rates] of [
  ['decision', [10_000, 100_000, 1_000_000]],
  ['call', [1_000, 10_000, 100_000]],
] as const) {
  for (const rate of rates) {
    const row = size(kind, rate);
    const label = `${fmt(rate)} ${kind === 'decision' ? 'decisions' : 'LLM calls'}/s`;
    process.stdout.write(
      `| ${label} | ${row.api} | ${fmt(row.mbps)} | ${row.partitions} | ${row.brokers} | ${row.sr} | ${row.sink} | ${fmt(row.redisOps)} | ${row.redisShards} | ${fmt(row.rows)} | ${fmt(row.clickhouseCores)} | ${row.shards} × 2 |\n`,
    );
  }
}
process.stdout.write(`${JSON.stringify({ costs })}\n`);
process.exit(0);
