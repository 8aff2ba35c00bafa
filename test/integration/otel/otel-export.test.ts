import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { getTelemetryStatus } from '../../../src/adapters/telemetry/telemetry-api.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../../fixtures/providers/openai-wire.js';
import { runSwitchyard, removeCliWorkDirs } from '../../helpers/cli-harness.js';
import { decideBody } from '../../helpers/test-app.js';
import {
  adminSecret,
  call,
  createMerchant,
  createPipelineNamespace,
  deletePipelineNamespace,
  pipelineEnv,
  type PipelineNamespace,
} from '../pipeline/pipeline-harness.js';
import { attributesOf, metricsIn, spansIn, type OtlpSpan } from './otlp-receiver.js';

/**
 * `switchyard serve`'s OpenTelemetry as the standard OTEL_* variables configure it, checked against
 * a real OTLP/HTTP receiver on loopback (OTLP JSON bodies): one chat completion through the
 * official `openai` client, to a local fake of OpenAI's API, gives an HTTP server span continuing
 * the caller's `traceparent`, a GenAI `chat <model>` CLIENT span as its child, and the GenAI client
 * metrics, and the analytics sink's `process … llm` CONSUMER span continuing the same trace from
 * the event's trace context (in process, and through Kafka record headers). The test awaits the
 * receiver being sent that consumer span, then stops the server: its shutdown flushes every span
 * and metric, so what the receiver holds then is everything.
 */

function upstream(request: RecordedRequest) {
  const body = request.body as { model: string };
  return chatCompletion({ model: body.model, content: 'traced answer', usage: { promptTokens: 11, completionTokens: 4 } });
}

function baseEnv(): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: join(mkdtempSync(join(tmpdir(), 'sytest-otel-')), 'data'),
    ADMIN_SECRET: adminSecret,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'otel-jwt-secret-0123456789abcdef-0123456789abcdef',
  };
}

