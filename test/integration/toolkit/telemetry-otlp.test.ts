import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTelemetryStatus, initializeTelemetry, shutdownTelemetry } from '../../../src/index.js';
import { startFakeHttpServer, type FakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';

/** initializeTelemetry with an endpoint really exports OTLP/HTTP traces and metrics around toolkit calls. */
let provider: FakeHttpServer;
let collector: FakeHttpServer;
let workDir: string;

beforeAll(async () => {
  provider = await startFakeHttpServer(() => chatCompletion({ model: 'gpt-4o-mini', content: 'Hello.', usage: { promptTokens: 4, completionTokens: 2 } }));
  collector = await startFakeHttpServer(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }));
  workDir = mkdtempSync(join(tmpdir(), 'toolkit-otlp-'));
});

afterAll(async () => {
  await shutdownTelemetry();
  await provider.close();
  await collector.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('OTLP export', () => {
  it('sends spans and metrics for a generate call to the configured endpoint', async () => {
    const result = await initializeTelemetry({ serviceName: 'toolkit-it', endpoint: `${collector.url}/`, samplingRate: 1 });
    expect(result).toEqual({ success: true, tracingEnabled: true, metricsEnabled: true, logsEnabled: true, endpoint: collector.url });
    const neurolink = new DefaultNeuroLink({ cwd: workDir, env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${provider.url}/v1` }, warn: () => undefined });
    await neurolink.generate({ input: { text: 'hi' }, disableTools: true });
    expect((await getTelemetryStatus()).stats).toMatchObject({ tracesCollected: 1, logsCollected: 1 });
    await shutdownTelemetry();
    const paths = collector.requests.map((request) => `${request.method} ${request.path}`);
    expect(paths).toContain('POST /v1/traces');
    expect(paths).toContain('POST /v1/metrics');
    const traces = collector.requests.find((request) => request.path === '/v1/traces');
    // The GenAI semantic conventions name an LLM span `{gen_ai.operation.name} {gen_ai.request.model}`.
    expect(traces?.bodyText).toContain('"name":"chat gpt-4o-mini"');
    expect(traces?.bodyText).toContain('"key":"gen_ai.provider.name","value":{"stringValue":"openai"}');
  });
});
