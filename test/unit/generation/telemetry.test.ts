import { context, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtelTelemetry } from '../../../src/adapters/telemetry/otel-telemetry.js';
import { DeprecationNotice } from '../../../src/generation/deprecation-notice.js';
import { AIProviderError } from '../../../src/generation/errors/ai-provider-error.js';
import { GenerationService } from '../../../src/generation/generation-service.js';
import type { GenerationTelemetry } from '../../../src/generation/telemetry.js';
import { ScriptedLanguageModel, scriptedCatalog } from '../../helpers/scripted-language-model.js';

function otel(samplingRate: number, overrides: Partial<ConstructorParameters<typeof OtelTelemetry>[0]> = {}): OtelTelemetry {
  return new OtelTelemetry({
    serviceName: 'test',
    serviceVersion: '0.0.0',
    enableTracing: true,
    enableMetrics: true,
    enableLogs: true,
    samplingRate,
    inMemory: true,
    ...overrides,
  });
}

function serviceWith(
  telemetry: GenerationTelemetry,
  clients: ConstructorParameters<typeof ScriptedLanguageModel>[2],
  second?: ScriptedLanguageModel,
): GenerationService {
  const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', clients);
  return new GenerationService({
    catalog: scriptedCatalog(second === undefined ? { openai } : { openai, [second.provider]: second }),
    tools: async () => [],
    telemetry: () => telemetry,
    notice: new DeprecationNotice(() => undefined),
    evaluation: { timeoutMs: 100 },
  });
}

async function metricNames(telemetry: OtelTelemetry): Promise<Map<string, number>> {
  const collected = await telemetry.collectMetrics();
  const totals = new Map<string, number>();
  for (const scope of collected?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) {
      const sum = metric.dataPoints.reduce((acc, point) => acc + (typeof point.value === 'number' ? point.value : point.value.count), 0);
      totals.set(metric.descriptor.name, sum);
    }
  }
  return totals;
}

