import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { decideBody } from '../../helpers/test-app.js';
import {
  call,
  createClickHouse,
  createMerchant,
  createPipelineNamespace,
  decisionRowCounts,
  deletePipelineNamespace,
  pipelineEnv,
  type PipelineNamespace,
} from '../pipeline/pipeline-harness.js';
import { pollUntil } from '../../fixtures/poll-until.js';
import { ensureDistBuilt, spawnSwitchyard, type LogLine, type SwitchyardProcess } from '../pipeline/switchyard-process.js';
import { attributesOf, spanKind, spansByService, startOtlpReceiver, type OtlpReceiver, type OtlpSpan } from './otlp-receiver.js';

/**
 * Worker processes export too: `switchyard serve` and `switchyard worker analytics-sink` /
 * `switchyard worker generation` as processes of their own (the built CLI, distributed mode on the
 * shared Kafka, Redis and ClickHouse), each with OTEL_* pointing at one loopback OTLP/HTTP receiver
 * under its own OTEL_SERVICE_NAME. A decision made through serve and the sink process's insert of
 * it are one trace (the parent link travels in the Kafka record headers); a batch submitted through
 * serve, its item in the generation worker process (the trace context in the BullMQ job's data) and
 * the sink's insert of the item's llm.call record are one trace across three processes. With the
 * OTEL_* variables unset, the same processes start no SDK and export nothing.
 */

const serveService = 'switchyard-serve-otel-test';
const sinkService = 'switchyard-sink-otel-test';
const generationService = 'switchyard-generation-otel-test';

const decisionTraceId = '7c2e4a6b8d0f41a3b5c7d9e1f3a5b7c9';
const decisionCallerSpanId = '2b4d6f8a0c1e3a5b';
const batchTraceId = '3e5a7c9b1d2f40e6a8c0b2d4f6e8a0c2';
const batchCallerSpanId = '6d8f0a2c4e6b8d0f';

function upstream(request: RecordedRequest) {
  const body = request.body as { model: string };
  return chatCompletion({ model: body.model, content: 'worker answer', usage: { promptTokens: 6, completionTokens: 3 } });
}

/** The analytics sink's consumer span in `traceId`. */
const isSinkSpan = (span: OtlpSpan, traceId: string) =>
  span.kind === spanKind.consumer && span.traceId === traceId && attributesOf(span.attributes)['messaging.consumer.group.name'] === 'analytics-sink';

/** Processes of one scenario: started in order, each awaited on its own log line, all stopped with SIGTERM (their exporters flush then). */
function processGroup() {
  const started: SwitchyardProcess[] = [];
  return {
    async serve(env: Record<string, string>): Promise<string> {
      const child = spawnSwitchyard(['serve'], env);
      started.push(child);
      return String((await child.once('switchyard listening'))['url']);
    },
    async worker(name: 'analytics-sink' | 'generation', env: Record<string, string>): Promise<SwitchyardProcess> {
      const child = spawnSwitchyard(['worker', name], env);
      started.push(child);
      await child.once('worker running');
      return child;
    },
    started: () => started as readonly SwitchyardProcess[],
    async stop(): Promise<void> {
      const exits = await Promise.all(started.map((child) => child.kill('SIGTERM')));
      started.length = 0;
      for (const exit of exits) expect(exit).toEqual({ code: 0, signal: null });
    },
  };
}

