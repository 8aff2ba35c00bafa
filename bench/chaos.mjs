#!/usr/bin/env node
// Chaos soak (issue 28): the distributed system on its own Redis, Kafka broker and ClickHouse server
// (deploy/local scripts, a private run dir and free ports: the shared servers are never touched), two
// API replicas (`serve`, EMBEDDED_WORKERS=false) and two of each worker (sr-windows, analytics-sink,
// generation), a priced fake OpenAI-wire provider on loopback, under mixed bounded load (decisions
// with feedback, gateway calls plain and streamed on an rpm-limited and a budgeted key, batches),
// while a seeded schedule SIGKILLs (then restarts) and SIGSTOPs (then SIGCONTs) an API replica, each
// worker kind, the broker, Redis and ClickHouse, one at a time and overlapping.
//
// After the load stops it waits for the drain (consumer lag 0, spools empty, batches finished,
// ClickHouse counts stable; deadline) and checks: acknowledged decisions and feedback in ClickHouse
// exactly once, batch items each with one outcome, spend counters equal to the recorded costs, no
// budget overshot beyond its in-flight reservations, no rpm limit over in any minute; it prints the
// errors clients saw per fault and the recovery times, then one JSON line. Exit 1 on lost, duplicated
// or overshoot > 0 (or a check that could not run).
//
//   node bench/chaos.mjs [--seed N] [--short]      (needs dist/: `npm run build`)
//
// --seed replays a schedule (printed at start). --short: the fault test's version (60 s of load).
// CHAOS_LOAD_SECONDS overrides the load time. Logs of every process: the run dir (printed; kept
// with CHAOS_KEEP=1).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { batchOutcomes, clickhouseRows, exactlyOnce, faultReport, groupLag, kafkaAdmin, rpmByMinute, spendOf } from './lib/chaos-checks.mjs';
import { startLoad } from './lib/chaos-load.mjs';
import { switchyardProcess } from './lib/chaos-processes.mjs';
import { buildSchedule, overlappingPairs } from './lib/chaos-schedule.mjs';
import { startPrivateServices } from './lib/chaos-services.mjs';
import { freePort } from './lib/free-port.mjs';
import { startFakeOpenAI } from './lib/fake-openai.mjs';

const { values: options } = parseArgs({ options: { seed: { type: 'string' }, short: { type: 'boolean', default: false } } });
const seed = options.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(options.seed);
const short = options.short;
const loadSeconds = Number(process.env.CHAOS_LOAD_SECONDS ?? (short ? 60 : 150));
const drainDeadlineMs = short ? 90_000 : 150_000;
const adminSecret = 'chaos-admin-secret-0123456789abcdef-0123';
const rates = { decisions: short ? 8 : 20, rpmCalls: 1.5, budgetCalls: 2, batches: short ? 1 / 6 : 1 / 8 };
const rpmLimit = 60;
const budgetUsd = short ? 0.0012 : 0.003;
const maxConcurrent = 4;
/** What one budgeted call can reserve at most: its prompt and max_tokens (200) at gpt-4o-mini's price. */
const reservationUsd = (64 * 0.00015 + 200 * 0.0006) / 1000;
const database = 'chaos';
const prefix = 'chaos.';
const say = (text) => process.stdout.write(`${text}\n`);