describe('telemetry around model calls', () => {
  it('records a span with GenAI attributes and metrics for each generate', async () => {
    const telemetry = otel(1);
    await serviceWith(telemetry, [{ text: 'hi', usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 } }]).generate('x');
    const [span] = telemetry.finishedSpans();
    expect(span?.name).toBe('chat gpt-4o-mini');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 7,
      'switchyard.outcome': 'success',
    });
    expect(span?.events.map((event) => event.name)).toEqual(['ai.call.completed']);
    const metrics = await metricNames(telemetry);
    expect(metrics.get('ai_requests_total')).toBe(1);
    expect(metrics.get('ai_tokens_used_total')).toBe(12);
    expect(metrics.get('ai_request_duration_ms')).toBe(1);
    // GenAI semconv histograms: one operation duration, one token data point per token type.
    expect(metrics.get('gen_ai.client.operation.duration')).toBe(1);
    expect(metrics.get('gen_ai.client.token.usage')).toBe(2);
    expect(telemetry.stats()).toEqual({ tracesCollected: 1, metricsCollected: 4, logsCollected: 1 });
    await telemetry.shutdown();
  });

  it('observes a call that failed over as ONE client span, named after the provider that answered, with the failed attempt as an event', async () => {
    const telemetry = otel(1);
    const anthropic = new ScriptedLanguageModel('anthropic', 'claude', [{ text: 'ok', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } }]);
    await serviceWith(telemetry, [{ error: new AIProviderError('down', 'openai', { statusCode: 503 }) }], anthropic).generate('x');
    const spans = telemetry.finishedSpans();
    expect(spans.map((span) => [span.name, span.kind, span.status.code])).toEqual([['chat claude', SpanKind.CLIENT, 0]]);
    expect(spans[0]?.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude',
      'gen_ai.response.model': 'claude',
      'gen_ai.usage.input_tokens': 3,
      'switchyard.attempts': 2,
    });
    expect(spans[0]?.attributes['error.type']).toBeUndefined();
    const failed = spans[0]?.events.find((event) => event.name === 'gen_ai.attempt.failed');
    expect(failed?.attributes).toEqual({ 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'error.type': 'PROVIDER_ERROR' });
    const metrics = await metricNames(telemetry);
    // The toolkit's counters count each attempt; the GenAI duration histogram counts the one call.
    expect(metrics.get('ai_provider_errors_total')).toBe(1);
    expect(metrics.get('ai_requests_total')).toBe(2);
    expect(metrics.get('gen_ai.client.operation.duration')).toBe(1);
    await telemetry.shutdown();
  });

  it('ends a call every provider failed as one span with the error type the caller got', async () => {
    const telemetry = otel(1);
    const anthropic = new ScriptedLanguageModel('anthropic', 'claude', [{ error: new AIProviderError('busy', 'anthropic', { statusCode: 429 }) }]);
    await expect(serviceWith(telemetry, [{ error: new AIProviderError('down', 'openai', { statusCode: 503 }) }], anthropic).generate('x')).rejects.toThrow(
      /All 2 providers failed/,
    );
    const spans = telemetry.finishedSpans();
    expect(spans.map((span) => [span.name, span.kind, span.status.code])).toEqual([['chat claude', SpanKind.CLIENT, 2]]);
    expect(spans[0]?.attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'error.type': 'PROVIDER_ERROR', 'switchyard.attempts': 2 });
    expect(spans[0]?.events.filter((event) => event.name === 'gen_ai.attempt.failed').map((event) => event.attributes?.['gen_ai.provider.name'])).toEqual([
      'openai',
      'anthropic',
    ]);
    await telemetry.shutdown();
  });

  it('observes a stream that failed over before its first chunk as one span, ended with the stream', async () => {
    const telemetry = otel(1);
    const anthropic = new ScriptedLanguageModel('anthropic', 'claude', [{ chunks: ['a', 'b'] }]);
    const result = await serviceWith(telemetry, [{ error: new AIProviderError('down', 'openai', { statusCode: 503 }) }], anthropic).stream('x');
    expect(telemetry.finishedSpans()).toEqual([]);
    for await (const chunk of result.stream) expect(chunk.content).toMatch(/a|b/);
    const spans = telemetry.finishedSpans();
    expect(spans.map((span) => [span.name, span.kind, span.status.code])).toEqual([['chat claude', SpanKind.CLIENT, 0]]);
    expect(spans[0]?.attributes).toMatchObject({ 'gen_ai.request.stream': true, 'switchyard.attempts': 2 });
    await telemetry.shutdown();
  });

  it('records a stream once it has ended', async () => {
    const telemetry = otel(1);
    const result = await serviceWith(telemetry, [{ chunks: ['a', 'b'] }]).stream('x');
    expect(telemetry.finishedSpans()).toEqual([]);
    for await (const chunk of result.stream) expect(chunk.content).toMatch(/a|b/);
    expect(telemetry.finishedSpans().map((span) => span.name)).toEqual(['chat gpt-4o-mini']);
    expect(telemetry.finishedSpans()[0]?.attributes['gen_ai.request.stream']).toBe(true);
    await telemetry.shutdown();
  });

  it('samples spans by trace id ratio but counts every call in metrics', async () => {
    const telemetry = otel(0);
    await serviceWith(telemetry, [{ text: 'a' }, { text: 'b' }]).generate('x');
    expect(telemetry.finishedSpans()).toEqual([]);
    expect((await metricNames(telemetry)).get('ai_requests_total')).toBe(1);
    await telemetry.shutdown();
  });

  it('never starts an observation when telemetry is off', async () => {
    const off: GenerationTelemetry = {
      enabled: false,
      startCall: () => {
        throw new Error('startCall must not run when telemetry is disabled');
      },
    };
    const service = serviceWith(off, [{ text: 'a' }, { chunks: ['b'] }]);
    expect((await service.generate('x')).content).toBe('a');
    const stream = await service.stream('y');
    for await (const chunk of stream.stream) expect(chunk.content).toBe('b');
  });
});

describe('telemetry around tool executions', () => {
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
  });
  afterAll(() => {
    context.disable();
  });

  it('records a span and a counter per tool call inside a generate', async () => {
    const telemetry = otel(1);
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ text: 'done', callTools: [{ name: 'lookup', args: { q: 'x' } }] }]);
    const service = new GenerationService({
      catalog: scriptedCatalog({ openai }),
      tools: async () => [
        {
          name: 'lookup',
          description: 'looks something up',
          inputSchema: { type: 'object' },
          source: 'custom',
          execute: async () => ({ success: false, error: 'not found' }),
        },
      ],
      telemetry: () => telemetry,
      notice: new DeprecationNotice(() => undefined),
      evaluation: { timeoutMs: 100 },
    });
    await service.generate('x');
    const spans = telemetry.finishedSpans();
    expect(spans.map((span) => span.name)).toEqual(['execute_tool lookup', 'chat gpt-4o-mini']);
    // The tool span is a child of the model call's span (with a context manager, as the process telemetry registers).
    expect(spans[0]?.parentSpanContext?.spanId).toBe(spans[1]?.spanContext().spanId);
    expect(spans[0]?.kind).toBe(SpanKind.INTERNAL);
    expect(spans[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.type': 'function',
      'switchyard.tool.source': 'custom',
      'switchyard.outcome': 'error',
      'error.type': 'TOOL_FAILED',
    });
    expect((await metricNames(telemetry)).get('tool_calls_total')).toBe(1);
    await telemetry.shutdown();
  });
});
