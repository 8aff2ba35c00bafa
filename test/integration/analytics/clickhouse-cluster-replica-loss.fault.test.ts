import { readdirSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsTables } from '../../../src/adapters/clickhouse/analytics-tables.js';
import { defaultMigrationsDir } from '../../../src/adapters/clickhouse/clickhouse-migrator.js';
import {
  createClickHouseServerAnalyticsStore,
  createClickHouseServerCostRowStore,
} from '../../../src/adapters/clickhouse/clickhouse-server-analytics-store.js';
import { createMemoryEventBus } from '../../../src/adapters/memory/memory-event-bus.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import { parseAnalyticsQuery } from '../../../src/analytics/parse-analytics-query.js';
import { createEvent, type EventEnvelope } from '../../../src/events/event-envelope.js';
import { uuidV7 } from '../../../src/events/uuid-v7.js';
import { llmCallPayload } from '../../../src/generation/publish-llm-calls.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';
import type { CostSettlementRow } from '../../../src/ports/analytics/cost-rows.js';
import type { EventBus } from '../../../src/ports/event-bus.js';
import { systemClock } from '../../../src/time/clock.js';
import * as analyticsSink from '../../../workers/analytics-sink.js';

const migrationFiles = readdirSync(defaultMigrationsDir).filter((name) => name.endsWith('.sql')).length;

const run = promisify(execFile);
const clusterScript = fileURLToPath(new URL('../../../deploy/local/clickhouse-cluster.sh', import.meta.url));

async function cluster(...args: string[]): Promise<string> {
  try {
    return (await run('bash', [clusterScript, ...args], { timeout: 120_000 })).stdout;
  } catch (error) {
    const output = error as { stderr?: string; stdout?: string };
    throw new Error(`deploy/local/clickhouse-cluster.sh ${args.join(' ')} failed:\n${output.stderr ?? ''}${output.stdout ?? ''}`, { cause: error });
  }
}

const clusterName = 'switchyard';
const merchantId = 'm-ch-cluster';
const database = `sytest_chcluster_${randomBytes(4).toString('hex')}`;
const llmTable = `${database}.analytics_llm_calls`;

/** `count` LLM-call events of the merchant, a millisecond apart, ids unique. */
function llmEvents(count: number, firstMs: number): EventEnvelope[] {
  return Array.from({ length: count }, (_, index) => {
    const at = firstMs + index;
    const payload = llmCallPayload({
      provider: 'openai',
      model: 'gpt-4o-mini',
      operation: 'generate',
      inputTokens: 10,
      outputTokens: 2,
      costUsd: 0.0001,
      latencyMs: 100,
      outcome: 'success',
      fallbackHops: 0,
      attribution: { merchantId, requestId: `r-${index}`, surface: 'http' },
    });
    return createEvent('llm.call', merchantId, payload, at, uuidV7(at));
  });
}

function client(url: string): ClickHouseClient {
  return createClient({
    url,
    request_timeout: 60_000,
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
    log: { level: ClickHouseLogLevel.OFF },
  });
}