async function startWith(
  env: Record<string, string>,
  provider: FakeHttpServer,
): Promise<{ server: RunningServer; client: OpenAI; auth: Record<string, string> }> {
  const server = await startServer(loadConfig(env), pino({ level: 'silent' }), {
    toolkit: { cwd: mkdtempSync(join(tmpdir(), 'sytest-otel-cwd-')), env: { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1` } },
  });
  try {
    // The pipeline harness's admin secret and merchant setup (its env is the one both spines start from).
    const auth = await createMerchant(server.url, 'otel-shop');
    const apiKey = auth['x-api-key'] ?? '';
    return { server, auth, client: new OpenAI({ apiKey, baseURL: `${server.url}/v1`, maxRetries: 0, defaultHeaders: { traceparent: callerTraceparent } }) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The analytics sink's `process <topic>` span in trace `traceId`: the consumer that writes that request's records. */
function isSinkConsumerSpan(span: OtlpSpan, traceId: string): boolean {
  return span.kind === 5 && span.traceId === traceId && attributesOf(span.attributes)['messaging.consumer.group.name'] === 'analytics-sink';
}

const decisionTraceId = '0af7651916cd43dd8448eb211c80319c';
const decisionTraceparent = `00-${decisionTraceId}-b7ad6b7169203331-01`;

const callerTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpanId = '00f067aa0ba902b7';
const callerTraceparent = `00-${callerTraceId}-${callerSpanId}-01`;

for (const distributed of [false, true]) {
  describe(`OpenTelemetry started from OTEL_* (serve, ${distributed ? 'Kafka, Redis, ClickHouse' : 'embedded'})`, () => {
    let provider: FakeHttpServer;
    let receiver: FakeHttpServer;
    let namespace: PipelineNamespace;
    let exported: readonly RecordedRequest[];
    let running: RunningServer | undefined;

    beforeAll(async () => {
      provider = await startFakeHttpServer(upstream);
      // Each waiter resolves once the receiver has been sent a span it matches (the analytics sink's consumer span of a
      // request's records: the last span of each walk).
      const waiters: { match: (span: OtlpSpan) => boolean; resolve: () => void }[] = [];
      const received: OtlpSpan[] = [];
      const spanArrives = (match: (span: OtlpSpan) => boolean) =>
        received.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ match, resolve }));
      receiver = await startFakeHttpServer((request) => {
        if (request.path === '/v1/traces') {
          received.push(...spansIn([request]).spans);
          for (const waiter of waiters) if (received.some(waiter.match)) waiter.resolve();
        }
        return { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
      });
      namespace = await createPipelineNamespace();
      const { server, client, auth } = await startWith(
        {
          ...pipelineEnv(namespace, { distributed, embeddedWorkers: true }),
          LOG_LEVEL: 'silent',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_SERVICE_NAME: 'switchyard-otel-test',
          OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test,team=payments%20ai',
          OTEL_TRACES_SAMPLER: 'parentbased_always_on',
        },
        provider,
      );
      running = server;
      try {
        const answer = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], max_tokens: 20 });
        expect(answer.choices[0]?.message.content).toBe('traced answer');
        expect((await getTelemetryStatus()).enabled).toBe(true);
        // The analytics sink consumes the records in its own time (through Kafka when distributed). One walk after the
        // other, so the two requests' events are never in one consumed batch.
        await spanArrives((span) => isSinkConsumerSpan(span, callerTraceId));
        const decided = await call(server.url, 'POST', '/decide-gateway', decideBody('otel-shop', 'otel-pay-1'), { ...auth, traceparent: decisionTraceparent });
        expect(decided.status).toBe(200);
        await spanArrives((span) => isSinkConsumerSpan(span, decisionTraceId));
      } finally {
        await server.stop();
      }
      exported = [...receiver.requests];
    }, 120_000);

    afterAll(async () => {
      await running?.stop(); // already stopped unless beforeAll failed (stop is idempotent)
      await receiver?.close();
      await provider?.close();
      if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed });
    });

    it('exports an HTTP server span continuing the caller traceparent, with the GenAI chat span as its child', () => {
      const { spans, resources } = spansIn(exported);
      expect(exported.every((request) => request.headers['content-type']?.includes('application/json'))).toBe(true);
      expect(resources[0]).toMatchObject({ 'service.name': 'switchyard-otel-test', 'deployment.environment.name': 'test', team: 'payments ai' });
      const http = spans.find((span) => span.name === 'POST /v1/chat/completions');
      expect(http).toBeDefined();
      expect(http).toMatchObject({ traceId: callerTraceId, parentSpanId: callerSpanId, kind: 2 });
      expect(attributesOf(http!.attributes)).toMatchObject({
        'http.request.method': 'POST',
        'http.route': '/v1/chat/completions',
        'http.response.status_code': 200,
        'url.path': '/v1/chat/completions',
      });

      const chat = spans.find((span) => span.name === 'chat gpt-4o-mini');
      expect(chat).toBeDefined();
      expect(chat).toMatchObject({ traceId: callerTraceId, parentSpanId: http!.spanId, kind: 3 });
      expect(attributesOf(chat!.attributes)).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.response.model': 'gpt-4o-mini',
        'gen_ai.usage.input_tokens': 11,
        'gen_ai.usage.output_tokens': 4,
        'gen_ai.response.finish_reasons': ['stop'],
      });
      expect(attributesOf(chat!.attributes)['error.type']).toBeUndefined();
    });

    it('continues the trace in the worker that consumes the llm.call record (trace context carried by the bus)', () => {
      const { spans } = spansIn(exported);
      const http = spans.find((span) => span.name === 'POST /v1/chat/completions');
      // Every group consuming the llm topic (the analytics sink, the learning router's sr-windows) continues the request's trace.
      const consumers = spans.filter((span) => span.kind === 5 && span.name.endsWith('llm'));
      expect(consumers.length).toBeGreaterThan(0);
      for (const span of consumers) expect(span).toMatchObject({ traceId: callerTraceId, parentSpanId: http!.spanId });
      const consumer = consumers.find((span) => isSinkConsumerSpan(span, callerTraceId));
      expect(consumer).toBeDefined();
      expect(attributesOf(consumer!.attributes)).toMatchObject({
        'messaging.system': distributed ? 'kafka' : 'switchyard.in_process',
        'messaging.operation.type': 'process',
        'messaging.consumer.group.name': expect.stringContaining('analytics-sink'),
        'messaging.batch.message_count': 1,
      });
      expect(consumer!.name).toBe('process llm');
    });

    it('makes a decision and its analytics insert one trace (decision.created through the bus to the sink)', () => {
      const { spans } = spansIn(exported);
      const http = spans.find((span) => span.name === 'POST /decide-gateway' && span.traceId === decisionTraceId);
      expect(http).toMatchObject({ kind: 2, parentSpanId: 'b7ad6b7169203331' });
      const sink = spans.find((span) => isSinkConsumerSpan(span, decisionTraceId));
      expect(sink).toMatchObject({ parentSpanId: http!.spanId });
      // `process routing`; `process` when the sink's Kafka consumer took the decision and the request's api.requested record in one batch.
      expect(sink!.name).toMatch(/^process( routing)?$/);
    });

    it('exports gen_ai.client.token.usage per token type and gen_ai.client.operation.duration in seconds', () => {
      const metrics = metricsIn(exported);
      const usage = metrics.find((metric) => metric.name === 'gen_ai.client.token.usage');
      expect(usage?.unit).toBe('{token}');
      const points = usage?.histogram?.dataPoints ?? [];
      const byType = Object.fromEntries(points.map((point) => [attributesOf(point.attributes)['gen_ai.token.type'], point]));
      expect(byType['input']).toMatchObject({ sum: 11 });
      expect(byType['output']).toMatchObject({ sum: 4 });
      expect(attributesOf(byType['input']!.attributes)).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o-mini',
      });
      expect(byType['input']?.explicitBounds?.slice(0, 3)).toEqual([1, 4, 16]);

      const duration = metrics.find((metric) => metric.name === 'gen_ai.client.operation.duration');
      expect(duration?.unit).toBe('s');
      const [point] = duration?.histogram?.dataPoints ?? [];
      expect(Number(point?.count)).toBe(1);
      expect(point?.sum).toBeGreaterThan(0);
      expect(point?.sum).toBeLessThan(30);
      expect(point?.explicitBounds?.slice(0, 3)).toEqual([0.01, 0.02, 0.04]);
    });
  });
}

afterAll(removeCliWorkDirs);

describe('OpenTelemetry when no OTEL_* variable asks for it', () => {
  it('starts nothing and sends nothing, not even to the SDK default localhost:4318', async () => {
    const provider = await startFakeHttpServer(upstream);
    // The SDK's default endpoint: a receiver there would see an export from a process that started the SDK unasked.
    // Held by another process (another test file exporting to its default, run side by side): nothing to listen on.
    const receiver = await startFakeHttpServerOn(4318).catch(() => undefined);
    try {
      const { server, client } = await startWith(baseEnv(), provider);
      try {
        expect(
          (await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] })).choices[0]?.message.content,
        ).toBe('traced answer');
        expect((await getTelemetryStatus()).enabled).toBe(false);
      } finally {
        await server.stop();
      }
      expect(receiver?.requests ?? []).toEqual([]);
      // OTEL_SDK_DISABLED=true wins over an endpoint.
      const disabled = await startWith({ ...baseEnv(), OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, provider);
      try {
        expect((await getTelemetryStatus()).enabled).toBe(false);
      } finally {
        await disabled.server.stop();
      }
      expect(receiver?.requests ?? []).toEqual([]);
    } finally {
      await receiver?.close();
      await provider.close();
    }
  });
});

/** A recording receiver on a fixed loopback port. */
async function startFakeHttpServerOn(port: number): Promise<FakeHttpServer> {
  const { createServer: createHttpServer } = await import('node:http');
  const requests: RecordedRequest[] = [];
  const server = createHttpServer((incoming, outgoing) => {
    requests.push({
      method: incoming.method ?? '',
      path: incoming.url ?? '',
      query: new URLSearchParams(),
      headers: incoming.headers,
      bodyText: '',
      body: undefined,
    });
    outgoing.end('{}');
  });
  // Rejects when the port is taken (EADDRINUSE): checking first and listening after would race another file.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler: () => undefined,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('OpenTelemetry started from OTEL_* (a one-shot CLI command)', () => {
  it('exports the GenAI span of `switchyard generate` under service.name switchyard-cli, flushed before the command returns', async () => {
    const provider = await startFakeHttpServer((request) => {
      const body = request.body as { model: string; stream?: boolean };
      return body.stream === true
        ? chatCompletionStream({ model: body.model, deltas: ['cli ', 'answer'], usage: { promptTokens: 3, completionTokens: 2 } })
        : chatCompletion({ model: body.model, content: 'cli answer' });
    });
    const receiver = await startFakeHttpServer(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }));
    try {
      const result = await runSwitchyard(['generate', 'hello', '--disable-tools', '--provider', 'openai', '--model', 'gpt-4o-mini'], {
        env: { OPENAI_API_KEY: 'sk-cli', OPENAI_BASE_URL: `${provider.url}/v1`, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('cli answer\n');
      // Traces only (a per-signal endpoint): no metrics request.
      expect(receiver.requests.map((request) => request.path)).toEqual(['/v1/traces']);
      const { spans, resources } = spansIn(receiver.requests);
      expect(resources[0]).toMatchObject({ 'service.name': 'switchyard-cli' });
      const chat = spans.find((span) => span.name === 'chat gpt-4o-mini');
      expect(chat).toMatchObject({ kind: 3 });
      expect(chat?.parentSpanId ?? '').toBe('');
      expect(attributesOf(chat!.attributes)).toMatchObject({
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.stream': true,
        'gen_ai.usage.output_tokens': 2,
      });
    } finally {
      await receiver.close();
      await provider.close();
    }
  });
});
