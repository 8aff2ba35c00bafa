#!/usr/bin/env node
// Times the experiment reads on embedded chDB (the built dist/): the full per-arm read behind
// GET /analytics/experiment/{id}/results (experimentArms) against the guardrail's read
// (experimentArmOutcomes), which the scheduled check runs every minute over the whole experiment,
// both through the adapter's own reads (clickHouseExperimentReads) on a session opened as the
// service opens its own.
// A fresh database in a temporary folder gets PAYMENTS (1,000,000) synthetic payments of one
// merchant, each a decision row with a row-2c-sized `details` and a feedback row (one in seven a
// failure), in batches of 100,000 as the sink inserts them; SHARE (1) of them carry the experiment
// (the rest another one). Then ROUNDS (3) rounds of both reads, alternating, each checked to count
// the same payments. Prints ms per read and the median ratio of the full read's time to the guardrail's.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bindSql } from '../dist/src/adapters/clickhouse/bind-sql.js';
import { openAnalyticsSession } from '../dist/src/adapters/chdb/chdb-session.js';
import { clickHouseExperimentReads } from '../dist/src/adapters/clickhouse/clickhouse-experiment-reads.js';

const payments = Number(process.env.PAYMENTS ?? 1_000_000);
const share = Number(process.env.SHARE ?? 1);
const rounds = Number(process.env.ROUNDS ?? 3);
if (!Number.isInteger(payments) || payments < 1) throw new Error(`PAYMENTS takes a whole number ≥ 1; got "${process.env.PAYMENTS}"`);
if (!(share > 0 && share <= 1)) throw new Error(`SHARE takes a fraction in (0, 1]; got "${process.env.SHARE}"`);
const batch = 100_000;
const t0 = Date.UTC(2026, 11, 1);
const folder = mkdtempSync(join(tmpdir(), 'experiment-reads-'));
const session = openAnalyticsSession(folder);
try {
  session.query('CREATE DATABASE bench');
  const ddl = readFileSync(new URL('../schemas/clickhouse/0001_domain_events.sql', import.meta.url), 'utf8')
    .replace(/^--.*$/gm, '')
    .trim();
  session.query(bindSql(ddl.replace(/;$/, ''), { database: 'bench' }));
  // A decision.created payload as row 2c writes it (experiment first, sticky record, policy).
  const details = `concat('{"experiment":{"experimentId":"', if(number % 1000 < ${Math.round(share * 1000)}, 'exp-1', 'exp-0'),
    '","experimentArm":"', if(number % 10 < 3, 'variant', 'control'), '","armAlgorithmId":"sr_routing","guardrailTripped":false,"endpoint":"decide_gateway","chosenCostBps":150,"costSavedBps":0},"paymentId":"p', toString(number),
    '","requestId":"', toString(generateUUIDv4()), '","gateway":"adyen","routingApproach":"STICKY_ROUTING","gatewayPriorityMap":{"stripe":1,"adyen":1,"checkout":1},"rankingAlgorithm":null,"eliminationEnabled":true,"latencyMs":0,',
    '"payment":{"paymentMethodType":"CARD","paymentMethod":"CREDIT","cardNetwork":"VISA","currency":"USD","country":"US","amount":100,"orderType":"ORDER_PAYMENT"},"windowDimension":"ORDER_PAYMENT, CARD, CREDIT, CREDIT",',
    '"eliminationDimension":"x","sticky":{"combo":"CARD:CREDIT","outcome":"pinned","srHead":"stripe"},"policy":{"propensity":0.95,"candidates":[{"gateway":"stripe","score":1,"eliminationScore":1},{"gateway":"adyen","score":1,"eliminationScore":1},{"gateway":"checkout","score":1,"eliminationScore":1}]}}')`;
  const columns = 'event_id, merchant_id, created_at, created_at_ms, flow_type, payment_id, gateway, status, details';
  const started = performance.now();
  for (let from = 0; from < payments; from += batch) {
    const rows = `numbers(${from}, ${Math.min(batch, payments - from)})`;
    session.query(`INSERT INTO bench.analytics_domain_events (${columns}) SELECT toString(generateUUIDv4()), 'm1', toDateTime(intDiv(${t0} + number, 1000)),
      ${t0} + number, 'decide_gateway_decision', concat('p', toString(number)), 'adyen', 'success', ${details} FROM ${rows}`);
    session.query(`INSERT INTO bench.analytics_domain_events (${columns}) SELECT toString(generateUUIDv4()), 'm1', toDateTime(intDiv(${t0} + number + 5, 1000)),
      ${t0} + number + 5, 'update_gateway_score_update', concat('p', toString(number)), 'adyen', if(number % 7 = 0, 'FAILURE', 'CHARGED'),
      '{"gateway":"adyen","status":"CHARGED","source":"update_gateway_score"}' FROM ${rows}`);
    process.stderr.write(`inserted ${Math.min(from + batch, payments)} of ${payments} payments…\n`);
  }
  process.stderr.write(`inserted in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const endMs = t0 + payments + 10_000;
  const reads = clickHouseExperimentReads('bench', async (sql, params) =>
    session
      .query(bindSql(sql, params), 'JSONEachRow')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line)),
  );
  const query = { merchantId: 'm1', experimentId: 'exp-1', startMs: t0, endMs };
  const timed = async (read) => {
    const at = performance.now();
    const arms = await read(query);
    return { ms: performance.now() - at, counts: JSON.stringify(arms.map(({ arm, assigned, resolved, successes }) => [arm, assigned, resolved, successes])) };
  };
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    const full = await timed(reads.experimentArms);
    const guardrail = await timed(reads.experimentArmOutcomes);
    if (full.counts !== guardrail.counts) throw new Error(`the reads disagree: full ${full.counts}, guardrail ${guardrail.counts}`);
    ratios.push(full.ms / guardrail.ms);
    console.log(
      `round ${round + 1}: full read ${full.ms.toFixed(0)} ms, guardrail read ${guardrail.ms.toFixed(0)} ms (arm, assigned, resolved, successes: ${guardrail.counts})`,
    );
  }
  ratios.sort((a, b) => a - b);
  console.log(
    `${payments} payments, ${share * 100} % in the experiment: full read time / guardrail read time ×${ratios[Math.floor((ratios.length - 1) / 2)].toFixed(2)} (median of ${rounds})`,
  );
} finally {
  session.cleanup();
  rmSync(folder, { recursive: true, force: true });
}
