import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../api/server.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { decideBody } from '../../helpers/test-app.js';
import {
  consumerGroupLag,
  createClickHouse,
  createDecisionLoad,
  createKafkaAdmin,
  createMerchant,
  createPipelineNamespace,
  decisionRowCounts,
  deletePipelineNamespace,
  pipelineEnv,
  pollUntil,
  withDeadline,
  type PipelineNamespace,
} from './pipeline-harness.js';
import { createPinoSink } from './pino-sink.js';
import { ensureDistBuilt, spawnSwitchyard, type SwitchyardProcess } from './switchyard-process.js';

/**
 * `switchyard worker analytics-sink` as its own process, killed without warning while it writes,
 * then started again: the batch it had written but not committed is delivered again, and the
 * reads still count every decision once.
 */
describe('analytics-sink process killed mid-batch', () => {
  const merchantId = 'shop-sink-kill';
  const clickhouse = createClickHouse();
  const workers: SwitchyardProcess[] = [];
  let namespace: PipelineNamespace;
  let server: RunningServer | undefined;
  let admin: Admin | undefined;

  function startSink(): SwitchyardProcess {
    const env = pipelineEnv(namespace, { distributed: true, embeddedWorkers: false, extra: { LOG_LEVEL: 'debug' } });
    const worker = spawnSwitchyard(['worker', 'analytics-sink'], env);
    workers.push(worker);
    return worker;
  }

  beforeAll(async () => {
    await ensureDistBuilt();
    namespace = await createPipelineNamespace();
    // The API runs no workers: only the child process writes analytics.
    server = await startServer(loadConfig(pipelineEnv(namespace, { distributed: true, embeddedWorkers: false })), createPinoSink().logger);
    expect(server.workers).toEqual([]);
    admin = createKafkaAdmin(namespace);
    await admin.connect();
  });

  afterAll(async () => {
    for (const worker of workers) await worker.kill('SIGKILL');
    await admin?.disconnect();
    await server?.stop();
    await clickhouse.close();
    if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: true });
  });

  it('writes every decision exactly once across a SIGKILL and a restart of the sink', async () => {
    const url = server!.url;
    const auth = await createMerchant(url, merchantId);
    const load = createDecisionLoad(url, auth, merchantId, decideBody);

    const first = startSink();
    await withDeadline('first sink joining', first.once('worker running'), 60_000);
    await load.run('warm', 50);

    // Traffic keeps flowing while the sink dies and comes back.
    const traffic = load.run('flow', 2500, 8);
    await withDeadline('first batch written', first.once('analytics batch written'), 60_000);
    expect(await first.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const rowsAtKill = await decisionRowCounts(clickhouse, namespace.clickhouseDatabase, merchantId);
    expect(rowsAtKill.rows).toBeGreaterThan(0);

    const second = startSink();
    await withDeadline('second sink joining', second.once('worker running'), 60_000);
    await traffic;
    expect(load.failures).toEqual([]);
    const decided = load.decided.length;
    expect(decided).toBe(2550);
    expect(rowsAtKill.rows).toBeLessThan(decided);

    // The restarted sink takes over the group (after the dead member's session expires) and catches up.
    await pollUntil('decision rows in ClickHouse', () => decisionRowCounts(clickhouse, namespace.clickhouseDatabase, merchantId), (counts) => counts.rows >= decided, 120_000);
    await pollUntil('analytics-sink group caught up', () => consumerGroupLag(admin!, namespace, 'analytics-sink'), (lag) => lag === 0, 60_000);
    expect(await decisionRowCounts(clickhouse, namespace.clickhouseDatabase, merchantId)).toEqual({ rows: decided, unique: decided });

    // A graceful stop finishes the batch in hand and exits 0.
    expect(await second.kill('SIGTERM')).toEqual({ code: 0, signal: null });
  });
});
