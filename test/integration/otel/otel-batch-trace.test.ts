import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';
import { call, createMerchant, createPipelineNamespace, deletePipelineNamespace, pipelineEnv, type PipelineNamespace } from '../pipeline/pipeline-harness.js';
import { attributesOf, spanKind, spansIn, startOtlpReceiver, type OtlpReceiver, type OtlpSpan } from './otlp-receiver.js';

/**
 * A batch submit and its items are one trace: `POST /api/batches` continues the caller's
 * `traceparent`, the job queue carries the submit's trace context in each job's data (the
 * in-process queue when embedded, BullMQ on Redis when distributed), and the generation worker
 * runs each item in a `process generation-openai` CONSUMER span, child of the submit's HTTP span;
 * the item's GenAI `chat` span is the child of its item span, and the analytics sink's insert of
 * the item's `llm.call` record continues the item's trace through the event bus.
 */

const callerTraceId = '5d9a2b7c1e3f40a6b8c2d4e6f8091a2b';
const callerSpanId = '1a2b3c4d5e6f7081';
const callerTraceparent = `00-${callerTraceId}-${callerSpanId}-01`;
const prompts = ['first item', 'second item'];
const queueName = 'generation-openai';

function upstream(request: RecordedRequest) {
  const body = request.body as { model: string };
  return chatCompletion({ model: body.model, content: 'batch answer', usage: { promptTokens: 5, completionTokens: 2 } });
}

const isItemSpan = (span: OtlpSpan) => span.kind === spanKind.consumer && span.name === `process ${queueName}` && span.traceId === callerTraceId;

/** The analytics sink's consumer span of an `llm.call` record in the caller's trace. */
const isSinkLlmSpan = (span: OtlpSpan) =>
  span.kind === spanKind.consumer &&
  span.traceId === callerTraceId &&
  span.name === 'process llm' &&
  attributesOf(span.attributes)['messaging.consumer.group.name'] === 'analytics-sink';

for (const distributed of [false, true]) {
  describe(`OpenTelemetry: a batch submit and its items are one trace (${distributed ? 'BullMQ on Redis' : 'in-process queue'})`, () => {
    let provider: FakeHttpServer;
    let receiver: OtlpReceiver;
    let namespace: PipelineNamespace;
    let running: RunningServer | undefined;
    let batchId = '';
    let spans: readonly OtlpSpan[] = [];

    beforeAll(async () => {
      provider = await startFakeHttpServer(upstream);
      receiver = await startOtlpReceiver();
      namespace = await createPipelineNamespace();
      const server = await startServer(
        loadConfig({
          ...pipelineEnv(namespace, { distributed, embeddedWorkers: true }),
          LOG_LEVEL: 'silent',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
          OTEL_SERVICE_NAME: 'switchyard-batch-trace-test',
        }),
        pino({ level: 'silent' }),
        { toolkit: { cwd: mkdtempSync(join(tmpdir(), 'sytest-otel-batch-')), env: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` } } },
      );
      running = server;
      try {
        const auth = await createMerchant(server.url, 'otel-batch-shop');
        const submitted = await call(
          server.url,
          'POST',
          '/api/batches',
          { prompts, options: { provider: 'openai', model: 'gpt-4o-mini', maxTokens: 20 } },
          { ...auth, traceparent: callerTraceparent },
        );
        expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
        batchId = String(submitted.body.batchId);
        // The last span of each item's walk: the sink's insert of its llm.call record (one per item: each item's record
        // has its own publisher context, so a consumed batch holding both still gives one span per item).
        await receiver.spansArrive(
          'the analytics inserts of both items in the submit trace',
          (received) => received.filter(isSinkLlmSpan).length >= prompts.length,
        );
      } finally {
        // Its shutdown flushes every span: what the receiver holds after is everything.
        await server.stop();
      }
      spans = spansIn(receiver.requests).spans;
    }, 120_000);

    afterAll(async () => {
      await running?.stop();
      await receiver?.close();
      await provider?.close();
      if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed });
    });

    it('runs each item in a process span whose parent is the submit request span', () => {
      const http = spans.find((span) => span.name === 'POST /api/batches');
      expect(http).toMatchObject({ traceId: callerTraceId, parentSpanId: callerSpanId, kind: spanKind.server });
      const items = spans.filter(isItemSpan);
      expect(items).toHaveLength(prompts.length);
      for (const item of items) expect(item.parentSpanId).toBe(http!.spanId);
      expect(items.map((item) => attributesOf(item.attributes)['messaging.message.id']).sort()).toEqual(prompts.map((_, index) => `${batchId}:${index}`));
      expect(attributesOf(items[0]!.attributes)).toMatchObject({
        'messaging.system': distributed ? 'bullmq' : 'switchyard.in_process',
        'messaging.operation.type': 'process',
        'messaging.destination.name': queueName,
        'switchyard.job.attempt': 1,
      });
    });

    it("makes each item's GenAI chat span the child of its item span", () => {
      const items = spans.filter(isItemSpan);
      const chats = spans.filter((span) => span.name === 'chat gpt-4o-mini');
      expect(chats).toHaveLength(prompts.length);
      for (const chat of chats) expect(chat).toMatchObject({ traceId: callerTraceId, kind: spanKind.client });
      expect(chats.map((chat) => chat.parentSpanId).sort()).toEqual(items.map((item) => item.spanId).sort());
      expect(attributesOf(chats[0]!.attributes)).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.usage.output_tokens': 2 });
    });

    it("continues each item's trace in the analytics insert of its llm.call record", () => {
      const items = spans.filter(isItemSpan);
      const sinks = spans.filter(isSinkLlmSpan);
      expect(sinks).toHaveLength(prompts.length);
      expect(sinks.map((sink) => sink.parentSpanId).sort()).toEqual(items.map((item) => item.spanId).sort());
    });
  });
}