const schedule = buildSchedule(seed, {
  windowMs: (loadSeconds - 10) * 1000,
  startMs: 5_000,
  minHoldMs: short ? 1_500 : 3_000,
  maxHoldMs: short ? 4_000 : 8_000,
  maxGapMs: short ? 3_000 : 14_000,
});
say(`chaos: seed ${seed} (replay: node bench/chaos.mjs${short ? ' --short' : ''} --seed ${seed}); ${loadSeconds}s of load, ${schedule.length} faults:`);
for (const fault of schedule) {
  say(
    `  #${fault.id} ${fault.kind === 'kill' ? 'SIGKILL+restart' : 'SIGSTOP+SIGCONT'} ${fault.target} at ${(fault.atMs / 1000).toFixed(1)}s for ${(fault.holdMs / 1000).toFixed(1)}s`,
  );
}
say(
  `  overlapping: ${
    overlappingPairs(schedule)
      .map(([a, b]) => `#${a}+#${b}`)
      .join(', ') || 'none'
  }`,
);

const runDir = mkdtempSync(join(tmpdir(), 'switchyard-chaos-'));
say(`run dir ${runDir}`);
const processes = [];
let services;
let provider;
let admin;
let exitCode = 1;
try {
  const startedSetup = Date.now();
  [services, provider] = await Promise.all([startPrivateServices(runDir), startFakeOpenAI({ delayMs: 40 })]);
  say(
    `servers: redis ${services.redisUrl}, kafka ${services.kafkaBrokers}, clickhouse ${services.clickhouseUrl} (${((Date.now() - startedSetup) / 1000).toFixed(0)}s)`,
  );
  const env = {
    HOST: '127.0.0.1',
    ADMIN_SECRET: adminSecret,
    JWT_SECRET: 'chaos-jwt-secret-0123456789abcdef-0123456789',
    REDIS_URL: services.redisUrl,
    REDIS_KEY_PREFIX: 'chaos:',
    KAFKA_BROKERS: services.kafkaBrokers,
    KAFKA_TOPIC_PREFIX: prefix,
    KAFKA_CLIENT_ID: 'chaos',
    CLICKHOUSE_URL: services.clickhouseUrl,
    CLICKHOUSE_DATABASE: database,
    EMBEDDED_WORKERS: 'false',
    OPENAI_API_KEY: 'sk-chaos',
    OPENAI_BASE_URL: `${provider.url}/v1`,
    JOB_LOCK_MS: '2000',
    BATCH_CONCURRENCY: '2',
    BATCH_BACKOFF_MS: '100',
  };
  const apiPorts = [await freePort(), await freePort()];
  const apis = apiPorts.map((port, index) => switchyardProcess({ name: `api-${index + 1}`, args: ['serve'], env, port, runDir }));
  // The first replica migrates ClickHouse and creates the topics before anything else starts.
  await apis[0].start();
  const workers = ['sr-windows', 'analytics-sink', 'generation'].flatMap((kind) =>
    [1, 2].map((n) => switchyardProcess({ name: `${kind}-${n}`, args: ['worker', kind], env, runDir })),
  );
  await Promise.all([apis[1].start(), ...workers.map((worker) => worker.start())]);
  processes.push(...apis, ...workers);
  const replicas = apiPorts.map((port) => `http://127.0.0.1:${port}`);
  say(
    `switchyard: ${apis.length} API replicas (${replicas.join(', ')}), ${workers.map((worker) => worker.name).join(', ')} (${((Date.now() - startedSetup) / 1000).toFixed(0)}s since start)`,
  );

  const setup = await createTenants(replicas[0]);
  const targets = Object.fromEntries([...processes, ...Object.values(services.services)].map((target) => [target.name, target]));

  // Load, and the faults on their schedule (each waits for its target to be back from an earlier one).
  const origin = Date.now();
  const load = startLoad({ replicas, setup, rates });
  const busy = new Map();
  const applied = await Promise.all(
    schedule.map(async (fault) => {
      await pause(origin + fault.atMs - Date.now());
      const target = targets[fault.target];
      while (busy.has(fault.target)) await busy.get(fault.target);
      const run = (async () => {
        const record = { ...fault, startedAt: Date.now() };
        if (fault.kind === 'kill') await target.kill();
        else target.stop();
        say(`  t=${((record.startedAt - origin) / 1000).toFixed(1)}s #${fault.id} ${fault.kind === 'kill' ? 'SIGKILL' : 'SIGSTOP'} ${fault.target}`);
        await pause(record.startedAt + fault.holdMs - Date.now());
        record.resumedAt = Date.now();
        if (fault.kind === 'kill') await target.start();
        else target.cont();
        record.readyAt = Date.now();
        say(
          `  t=${((record.resumedAt - origin) / 1000).toFixed(1)}s #${fault.id} ${fault.kind === 'kill' ? 'restarted' : 'SIGCONT'} ${fault.target} (ready after ${record.readyAt - record.resumedAt} ms)`,
        );
        return record;
      })();
      busy.set(
        fault.target,
        run.then(() => busy.delete(fault.target)),
      );
      return run;
    }),
  );
  await pause(origin + loadSeconds * 1000 - Date.now());
  await load.stop();
  const loadEnded = Date.now();
  const held = load.records.length / ((loadEnded - origin) / 1000);
  say(
    `load stopped after ${((loadEnded - origin) / 1000).toFixed(0)}s: ${load.records.length} requests (${held.toFixed(1)} req/s), ${load.shed()} shed at the in-flight cap`,
  );

  // Drain: real conditions, polled, with a deadline.
  admin = kafkaAdmin(services.kafkaBrokers);
  const drain = await drained({ admin, replicas, setup, batches: load.batches, deadline: Date.now() + drainDeadlineMs });
  say(`drain: ${drain.ok ? 'done' : 'NOT done'} in ${((Date.now() - loadEnded) / 1000).toFixed(1)}s (${drain.last})`);

  // Checks.
  const decisions = await exactlyOnce(services.clickhouseUrl, database, setup.pay.merchant, 'decide_gateway_decision', load.acknowledged.decisions);
  const feedback = await exactlyOnce(services.clickhouseUrl, database, setup.pay.merchant, 'update_gateway_score_update', load.acknowledged.feedback);
  const batches = await batchOutcomes(replicas[0], setup.batch.apiKey, load.batches);
  const spend = {};
  for (const name of ['rpm', 'budget', 'batch']) spend[name] = await spendOf(replicas[0], services.clickhouseUrl, database, setup[name]);
  const spendMismatch = Object.entries(spend).filter(([, s]) => !(Math.abs(s.spendUsd - s.recordedUsd) <= 1e-9 + 1e-9 * s.recordedUsd));
  const budgetCeiling = budgetUsd + maxConcurrent * reservationUsd;
  const overshootUsd = Math.max(0, Math.max(spend.budget.spendUsd, spend.budget.recordedUsd) - budgetUsd);
  const overshootBeyondInFlight = Math.max(0, Math.max(spend.budget.spendUsd, spend.budget.recordedUsd) - budgetCeiling);
  const rpm = rpmByMinute(load.records, ['chat-rpm', 'chat-rpm-stream'], rpmLimit);
  const faults = faultReport(applied, load.records, origin);
  writeFileSync(
    join(runDir, 'records.json'),
    JSON.stringify({ seed, origin, faults: applied, records: load.records, acknowledged: load.acknowledged, batches: load.batches }),
  );

  say('\nfaults (client-visible errors from the fault to recovery; our own limit 429s are not errors):');
  for (const fault of faults) {
    const errors = Object.entries(fault.errors).map(([label, count]) => `${label} ×${count}`);
    say(
      `  #${fault.id} ${fault.kind} ${fault.target} ${fault.window}: ready ${fault.readyMs} ms, clients recovered ${fault.recoverMs} ms after; ${errors.length === 0 ? 'no errors' : errors.join(', ')}${fault.unrecovered.length > 0 ? `; no success after it: ${fault.unrecovered.join(', ')}` : ''}`,
    );
  }
  const byKind = {};
  for (const record of load.records) {
    byKind[record.kind] ??= { sent: 0, ok: 0, limited: 0, failed: 0 };
    const entry = byKind[record.kind];
    entry.sent += 1;
    if (record.ok) entry.ok += 1;
    else if (record.limited) entry.limited += 1;
    else entry.failed += 1;
  }
  say('\nload by kind (sent / 2xx / limit 429 / failed):');
  for (const [kind, entry] of Object.entries(byKind)) say(`  ${kind}: ${entry.sent} / ${entry.ok} / ${entry.limited} / ${entry.failed}`);
  say('\nchecks:');
  say(
    `  decisions: ${decisions.acknowledged} acknowledged, lost ${decisions.lost.length}, duplicated ${decisions.duplicated.length}${listed(whereLost(load.records, 'decide', decisions.lost, origin))}`,
  );
  say(
    `  feedback: ${feedback.acknowledged} acknowledged, lost ${feedback.lost.length}, duplicated ${feedback.duplicated.length}${listed(whereLost(load.records, 'feedback', feedback.lost, origin))}`,
  );
  say(
    `  batches: ${batches.batches} submitted, ${batches.items} items (${batches.succeeded} succeeded, ${batches.deadLettered} dead-lettered), lost ${batches.lost.length}, duplicated ${batches.duplicated.length}, unfinished ${batches.unfinished.length}${listed([...batches.lost, ...batches.unfinished])}`,
  );
  for (const [name, s] of Object.entries(spend)) {
    say(
      `  spend ${name} key: counter $${s.spendUsd.toFixed(7)}, ClickHouse $${s.recordedUsd.toFixed(7)} over ${s.calls} calls, reserved now $${s.reservedUsd.toFixed(7)}`,
    );
  }
  say(
    `  budget $${budgetUsd}: spent $${Math.max(spend.budget.spendUsd, spend.budget.recordedUsd).toFixed(7)}, over the budget by $${overshootUsd.toFixed(7)}, beyond budget + ${maxConcurrent} in-flight reservations ($${budgetCeiling.toFixed(7)}) by $${overshootBeyondInFlight.toFixed(7)}`,
  );
  say(
    `  rpm ${rpmLimit}: served per minute ${rpm.minutes.map((minute) => `${minute.minute} ${minute.certain}${minute.atMost > minute.certain ? `(≤${minute.atMost})` : ''}`).join(', ')}; minutes over: ${rpm.violations.length}`,
  );

  const lost = decisions.lost.length + feedback.lost.length + batches.lost.length;
  const duplicated = decisions.duplicated.length + feedback.duplicated.length + batches.duplicated.length;
  const overshoot = (overshootBeyondInFlight > 1e-9 ? 1 : 0) + rpm.violations.length;
  const summary = {
    benchmark: 'chaos',
    seed,
    short,
    load_seconds: loadSeconds,
    requests: load.records.length,
    req_per_s: Number(held.toFixed(1)),
    faults_injected: applied.length,
    overlapping: overlappingPairs(schedule).length,
    drained: drain.ok,
    acknowledged_decisions: decisions.acknowledged,
    acknowledged_feedback: feedback.acknowledged,
    batch_items: batches.items,
    lost,
    duplicated,
    overshoot,
    unfinished_batches: batches.unfinished.length,
    spend_mismatches: spendMismatch.length,
    budget_overshoot_usd: overshootUsd,
    rpm_violations: rpm.violations.length,
    max_recover_ms: Math.max(...faults.map((fault) => fault.recoverMs)),
    recover_ms: Object.fromEntries(faults.map((fault) => [`${fault.id}:${fault.kind}:${fault.target}`, fault.recoverMs])),
    client_errors: faults.reduce((sum, fault) => sum + Object.values(fault.errors).reduce((a, b) => a + b, 0), 0),
  };
  const failed = lost > 0 || duplicated > 0 || overshoot > 0 || spendMismatch.length > 0 || batches.unfinished.length > 0 || !drain.ok;
  say(
    `\n${failed ? 'FAIL' : 'PASS'}: lost ${lost}, duplicated ${duplicated}, overshoot ${overshoot}, spend mismatches ${spendMismatch.length}, unfinished ${batches.unfinished.length}`,
  );
  say(JSON.stringify(summary));
  exitCode = failed ? 1 : 0;
} catch (error) {
  say(`chaos: ${error?.stack ?? error} (seed ${seed}, logs in ${runDir})`);
  exitCode = 1;
} finally {
  await admin?.close().catch(() => undefined);
  await Promise.allSettled(processes.map((child) => child.shutdown()));
  await provider?.close();
  await services?.shutdown();
  if (process.env.CHAOS_KEEP !== '1' && exitCode === 0) rmSync(runDir, { recursive: true, force: true });
  else say(`logs kept in ${runDir}`);
}
process.exit(exitCode);

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Where and when each lost payment id was acknowledged (replica, seconds into the load). */
function whereLost(records, kind, ids, origin) {
  return ids.map((id) => {
    const record = records.find((entry) => entry.kind === kind && entry.id === id && entry.ok);
    return record === undefined ? id : `${id} (api-${record.replica}, answered at ${((record.endAt - origin) / 1000).toFixed(2)}s)`;
  });
}

