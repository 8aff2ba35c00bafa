import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Admin, ConfigResourceTypes } from '@platformatic/kafka';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { decideBody } from '../../helpers/test-app.js';
import { createDecisionLoad } from './decision-load.js';
import {
  call,
  createClickHouse,
  createMerchant,
  createPipelineNamespace,
  decisionRowCounts,
  deletePipelineNamespace,
  pipelineEnv,
  withDeadline,
  type PipelineNamespace,
} from './pipeline-harness.js';
import { createPinoSink } from './pino-sink.js';

const run = promisify(execFile);
const clusterScript = fileURLToPath(new URL('../../../deploy/local/kafka-cluster.sh', import.meta.url));

async function cluster(...args: string[]): Promise<string> {
  try {
    return (await run('bash', [clusterScript, ...args], { timeout: 240_000 })).stdout;
  } catch (error) {
    const output = error as { stderr?: string; stdout?: string };
    throw new Error(`deploy/local/kafka-cluster.sh ${args.join(' ')} failed:\n${output.stderr ?? ''}${output.stdout ?? ''}`, { cause: error });
  }
}

function answer(request: RecordedRequest) {
  return chatCompletion({ model: (request.body as { model: string }).model, content: 'ok', usage: { promptTokens: 10, completionTokens: 2 } });
}

async function llmRowCounts(clickhouse: ClickHouseClient, database: string, merchantId: string): Promise<{ rows: number; unique: number }> {
  if (!/^[A-Za-z0-9_-]+$/.test(merchantId) || !/^[A-Za-z0-9_]+$/.test(database)) throw new TypeError(`unsafe identifier: ${database} / ${merchantId}`);
  const result = await clickhouse.query({
    query: `SELECT count() AS rows, uniqExact(event_id) AS unique FROM ${database}.analytics_llm_calls FINAL WHERE merchant_id = '${merchantId}'`,
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ rows: number; unique: number }>();
  return { rows: Number(row?.rows ?? 0), unique: Number(row?.unique ?? 0) };
}

/**
 * Issue 27: on a three-broker KRaft cluster (deploy/local/kafka-cluster.sh) the bus creates its topics
 * with three copies and min.insync.replicas 2; the broker leading the decisions' partition 0 is killed
 * (SIGKILL) under decision and LLM-call traffic and started again. No client sees an error, and
 * ClickHouse ends with each decision and each LLM call exactly once.
 */
describe('distributed pipeline on a three-broker Kafka cluster losing a broker', () => {
  const merchantId = 'shop-broker-loss';
  const sink = createPinoSink();
  const clickhouse = createClickHouse();
  let brokers: string[];
  let admin: Admin;
  let provider: FakeHttpServer;
  let namespace: PipelineNamespace;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    const started = await cluster('start');
    brokers = (/KAFKA_CLUSTER_BROKERS=(\S+)/.exec(started)?.[1] ?? '').split(',');
    expect(brokers).toHaveLength(3);
    admin = new Admin({ clientId: 'sytest-cluster-admin', bootstrapBrokers: brokers, retries: 5 });
    provider = await startFakeHttpServer(answer);
    namespace = await createPipelineNamespace();
    const env = pipelineEnv(namespace, { distributed: true, embeddedWorkers: true, extra: { KAFKA_BROKERS: brokers.join(',') } });
    server = await startServer(loadConfig(env), sink.logger, {
      toolkit: { cwd: mkdtempSync(join(tmpdir(), 'sytest-broker-loss-')), env: { OPENAI_API_KEY: 'sk-cluster', OPENAI_BASE_URL: `${provider.url}/v1` } },
    });
  });

  afterAll(async () => {
    try {
      await server?.stop();
      await admin?.close();
      await provider?.close();
      await clickhouse.close();
      if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: true, kafkaBrokers: brokers });
    } finally {
      // Three JVMs are not left running for the rest of the suite, whatever failed above.
      await cluster('stop');
    }
  });

  it('creates the topics with three copies and min.insync.replicas 2', async () => {
    const names = ['routing', 'scores', 'api', 'llm'].map((topic) => `${namespace.kafkaTopicPrefix}${topic}`);
    const metadata = await admin.metadata({ topics: names, forceUpdate: true });
    for (const name of names) {
      for (const partition of metadata.topics.get(name)?.partitions ?? []) expect(partition.replicas, name).toHaveLength(3);
    }
    const configs = await admin.describeConfigs({
      resources: names.map((name) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName: name, configurationKeys: ['min.insync.replicas'] })),
    });
    expect(configs.map((config) => config.configs[0]?.value)).toEqual(['2', '2', '2', '2']);
  });

  it('keeps every decision and LLM call exactly once when a leading broker dies under traffic and comes back', async () => {
    const url = server!.url;
    const auth = await createMerchant(url, merchantId);
    const decisions = createDecisionLoad(url, auth, merchantId, decideBody);
    let llmOk = 0;
    const llmFailures: unknown[] = [];
    const generate = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const response = await call(url, 'POST', '/api/generate', { input: { text: `question ${i}` }, disableTools: true }, auth);
        if (response.status === 200) llmOk++;
        else llmFailures.push(response.body);
      }
    };

    await Promise.all([decisions.run('before', 100), generate(10)]);
    const metadata = await admin.metadata({ topics: [`${namespace.kafkaTopicPrefix}routing`], forceUpdate: true });
    const leader = metadata.topics.get(`${namespace.kafkaTopicPrefix}routing`)?.partitions[0]?.leader ?? 1;
    await Promise.all([decisions.during('killing', cluster('kill', String(leader)), 500), generate(5)]);
    await Promise.all([decisions.run('degraded', 300), generate(10)]);
    await Promise.all([decisions.during('restarting', cluster('start-node', String(leader)), 3000), generate(5)]);
    await Promise.all([decisions.run('after', 100), generate(10)]);

    expect(decisions.failures).toEqual([]);
    expect(llmFailures).toEqual([]);
    expect(decisions.byPhase.get('degraded')).toBe(300);

    for (const worker of server!.workers) await withDeadline(`${worker.name} catching up`, worker.caughtUp(), 180_000);
    expect(server!.runtime.bus.health()).toMatchObject({ spooled: 0, spoolFull: false });
    expect(await decisionRowCounts(clickhouse, namespace.clickhouseDatabase, merchantId)).toEqual({
      rows: decisions.decided.length,
      unique: decisions.decided.length,
    });
    expect(await llmRowCounts(clickhouse, namespace.clickhouseDatabase, merchantId)).toEqual({ rows: llmOk, unique: llmOk });
  });
});
