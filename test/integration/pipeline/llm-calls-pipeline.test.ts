import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream, chatError } from '../../fixtures/providers/openai-wire.js';
import { llmCallPublisher } from '../../../src/generation/publish-llm-calls.js';
import { call, createMerchant, createPipelineNamespace, deletePipelineNamespace, pipelineEnv, readReport, type PipelineNamespace } from './pipeline-harness.js';
import { createPinoSink } from './pino-sink.js';

type Report = Awaited<ReturnType<typeof call>>;

function answer(request: RecordedRequest) {
  const body = request.body as { model: string; stream?: boolean; messages: { role: string; content: unknown }[] };
  const text = JSON.stringify(body.messages.at(-1)?.content ?? '');
  if (text.includes('too fast')) return chatError('rate-limited');
  if (body.stream === true) return chatCompletionStream({ model: body.model, deltas: ['a', 'b'], usage: { promptTokens: 5, completionTokens: 2 } });
  return chatCompletion({ model: body.model, content: 'ok', usage: { promptTokens: 100, completionTokens: 20 } });
}

/**
 * The overview counts calls in its totals and per provider with reads run side by side, so a poll
 * can land between two of the sink's inserts and see them disagree: wait until both count `calls`.
 */
function overviewCounts(response: Report, calls: number): boolean {
  const providers = (response.body.providers ?? []) as { calls: number }[];
  return response.status === 200 && response.body.calls === calls && providers.reduce((sum, provider) => sum + provider.calls, 0) === calls;
}

/**
 * POST /api/generate and /api/stream → `llm.call` events → analytics sink → /analytics/llm/*, on
 * both spines: embedded (memory bus, chDB) and distributed (Kafka → ClickHouse, polled).
 */
for (const distributed of [false, true]) {
  describe(`LLM call records in analytics (${distributed ? 'Redis, Kafka, ClickHouse' : 'embedded, chDB'})`, () => {
    const merchantId = distributed ? 'llm-dist' : 'llm-embedded';
    let provider: FakeHttpServer;
    let namespace: PipelineNamespace;
    let server: RunningServer | undefined;
    let auth: Record<string, string>;

    beforeAll(async () => {
      provider = await startFakeHttpServer(answer);
      namespace = await createPipelineNamespace();
      server = await startServer(loadConfig(pipelineEnv(namespace, { distributed, embeddedWorkers: true })), createPinoSink().logger, {
        toolkit: { cwd: mkdtempSync(join(tmpdir(), 'sytest-llm-pipeline-')), env: { OPENAI_API_KEY: 'sk-pipeline', OPENAI_BASE_URL: `${provider.url}/v1` } },
      });
      auth = await createMerchant(server.url, merchantId);
    });

    afterAll(async () => {
      await server?.stop();
      if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed });
      await provider?.close();
    });

    const report = (path: string, accept: (response: Report) => boolean) => readReport(server!, { distributed, auth }, path, accept);

    it('shows generate, stream and a failed call in the overview, usage, latency and errors', async () => {
      const url = server!.url;
      for (let i = 0; i < 3; i++)
        expect((await call(url, 'POST', '/api/generate', { input: { text: `question ${i}` }, disableTools: true }, auth)).status).toBe(200);
      expect((await call(url, 'POST', '/api/generate', { input: { text: 'too fast' }, provider: 'openai', disableTools: true }, auth)).status).toBe(429);
      const streamed = await fetch(`${url}/api/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ input: { text: 'stream' }, disableTools: true }),
      });
      expect(await streamed.text()).toContain('event: complete');

      const overview = await report('/analytics/llm/overview?range=1h', (response) => overviewCounts(response, 5));
      expect(overview.body).toMatchObject({
        merchant_id: merchantId,
        calls: 5,
        errors: 1,
        error_rate: 0.2,
        input_tokens: 305,
        output_tokens: 62,
        total_tokens: 367,
        fallback_calls: 0,
      });
      expect(overview.body.cost_usd).toBeGreaterThan(0);
      expect(overview.body.providers).toEqual([expect.objectContaining({ provider: 'openai', calls: 5, errors: 1 })]);

      const usage = await report('/analytics/llm/usage?range=1h', (response) => response.status === 200);
      const series = usage.body.series as { calls: number; model: string }[];
      expect(series.reduce((sum, point) => sum + point.calls, 0)).toBe(5);
      expect(series.every((point) => point.model === 'gpt-4o-mini')).toBe(true);

      const latency = await report('/analytics/llm/latency?range=1h', (response) => response.status === 200);
      const [row] = latency.body.models as { calls: number; streams: number; p50_ms: number; p99_ms: number; ttft_p50_ms: number | null }[];
      expect(row).toMatchObject({ calls: 5, streams: 1 });
      expect(row!.p99_ms).toBeGreaterThanOrEqual(row!.p50_ms);
      expect(row!.ttft_p50_ms).toEqual(expect.any(Number));

      const errors = await report('/analytics/llm/errors?range=1h', (response) => response.status === 200);
      expect(errors.body).toMatchObject({
        total_errors: 1,
        error_rate: 0.2,
        errors: [{ error_class: 'RateLimitError', provider: 'openai', model: 'gpt-4o-mini', count: 1 }],
      });
    });

    it('shows the calls of a library NeuroLink whose onCall publishes on the bus', async () => {
      // The library surface: the caller's own NeuroLink, its records published on the service's
      // bus (in-process memory bus, or Kafka), written by the sink and read over HTTP.
      const libraryMerchant = `${merchantId}-library`;
      const libraryAuth = await createMerchant(server!.url, libraryMerchant);
      const neurolink = new DefaultNeuroLink({
        cwd: mkdtempSync(join(tmpdir(), 'sytest-llm-library-')),
        env: { OPENAI_API_KEY: 'sk-library', OPENAI_BASE_URL: `${provider.url}/v1` },
        builtInTools: [],
        onCall: llmCallPublisher(server!.runtime.bus),
      });
      const result = await neurolink.generate({
        input: { text: 'from the library' },
        disableTools: true,
        attribution: { merchantId: libraryMerchant, requestId: 'lib-1' },
      });
      expect(result.content).toBe('ok');
      const overview = await readReport(server!, { distributed, auth: libraryAuth }, '/analytics/llm/overview?range=1h', (response) =>
        overviewCounts(response, 1),
      );
      expect(overview.body).toMatchObject({
        merchant_id: libraryMerchant,
        calls: 1,
        errors: 0,
        input_tokens: 100,
        output_tokens: 20,
        providers: [{ provider: 'openai', calls: 1 }],
      });
      expect(overview.body.cost_usd).toBeGreaterThan(0);
    });

    it("keeps another merchant's calls out and refuses malformed parameters", async () => {
      const other = await createMerchant(server!.url, `${merchantId}-other`);
      const overview = await call(server!.url, 'GET', '/analytics/llm/overview?range=1h', undefined, other);
      expect(overview.status).toBe(200);
      expect(overview.body).toMatchObject({ calls: 0, error_rate: 0, cost_usd: 0 });
      expect((await call(server!.url, 'GET', '/analytics/llm/usage?range=forever', undefined, auth)).status).toBe(400);
      expect((await call(server!.url, 'GET', `/analytics/llm/overview?merchant_id=${merchantId}`, undefined, other)).status).toBe(403);
    });
  });
}