describe('OpenTelemetry in worker processes (serve, worker analytics-sink, worker generation; Kafka, Redis, ClickHouse)', () => {
  let provider: FakeHttpServer;
  let receiver: OtlpReceiver;
  let namespace: PipelineNamespace;
  const processes = processGroup();
  let exported: { readonly service: unknown; readonly span: OtlpSpan }[] = [];
  let batchId = '';
  /** Each process's `OpenTelemetry started` log line. */
  let startedLines: readonly LogLine[] = [];

  beforeAll(async () => {
    await ensureDistBuilt();
    provider = await startFakeHttpServer(upstream);
    receiver = await startOtlpReceiver();
    namespace = await createPipelineNamespace();
    const base = {
      ...pipelineEnv(namespace, { distributed: true, embeddedWorkers: false }),
      OPENAI_API_KEY: 'sk-worker-otel',
      OPENAI_BASE_URL: `${provider.url}/v1`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
    };
    try {
      const url = await processes.serve({ ...base, OTEL_SERVICE_NAME: serveService });
      await processes.worker('analytics-sink', { ...base, OTEL_SERVICE_NAME: sinkService });
      await processes.worker('generation', { ...base, OTEL_SERVICE_NAME: generationService });
      const auth = await createMerchant(url, 'otel-worker-shop');

      const decided = await call(url, 'POST', '/decide-gateway', decideBody('otel-worker-shop', 'otel-worker-pay-1'), {
        ...auth,
        traceparent: `00-${decisionTraceId}-${decisionCallerSpanId}-01`,
      });
      expect(decided.status).toBe(200);
      await receiver.spansArrive("the sink process's span of the decision", (spans) => spans.some((span) => isSinkSpan(span, decisionTraceId)));

      const submitted = await call(
        url,
        'POST',
        '/api/batches',
        { prompts: ['traced across processes'], options: { provider: 'openai', model: 'gpt-4o-mini' } },
        { ...auth, traceparent: `00-${batchTraceId}-${batchCallerSpanId}-01` },
      );
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
      batchId = String(submitted.body.batchId);
      await receiver.spansArrive("the sink process's span of the batch item's llm.call record", (spans) =>
        spans.some((span) => isSinkSpan(span, batchTraceId) && span.name === 'process llm'),
      );
    } finally {
      startedLines = processes.started().flatMap((child) => child.lines.filter((line) => line.msg === 'OpenTelemetry started'));
      // SIGTERM: each process flushes its exporter before it exits.
      await processes.stop();
    }
    exported = spansByService(receiver.requests);
  }, 240_000);

  afterAll(async () => {
    await processes.stop();
    await receiver?.close();
    await provider?.close();
    if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: true });
  });

  it("makes the worker process's consumer span the child of serve's request span (parent link through the Kafka record headers)", () => {
    const http = exported.find(({ span }) => span.name === 'POST /decide-gateway' && span.traceId === decisionTraceId);
    expect(http?.service).toBe(serveService);
    expect(http?.span).toMatchObject({ kind: spanKind.server, parentSpanId: decisionCallerSpanId });
    const sink = exported.filter(({ span }) => isSinkSpan(span, decisionTraceId));
    // Delivery is at least once: a consumer-group rebalance while other files run beside this one can
    // hand the record to the sink twice (its rows still land once); every processing is a child.
    expect(sink.length).toBeGreaterThanOrEqual(1);
    for (const processed of sink) {
      expect(processed.service).toBe(sinkService);
      expect(processed.span.parentSpanId).toBe(http!.span.spanId);
      // The decision's record (routing topic) and, when it lands in the same sink batch's trace, the
      // request's API event (api topic) are both processed as children of the request.
      expect(processed.span.name).toMatch(/^process( routing| api)?$/);
      expect(attributesOf(processed.span.attributes)).toMatchObject({ 'messaging.system': 'kafka', 'messaging.operation.type': 'process' });
    }
  });

  it('makes a batch submit, its item in the generation worker process and the sink process insert of its llm.call one trace', () => {
    const inTrace = exported.filter(({ span }) => span.traceId === batchTraceId);
    const http = inTrace.find(({ span }) => span.name === 'POST /api/batches');
    expect(http).toMatchObject({ service: serveService, span: { kind: spanKind.server, parentSpanId: batchCallerSpanId } });
    const item = inTrace.find(({ span }) => span.name === 'process generation-openai');
    expect(item).toMatchObject({ service: generationService, span: { kind: spanKind.consumer, parentSpanId: http!.span.spanId } });
    expect(attributesOf(item!.span.attributes)).toMatchObject({ 'messaging.system': 'bullmq', 'messaging.message.id': `${batchId}:0` });
    const chat = inTrace.find(({ span }) => span.name === 'chat gpt-4o-mini');
    expect(chat).toMatchObject({ service: generationService, span: { kind: spanKind.client, parentSpanId: item!.span.spanId } });
    const sink = inTrace.find(({ span }) => isSinkSpan(span, batchTraceId) && span.name === 'process llm');
    expect(sink).toMatchObject({ service: sinkService, span: { parentSpanId: item!.span.spanId } });
  });

  it('exports under each process its own service.name and nothing from a process under another', () => {
    expect(startedLines.map((line) => line['serviceName']).sort()).toEqual([generationService, serveService, sinkService].sort());
    const services = new Set(exported.map(({ service }) => service));
    expect([...services].sort()).toEqual([generationService, serveService, sinkService].sort());
    for (const { service, span } of exported) {
      if (span.kind === spanKind.server) expect(service).toBe(serveService);
      if (attributesOf(span.attributes)['messaging.consumer.group.name'] === 'analytics-sink') expect(service).toBe(sinkService);
    }
  });
});

describe('worker processes without OTEL_* variables', () => {
  it('start no OpenTelemetry and export nothing, not even to the SDK default localhost:4318', async () => {
    await ensureDistBuilt();
    // The children inherit this environment (this file's own process): the variables are unset there as well.
    for (const key of Object.keys(process.env)) if (key.startsWith('OTEL_')) delete process.env[key];
    // Held by another process (another test file exporting to its default, run side by side): nothing to listen on.
    const receiver = await startDefaultPortReceiver().catch(() => undefined);
    const namespace = await createPipelineNamespace();
    const clickhouse = createClickHouse();
    const processes = processGroup();
    try {
      const env = pipelineEnv(namespace, { distributed: true, embeddedWorkers: false });
      const url = await processes.serve(env);
      await processes.worker('analytics-sink', env);
      const auth = await createMerchant(url, 'otel-off-shop');
      const decided = await call(url, 'POST', '/decide-gateway', decideBody('otel-off-shop', 'otel-off-pay-1'), {
        ...auth,
        traceparent: `00-${decisionTraceId}-${decisionCallerSpanId}-01`,
      });
      expect(decided.status).toBe(200);
      // The sink process did its work (the decision's row is in ClickHouse) before both stop and would flush.
      await pollUntil(
        'decision row written by the sink process',
        () => decisionRowCounts(clickhouse, namespace.clickhouseDatabase, 'otel-off-shop'),
        (counts) => counts.unique === 1,
        60_000,
      );
      const logs = processes.started().flatMap((child) => child.lines);
      expect(logs.length).toBeGreaterThan(0);
      expect(logs.filter((line) => line.msg === 'OpenTelemetry started')).toEqual([]);
      await processes.stop();
      expect(receiver?.requests ?? []).toEqual([]);
    } finally {
      await processes.stop();
      await receiver?.close();
      await clickhouse.close();
      await deletePipelineNamespace(namespace, { distributed: true });
    }
  }, 180_000);
});

/** A receiver on the SDK's default OTLP/HTTP port: what a process that started OpenTelemetry unasked would send to. */
async function startDefaultPortReceiver(): Promise<{ readonly requests: string[]; close(): Promise<void> }> {
  const { createServer: createHttpServer } = await import('node:http');
  const requests: string[] = [];
  const server = createHttpServer((incoming, outgoing) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    outgoing.end('{}');
  });
  // Rejects when the port is taken (EADDRINUSE): checking first and listening after would race another file.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(4318, '127.0.0.1', resolve);
  });
  return { requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