function listed(items) {
  return items.length === 0 ? '' : ` (${items.slice(0, 8).join(', ')}${items.length > 8 ? ', …' : ''})`;
}

async function post(url, path, body, headers) {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} → ${response.status} ${text}`);
  return JSON.parse(text);
}

/** Four merchants: decisions, an rpm-limited key, a budgeted key, a batch key (each its own merchant, so ClickHouse's costs per merchant are the key's). */
async function createTenants(url) {
  const stamp = Date.now().toString(36);
  const merchant = async (name) => {
    const created = await post(url, '/merchant-account/create', { merchant_id: `${name}_${stamp}` }, { 'x-admin-secret': adminSecret });
    return { merchant: `${name}_${stamp}`, ownerHeaders: { 'x-api-key': created.api_key } };
  };
  const keyed = async (name, limits) => {
    const owner = await merchant(name);
    const key = await post(url, '/api-key/create', { merchant_id: owner.merchant, limits }, owner.ownerHeaders);
    return { ...owner, keyId: key.key_id, apiKey: key.api_key };
  };
  const pay = await merchant('pay');
  await post(
    url,
    '/rule/create',
    { merchant_id: pay.merchant, config: { type: 'successRate', data: { defaultBucketSize: 50, defaultHedgingPercent: 5 } } },
    pay.ownerHeaders,
  );
  return {
    pay: { merchant: pay.merchant, headers: pay.ownerHeaders },
    rpm: await keyed('rpm', { rpm: rpmLimit, budget: { amount_usd: 5, period: 'day' } }),
    budget: await keyed('budget', { max_concurrent: maxConcurrent, budget: { amount_usd: budgetUsd, period: 'day' } }),
    batch: await keyed('batch', { budget: { amount_usd: 5, period: 'day' } }),
  };
}

/** Every condition of a drained system at once, three reads in a row with the same ClickHouse counts. */
async function drained({ admin, replicas, setup, batches, deadline }) {
  // Each group over the topics it subscribes to (workers/analytics-sink.ts, workers/sr-windows.ts).
  const topicNames = ['routing', 'scores', 'api', 'llm'].map((topic) => `${prefix}${topic}`);
  const windowTopics = ['routing', 'llm'].map((topic) => `${prefix}${topic}`);
  let stableReads = 0;
  let previous = '';
  let last = '';
  while (Date.now() < deadline) {
    try {
      const [sinkLag, windowsLag] = [await groupLag(admin, `${prefix}analytics-sink`, topicNames), await groupLag(admin, `${prefix}sr-windows`, windowTopics)];
      const spooled = [];
      for (const url of replicas) {
        const metrics = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
        spooled.push(Number(/^switchyard_event_spool_depth (\d+)/m.exec(metrics)?.[1] ?? Number.NaN));
      }
      let running = 0;
      for (const { batchId } of batches) {
        const progress = await (
          await fetch(`${replicas[0]}/api/batches/${batchId}`, { headers: { 'x-api-key': setup.batch.apiKey }, signal: AbortSignal.timeout(5_000) })
        ).json();
        if (progress.status !== 'completed') running += 1;
      }
      const [counts] = await clickhouseRows(
        services.clickhouseUrl,
        `SELECT (SELECT count() FROM ${database}.analytics_domain_events) AS domain, (SELECT count() FROM ${database}.analytics_llm_calls) AS llm`,
      );
      const key = `${counts.domain}/${counts.llm}`;
      last = `sink lag ${sinkLag}, sr-windows lag ${windowsLag}, API spools ${spooled.join('+')}, batches running ${running}, ClickHouse rows ${key}`;
      const quiet = sinkLag === 0 && windowsLag === 0 && spooled.every((depth) => depth === 0) && running === 0;
      stableReads = quiet && key === previous ? stableReads + 1 : 0;
      previous = key;
      if (stableReads >= 2) return { ok: true, last };
    } catch (error) {
      last = `not readable yet: ${error?.message ?? error}`;
      stableReads = 0;
    }
    await pause(1_000);
  }
  return { ok: false, last };
}
