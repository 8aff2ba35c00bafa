import type { Admin } from '@platformatic/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { decideBody } from '../../helpers/test-app.js';
import { startClickHouseProxy, type ClickHouseProxy } from './clickhouse-proxy.js';
import {
  clickhouseUrl,
  consumerGroupLag,
  createClickHouse,
  createKafkaAdmin,
  createMerchant,
  createPipelineNamespace,
  decisionRowCounts,
  deletePipelineNamespace,
  pipelineEnv,
  withDeadline,
  type PipelineNamespace,
} from './pipeline-harness.js';
import { pollUntil } from '../../fixtures/poll-until.js';
import { createDecisionLoad } from './decision-load.js';
import { createPinoSink } from './pino-sink.js';
import { ensureDistBuilt, spawnSwitchyard, type SwitchyardProcess } from './switchyard-process.js';

/**
 * `switchyard worker analytics-sink` as its own process, killed without warning in the middle of a
 * batch (its rows stored in ClickHouse, its offsets not yet committed), then started again: the
 * batch is delivered again, and the reads still count every decision exactly once.
 */
describe('analytics-sink process killed mid-batch', () => {
  const merchantId = 'shop-sink-kill';
  const clickhouse = createClickHouse();
  const workers: SwitchyardProcess[] = [];
  let namespace: PipelineNamespace;
  let server: RunningServer | undefined;
  let admin: Admin | undefined;
  let proxy: ClickHouseProxy | undefined;

  function startSink(): SwitchyardProcess {
    // The sink writes through the proxy (which can hold an insert's answer); the API reads ClickHouse directly.
    const env = pipelineEnv(namespace, { distributed: true, embeddedWorkers: false, extra: { LOG_LEVEL: 'debug', CLICKHOUSE_URL: proxy!.url } });
    const worker = spawnSwitchyard(['worker', 'analytics-sink'], env);
    workers.push(worker);
    return worker;
  }

  /** How many of these event ids ClickHouse holds (any flow type). */
  async function storedEventIds(eventIds: readonly string[]): Promise<number> {
    const list = eventIds.map((eventId) => `'${eventId.replace(/[^0-9a-f-]/gi, '')}'`).join(',');
    const result = await clickhouse.query({
      query: `SELECT uniqExact(event_id) AS stored FROM ${namespace.clickhouseDatabase}.analytics_domain_events WHERE event_id IN (${list})`,
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ stored: number }>();
    return Number(row?.stored ?? 0);
  }

  beforeAll(async () => {
    await ensureDistBuilt();
    proxy = await startClickHouseProxy(clickhouseUrl);
    namespace = await createPipelineNamespace();
    // The API runs no workers: only the child process writes analytics.
    server = await startServer(loadConfig(pipelineEnv(namespace, { distributed: true, embeddedWorkers: false })), createPinoSink().logger);
    expect(server.workers).toEqual([]);
    admin = createKafkaAdmin(namespace);
  });

  afterAll(async () => {
    // Live ones leave the group cleanly, so it can be deleted.
    for (const worker of workers) await worker.kill('SIGTERM');
    await admin?.close();
    await proxy?.close();
    await server?.stop();
    await clickhouse.close();
    if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: true });
  });

  it('writes every decision exactly once when the sink process is killed mid-batch and started again', async () => {
    const url = server!.url;
    const auth = await createMerchant(url, merchantId);
    const load = createDecisionLoad(url, auth, merchantId, decideBody);

    const first = startSink();
    await withDeadline('first sink joining', first.once('worker running'), 60_000);
    await load.run('warm', 50);

    // Traffic keeps flowing while the sink dies and comes back.
    const traffic = load.run('flow', 2500, 8);
    await pollUntil(
      'first decision rows written',
      () => decisionRowCounts(clickhouse, namespace.clickhouseDatabase, merchantId),
      (counts) => counts.rows >= 300,
    );
    const held = await withDeadline('an insert stored and its answer held', proxy!.holdNextDecisionInsert(), 30_000);
    expect(await first.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    // The killed batch is in ClickHouse: the sink wrote it but never committed its offsets.
    expect(await storedEventIds(held)).toBe(held.length);
    const rowsAtKill = await decisionRowCounts(clickhouse, namespace.clickhouseDatabase, merchantId);

    const second = startSink();
    await withDeadline('second sink joining', second.once('worker running'), 60_000);
    await traffic;
    expect(load.failures).toEqual([]);
    const decided = load.decided.length;
    expect(decided).toBe(2550);
    expect(rowsAtKill.rows).toBeLessThan(decided);

    // The restarted sink takes over the group (after the dead member's session expires) and catches up.
    await pollUntil(
      'decision rows in ClickHouse',
      () => decisionRowCounts(clickhouse, namespace.clickhouseDatabase, merchantId),
      (counts) => counts.rows >= decided,
      120_000,
    );
    await pollUntil(
      'analytics-sink group caught up',
      () => consumerGroupLag(admin!, namespace, 'analytics-sink'),
      (lag) => lag === 0,
      60_000,
    );
    expect(await decisionRowCounts(clickhouse, namespace.clickhouseDatabase, merchantId)).toEqual({ rows: decided, unique: decided });

    // The held batch really was delivered again (and written again) by the restarted sink.
    const heldAt = proxy!.inserts.findIndex((insert) => insert.held);
    const rewritten = new Set(proxy!.inserts.slice(heldAt + 1).flatMap((insert) => insert.eventIds));
    expect(held.filter((eventId) => !rewritten.has(eventId))).toEqual([]);

    // A graceful stop finishes the batch in hand and exits 0.
    expect(await second.kill('SIGTERM')).toEqual({ code: 0, signal: null });
  });
});