/** A stuck sink (an insert failing forever is redelivered forever) fails the test instead of hanging it. */
async function within<T>(what: string, promise: Promise<T>, ms = 60_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function rows<T>(node: ClickHouseClient, query: string): Promise<T[]> {
  return (await node.query({ query, format: 'JSONEachRow' })).json<T>();
}

/** Rows as stored (no FINAL: a duplicate would show) and distinct event ids, through the given table. */
async function counts(node: ClickHouseClient, table: string): Promise<{ rows: number; unique: number }> {
  const [row] = await rows<{ rows: number; unique: number }>(
    node,
    `SELECT count() AS rows, uniqExact(event_id) AS unique FROM ${table} WHERE merchant_id = '${merchantId}'`,
  );
  return { rows: Number(row?.rows ?? -1), unique: Number(row?.unique ?? -1) };
}

async function duplicatedBlocks(node: ClickHouseClient): Promise<number> {
  const [row] = await rows<{ value: number }>(node, "SELECT value FROM system.events WHERE event = 'DuplicatedInsertedBlocks'");
  return Number(row?.value ?? 0);
}

/**
 * Issue 27: CLICKHOUSE_CLUSTER against deploy/local/clickhouse-cluster.sh (ZooKeeper and two 18.16
 * replicas of one shard). Migrations run ON CLUSTER; the analytics sink writes through node 1 while
 * node 2 is down; once node 2 is back and synced, both nodes read each event exactly once through
 * the Distributed table, and a retried identical insert (on either replica) is dropped by block
 * deduplication.
 */
describe('analytics on a two-replica ClickHouse cluster losing a replica', { timeout: 90_000 }, () => {
  let urls: [string, string];
  let nodes: [ClickHouseClient, ClickHouseClient];
  let stores: AnalyticsStore[] = [];
  let bus: EventBus | undefined;

  beforeAll(async () => {
    const started = await cluster('start');
    const url = (n: number) => new RegExp(`CLICKHOUSE_CLUSTER_NODE_${n}_URL=(\\S+)`).exec(started)?.[1] ?? '';
    urls = [url(1), url(2)];
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);
    expect(started).toContain(`CLICKHOUSE_CLUSTER=${clusterName}`);
    nodes = [client(urls[0]), client(urls[1])];
    stores = urls.map((u) => createClickHouseServerAnalyticsStore({ url: u, database, cluster: clusterName, requestTimeoutMs: 60_000 }));
  }, 120_000);

  afterAll(async () => {
    try {
      await bus?.close();
      for (const store of stores) await store.close();
      if (nodes !== undefined) {
        await nodes[0].command({
          query: `DROP DATABASE IF EXISTS ${database} ON CLUSTER ${clusterName}`,
          clickhouse_settings: { distributed_ddl_task_timeout: '30' },
        });
        await Promise.all(nodes.map((node) => node.close()));
      }
    } finally {
      // ZooKeeper and two servers are not left running for the rest of the suite, whatever failed above.
      await cluster('stop');
    }
  }, 150_000);

  it('runs the migrations ON CLUSTER: replicated local tables under Distributed ones on both nodes', async () => {
    await stores[0]!.migrate();
    await stores[1]!.migrate(); // the ledger is read through the Distributed table: nothing left to apply
    for (const node of nodes) {
      const tables = await rows<{ name: string; engine: string }>(node, `SELECT name, engine FROM system.tables WHERE database = '${database}' ORDER BY name`);
      const engineOf = new Map(tables.map((table) => [table.name, table.engine]));
      for (const table of [...analyticsTables, 'cost_settlement_rows', 'schema_migrations']) {
        expect(engineOf.get(table), table).toBe('Distributed');
        expect(engineOf.get(`${table}_local`), table).toMatch(/^Replicated[A-Za-z]*MergeTree$/);
      }
      expect(engineOf.get('analytics_llm_calls_local')).toBe('ReplicatedReplacingMergeTree');
      const [ledger] = await rows<{ n: number }>(node, `SELECT count() AS n FROM ${database}.schema_migrations_local`);
      // One ledger row per migration file (schemas/clickhouse/).
      expect(Number(ledger?.n)).toBe(migrationFiles);
    }
  });

  it('keeps each event exactly once on both replicas when one is down during the inserts', async () => {
    await cluster('stop-node', '2');
    // A restart while a replica is down: everything is applied, so no ON CLUSTER statement waits for it.
    await within('migrate with a replica down', stores[0]!.migrate(), 10_000);
    const memoryBus = createMemoryEventBus({ logger: silentLogger });
    bus = memoryBus;
    const sink = await analyticsSink.start({ bus: memoryBus, analytics: stores[0]!, logger: silentLogger, retentionDays: 30, clock: systemClock, lingerMs: 0 });
    const events = llmEvents(300, Date.now() - 60_000);
    for (let index = 0; index < events.length; index += 50) {
      await memoryBus.publish(events.slice(index, index + 50));
      await within('analytics sink catching up', sink.caughtUp());
    }
    await sink.close();
    expect(await counts(nodes[0], llmTable)).toEqual({ rows: 300, unique: 300 });

    await cluster('start-node', '2');
    await nodes[1].command({ query: `SYSTEM SYNC REPLICA ${llmTable}_local` });
    for (const node of nodes) {
      expect(await counts(node, `${llmTable}_local`)).toEqual({ rows: 300, unique: 300 });
      expect(await counts(node, llmTable)).toEqual({ rows: 300, unique: 300 });
    }
  });

  it('drops a retried identical insert on either replica (block deduplication)', async () => {
    const batch = mapEventsToAnalyticsRows(llmEvents(40, Date.now() - 30_000));
    await stores[0]!.insert(batch);
    const before = await Promise.all(nodes.map(duplicatedBlocks));
    await stores[0]!.insert(batch); // the same batch again, as after a lost acknowledgement
    await stores[1]!.insert(batch); // and once more through the other replica
    const after = await Promise.all(nodes.map(duplicatedBlocks));
    expect(after[0]! - before[0]!).toBeGreaterThanOrEqual(1);
    expect(after[1]! - before[1]!).toBeGreaterThanOrEqual(1);
    await nodes[1].command({ query: `SYSTEM SYNC REPLICA ${llmTable}_local` });
    await nodes[0].command({ query: `SYSTEM SYNC REPLICA ${llmTable}_local` });
    for (const node of nodes) expect(await counts(node, llmTable)).toEqual({ rows: 340, unique: 340 });
  });

  it('drops the block the analytics sink re-sends after an insert whose acknowledgement was lost', async () => {
    const memoryBus = createMemoryEventBus({ logger: silentLogger, redeliveryDelayMs: 10 });
    let attempts = 0;
    // The insert reaches ClickHouse, then the answer is lost: the sink fails and the bus redelivers the batch.
    const lossy: AnalyticsStore = {
      ...stores[0]!,
      async insert(batch) {
        await stores[0]!.insert(batch);
        attempts++;
        if (attempts === 1) throw new Error('connection reset after the insert was written');
      },
    };
    const sink = await analyticsSink.start({ bus: memoryBus, analytics: lossy, logger: silentLogger, retentionDays: 30, clock: systemClock, lingerMs: 0 });
    const before = await duplicatedBlocks(nodes[0]);
    try {
      await memoryBus.publish(llmEvents(60, Date.now() - 20_000));
      await within('analytics sink catching up', sink.caughtUp());
    } finally {
      await sink.close();
      await memoryBus.close();
    }
    expect(attempts).toBe(2);
    expect((await duplicatedBlocks(nodes[0])) - before).toBeGreaterThanOrEqual(1);
    await nodes[1].command({ query: `SYSTEM SYNC REPLICA ${llmTable}_local` });
    for (const node of nodes) expect(await counts(node, llmTable)).toEqual({ rows: 400, unique: 400 });
  });

  it('answers an analytics read through the Distributed tables on either node', async () => {
    const parsed = parseAnalyticsQuery({ range: '1h' }, { merchantId, nowMs: Date.now(), endpoint: 'llm/overview' });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    for (const store of stores) {
      const report = await store.llmOverview(parsed.query);
      expect(report).toMatchObject({ merchant_id: merchantId, calls: 400, errors: 0 });
    }
  });

  it('stores cost rows and their tombstones (INSERT … SELECT … FINAL) through the Distributed table', async () => {
    const costRows = createClickHouseServerCostRowStore({ url: urls[1], database, cluster: clusterName });
    try {
      const row = (line: number): CostSettlementRow => ({
        merchantId,
        ingestionId: 'ing-1',
        line,
        connector: 'adyen',
        account: 'AcmeUS',
        txnRef: `t-${line}`,
        cardNetwork: 'visa',
        variant: '',
        funding: 'credit',
        issuerCountry: 'US',
        currency: 'USD',
        icCategory: '',
        txnDate: '2026-07-01',
        gross: 100,
        totalFee: 2,
        interchange: 1,
        schemeFee: 0.5,
        markup: 0.5,
        commission: 0,
        ingestedAtMs: Date.now(),
      });
      const batch = [row(1), row(2), row(3)];
      await costRows.insertRows(batch);
      await costRows.insertRows(batch);
      expect(await costRows.countRows(merchantId, 'ing-1')).toBe(3);
      await costRows.deleteIngestion(merchantId, 'ing-1');
      expect(await costRows.countRows(merchantId, 'ing-1')).toBe(0);
    } finally {
      await costRows.close();
    }
  });

  it('drops expired days ON CLUSTER from both replicas (retention)', async () => {
    const dayMs = 86_400_000;
    await stores[0]!.insert(mapEventsToAnalyticsRows(llmEvents(5, Date.now() - 40 * dayMs)));
    await nodes[1].command({ query: `SYSTEM SYNC REPLICA ${llmTable}_local` });
    expect(await counts(nodes[1], `${llmTable}_local`)).toEqual({ rows: 405, unique: 405 });
    expect(await stores[0]!.dropPartitionsBefore(Date.now() - 30 * dayMs)).toBeGreaterThanOrEqual(1);
    // ON CLUSTER runs the drop on one replica of the shard; the other follows through the replication log.
    for (const node of nodes) await node.command({ query: `SYSTEM SYNC REPLICA ${llmTable}_local` });
    for (const node of nodes) {
      expect(await counts(node, `${llmTable}_local`)).toEqual({ rows: 400, unique: 400 });
      expect(await counts(node, llmTable)).toEqual({ rows: 400, unique: 400 });
    }
  });
});
