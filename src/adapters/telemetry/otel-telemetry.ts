import {
  context as otelContext,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Counter,
  type Histogram,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, MetricReader, PeriodicExportingMetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import type { CallObservation, CallOperation, CallOutcome, ChainObservation, ChainOperation, GenerationTelemetry } from '../../generation/telemetry.js';

export interface OtelTelemetryOptions {
  readonly serviceName: string;
  readonly serviceVersion: string;
  /** OTLP/HTTP base URL (`http://collector:4318`); `/v1/traces` and `/v1/metrics` are appended. */
  readonly endpoint?: string;
  readonly enableTracing: boolean;
  readonly enableMetrics: boolean;
  readonly enableLogs: boolean;
  /** Fraction of calls traced (TraceIdRatioBased), 0..1. Metrics count every call. */
  readonly samplingRate: number;
  /** Keep finished spans and metrics in memory (tests, `switchyard status`). */
  readonly inMemory?: boolean;
  /** Metric export period when `endpoint` is set; 60 s is the OTel SDK default. */
  readonly exportIntervalMillis?: number;
  /**
   * Providers built by the caller (the process's OpenTelemetry, `startProcessTelemetry`): used
   * instead of private ones, so `endpoint`, `samplingRate` and `inMemory` are ignored.
   */
  readonly providers?: { readonly tracerProvider?: TracerProvider; readonly meterProvider?: MeterProvider };
}

/** `gen_ai.provider.name` of each provider kind (GenAI semantic conventions' well-known values where there is one). */
const genAiProviderNames: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  bedrock: 'aws.bedrock',
  azure: 'azure.ai.openai',
  vertex: 'gcp.vertex_ai',
  'google-ai': 'gcp.gemini',
  mistral: 'mistral_ai',
  huggingface: 'huggingface',
  ollama: 'ollama',
  litellm: 'litellm',
  sagemaker: 'aws.sagemaker',
  'openai-compatible': 'openai',
};

export function genAiProviderName(provider: string): string {
  return genAiProviderNames[provider] ?? provider;
}

/** `gen_ai.operation.name` of each observed operation. */
const genAiOperationNames: Readonly<Record<CallOperation, string>> = {
  generate: 'chat',
  stream: 'chat',
  evaluate: 'chat',
  embed: 'embeddings',
  tool: 'execute_tool',
};

/** Bucket advice of the GenAI client metrics (semantic conventions v1.41). */
const tokenBuckets = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const durationBuckets = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

interface Instruments {
  readonly requests: Counter;
  readonly tokens: Counter;
  readonly errors: Counter;
  readonly toolCalls: Counter;
  readonly duration: Histogram;
  readonly tokenUsage: Histogram;
  readonly operationDuration: Histogram;
}

export interface TelemetryStats {
  readonly tracesCollected: number;
  readonly metricsCollected: number;
  readonly logsCollected: number;
}

/** A reader that exports only when asked: `collect()` returns what was recorded so far. */
class OnDemandMetricReader extends MetricReader {
  // Nothing is buffered and nothing is exported on its own: flush and shutdown have nothing to do.
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function latencyBucket(ms: number): string {
  return ms < 200 ? 'excellent' : ms < 500 ? 'good' : ms < 1000 ? 'acceptable' : 'poor';
}

/**
 * The telemetry port on OpenTelemetry, following the GenAI semantic conventions (v1.41): one CLIENT
 * span per model call named `{gen_ai.operation.name} {gen_ai.request.model}` (`chat gpt-4o`), a
 * child of whatever span is current (the HTTP request's), with `gen_ai.provider.name`, request and
 * response model, token usage, finish reasons and `error.type`; tool executions as INTERNAL child
 * spans `execute_tool {name}`; the histograms `gen_ai.client.token.usage` and
 * `gen_ai.client.operation.duration` (seconds), beside the toolkit's own counters
 * (`ai_requests_total`, …). A fallback chain is ONE call (`startChain`): one CLIENT span over its
 * provider attempts, named and attributed after the attempt that ended it (the provider that
 * answered; `error.type` only when the call failed), each attempt that failed a span event
 * `gen_ai.attempt.failed`, and the GenAI histograms recorded once for the call; the toolkit's own
 * counters still count each attempt by its provider.
 * Providers are private unless given (`providers`), so two toolkits in one process, or an
 * application's own OTel setup, never interfere.
 *
 * @remarks "Logs" are span events (`ai.call.completed` / `ai.call.failed`) on sampled spans; the
 * OTel logs SDK is left out to keep the dependency set small.
 */
export class OtelTelemetry implements GenerationTelemetry {
  readonly enabled = true;
  readonly spanExporter: InMemorySpanExporter | undefined;
  private readonly tracerProvider: TracerProvider | undefined;
  private readonly tracer: Tracer | undefined;
  private readonly meterProvider: MeterProvider | undefined;
  private readonly onDemandReader: OnDemandMetricReader | undefined;
  private readonly instruments: Instruments | undefined;
  private traces = 0;
  private metrics = 0;
  private logs = 0;

  constructor(private readonly options: OtelTelemetryOptions) {
    const resource = resourceFromAttributes({ 'service.name': options.serviceName, 'service.version': options.serviceVersion });
    const given = options.providers;
    if (given?.tracerProvider !== undefined) {
      this.tracerProvider = given.tracerProvider;
      this.tracer = given.tracerProvider.getTracer('switchyard-generation', options.serviceVersion);
    } else if (options.enableTracing) {
      const processors: SpanProcessor[] = [];
      if (options.inMemory === true) {
        this.spanExporter = new InMemorySpanExporter();
        processors.push(new SimpleSpanProcessor({ exporter: this.spanExporter }));
      }
      if (options.endpoint !== undefined)
        processors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` }) }));
      this.tracerProvider = new TracerProvider({ resource, sampler: new TraceIdRatioBasedSampler(options.samplingRate), spanProcessors: processors });
      this.tracer = this.tracerProvider.getTracer('switchyard-generation', options.serviceVersion);
    }
    if (given?.meterProvider !== undefined) {
      this.meterProvider = given.meterProvider;
    } else if (options.enableMetrics) {
      const readers: MetricReader[] = [];
      if (options.inMemory === true) {
        this.onDemandReader = new OnDemandMetricReader();
        readers.push(this.onDemandReader);
      }
      if (options.endpoint !== undefined) {
        readers.push(
          new PeriodicExportingMetricReader({
            exporter: new OTLPMetricExporter({ url: `${options.endpoint}/v1/metrics` }),
            exportIntervalMillis: options.exportIntervalMillis ?? 60_000,
          }),
        );
      }
      this.meterProvider = new MeterProvider({ resource, readers });
    }
    if (this.meterProvider !== undefined) {
      const meter = this.meterProvider.getMeter('switchyard-generation', options.serviceVersion);
      this.instruments = {
        tokenUsage: meter.createHistogram('gen_ai.client.token.usage', {
          description: 'Number of input and output tokens used',
          unit: '{token}',
          advice: { explicitBucketBoundaries: tokenBuckets },
        }),
        operationDuration: meter.createHistogram('gen_ai.client.operation.duration', {
          description: 'GenAI operation duration',
          unit: 's',
          advice: { explicitBucketBoundaries: durationBuckets },
        }),
        requests: meter.createCounter('ai_requests_total', { description: 'Model calls, by provider, model, operation and outcome' }),
        tokens: meter.createCounter('ai_tokens_used_total', { description: 'Tokens used, by provider, model and direction' }),
        errors: meter.createCounter('ai_provider_errors_total', { description: 'Failed model calls, by provider and error code' }),
        toolCalls: meter.createCounter('tool_calls_total', { description: 'Tool executions during generation, by tool, source and success' }),
        duration: meter.createHistogram('ai_request_duration_ms', { description: 'Model call latency', unit: 'ms' }),
      };
    }
  }

  /** For `tool` calls `provider` is the tool's source (`built-in`, `custom`, an MCP server id) and `model` its name. */
  startCall(operation: CallOperation, provider: string, model: string): CallObservation {
    const span = this.startSpan(operation, provider, model);
    return {
      end: (outcome: CallOutcome) => {
        this.recordMetrics(operation, provider, model, outcome);
        this.endSpan(span, operation, outcome);
      },
      within: (work) => this.within(span, work),
    };
  }

  /**
   * One call over the attempts of a fallback chain: the span starts with the first attempt and ends
   * with the call (see {@link ChainObservation}); tool and judge calls made through the chain's
   * telemetry are observed as without it.
   */
  startChain(chainOperation: ChainOperation): ChainObservation {
    const started = performance.now();
    let span: Span | undefined;
    let attempts = 0;
    let succeeded = false;
    let ended = false;
    let lastFailure: { readonly provider: string; readonly model: string; readonly outcome: CallOutcome } | undefined;
    const finish = (provider: string, model: string, outcome: CallOutcome) => {
      if (ended) return;
      ended = true;
      const call = { ...outcome, latencyMs: performance.now() - started };
      this.recordSemconvMetrics(chainOperation, provider, model, call);
      if (span === undefined) return;
      const name = genAiOperationNames[chainOperation];
      span.updateName(model === '' ? name : `${name} ${model}`);
      span.setAttributes({ ...this.callAttributes(chainOperation, provider, model), 'switchyard.attempts': attempts });
      this.endSpan(span, chainOperation, call);
    };
    const telemetry: GenerationTelemetry = {
      enabled: true,
      startCall: (operation, provider, model) => {
        if (operation !== chainOperation) return this.startCall(operation, provider, model);
        attempts += 1;
        span ??= this.startSpan(operation, provider, model);
        const attemptSpan = span;
        return {
          end: (outcome: CallOutcome) => {
            this.recordToolkitMetrics(operation, provider, model, outcome);
            if (outcome.ok || succeeded) {
              finish(provider, model, outcome);
              return;
            }
            lastFailure = { provider, model, outcome };
            attemptSpan?.addEvent('gen_ai.attempt.failed', {
              'gen_ai.provider.name': genAiProviderName(provider),
              'gen_ai.request.model': model,
              'error.type': outcome.errorCode ?? '_OTHER',
            });
          },
          within: (work) => this.within(attemptSpan, work),
        };
      },
    };
    return {
      telemetry,
      succeeded: () => {
        succeeded = true;
      },
      fail: (errorCode) => {
        // A chain that failed before any attempt was observed (no provider could be prepared) called no model.
        if (lastFailure === undefined) return;
        finish(lastFailure.provider, lastFailure.model, { ...lastFailure.outcome, ok: false, errorCode });
      },
    };
  }

  private within<T>(span: Span | undefined, work: () => T): T {
    return span === undefined ? work() : otelContext.with(trace.setSpan(otelContext.active(), span), work);
  }

  private endSpan(span: Span | undefined, operation: CallOperation, outcome: CallOutcome): void {
    if (span === undefined) return;
    if (!span.isRecording()) {
      span.end();
      return;
    }
    const attributes: Attributes = { 'switchyard.outcome': outcome.ok ? 'success' : 'error', 'switchyard.latency_ms': Math.round(outcome.latencyMs) };
    if (outcome.model !== undefined && operation !== 'tool') attributes['gen_ai.response.model'] = outcome.model;
    if (outcome.usage !== undefined) {
      attributes['gen_ai.usage.input_tokens'] = outcome.usage.inputTokens;
      attributes['gen_ai.usage.output_tokens'] = outcome.usage.outputTokens;
    }
    if (outcome.finishReason !== undefined && outcome.finishReason !== '') attributes['gen_ai.response.finish_reasons'] = [outcome.finishReason];
    if (!outcome.ok) attributes['error.type'] = outcome.errorCode ?? '_OTHER';
    span.setAttributes(attributes);
    if (!outcome.ok) span.setStatus({ code: SpanStatusCode.ERROR });
    if (this.options.enableLogs) {
      span.addEvent(outcome.ok ? 'ai.call.completed' : 'ai.call.failed', { 'switchyard.latency_bucket': latencyBucket(outcome.latencyMs) });
      this.logs += 1;
    }
    span.end();
    this.traces += 1;
  }

  /** The GenAI attributes naming a model call's provider and model. */
  private callAttributes(operation: Exclude<CallOperation, 'tool'>, provider: string, model: string): Attributes {
    return {
      'gen_ai.operation.name': genAiOperationNames[operation],
      'gen_ai.provider.name': genAiProviderName(provider),
      'gen_ai.request.model': model,
      'switchyard.provider': provider,
      'switchyard.operation': operation,
      ...(operation === 'stream' ? { 'gen_ai.request.stream': true } : {}),
    };
  }

  private startSpan(operation: CallOperation, provider: string, model: string): Span | undefined {
    if (this.tracer === undefined) return undefined;
    if (operation === 'tool') {
      return this.tracer.startSpan(`execute_tool ${model}`, {
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': model,
          'gen_ai.tool.type': provider === 'built-in' || provider === 'custom' ? 'function' : 'extension',
          'switchyard.tool.source': provider,
        },
      });
    }
    const name = genAiOperationNames[operation];
    return this.tracer.startSpan(model === '' ? name : `${name} ${model}`, {
      kind: SpanKind.CLIENT,
      attributes: this.callAttributes(operation, provider, model),
    });
  }

  private recordMetrics(operation: CallOperation, provider: string, model: string, outcome: CallOutcome): void {
    if (operation === 'tool') {
      this.instruments?.toolCalls.add(1, { tool: model, source: provider, success: outcome.ok ? 'true' : 'false' });
      if (this.instruments !== undefined) this.metrics += 1;
      return;
    }
    this.recordSemconvMetrics(operation, provider, model, outcome);
    this.recordToolkitMetrics(operation, provider, model, outcome);
  }

  /** `gen_ai.client.operation.duration` and `gen_ai.client.token.usage`: once per model call (a chain's, not each attempt's). */
  private recordSemconvMetrics(operation: Exclude<CallOperation, 'tool'>, provider: string, model: string, outcome: CallOutcome): void {
    if (this.instruments === undefined) return;
    const semconv: Attributes = {
      'gen_ai.operation.name': genAiOperationNames[operation],
      'gen_ai.provider.name': genAiProviderName(provider),
      'gen_ai.request.model': model,
    };
    if (outcome.model !== undefined) semconv['gen_ai.response.model'] = outcome.model;
    this.instruments.operationDuration.record(outcome.latencyMs / 1000, outcome.ok ? semconv : { ...semconv, 'error.type': outcome.errorCode ?? '_OTHER' });
    if (outcome.usage !== undefined) {
      this.instruments.tokenUsage.record(outcome.usage.inputTokens, { ...semconv, 'gen_ai.token.type': 'input' });
      if (operation !== 'embed') this.instruments.tokenUsage.record(outcome.usage.outputTokens, { ...semconv, 'gen_ai.token.type': 'output' });
    }
  }

  /** The toolkit's own counters (`ai_requests_total`, …): each provider attempt, by its provider. */
  private recordToolkitMetrics(operation: Exclude<CallOperation, 'tool'>, provider: string, model: string, outcome: CallOutcome): void {
    if (this.instruments === undefined) return;
    const labels = { provider, model: outcome.model ?? model, operation };
    this.instruments.requests.add(1, { ...labels, outcome: outcome.ok ? 'success' : 'error' });
    this.instruments.duration.record(outcome.latencyMs, { ...labels, outcome: outcome.ok ? 'success' : 'error' });
    this.metrics += 2;
    if (outcome.usage !== undefined) {
      this.instruments.tokens.add(outcome.usage.inputTokens, { ...labels, direction: 'input' });
      this.instruments.tokens.add(outcome.usage.outputTokens, { ...labels, direction: 'output' });
      this.metrics += 2;
    }
    if (!outcome.ok) {
      this.instruments.errors.add(1, { provider, error_code: outcome.errorCode ?? 'UNKNOWN' });
      this.metrics += 1;
    }
  }

  stats(): TelemetryStats {
    return { tracesCollected: this.traces, metricsCollected: this.metrics, logsCollected: this.logs };
  }

  /** Finished spans kept in memory (`inMemory` only). */
  finishedSpans(): ReadableSpan[] {
    return this.spanExporter?.getFinishedSpans() ?? [];
  }

  /** Metrics recorded so far (`inMemory` only). */
  async collectMetrics(): Promise<ResourceMetrics | undefined> {
    if (this.onDemandReader === undefined) return undefined;
    const { resourceMetrics } = await this.onDemandReader.collect();
    return resourceMetrics;
  }

  /** Flushes exporters and stops them; the instance records nothing afterwards. */
  async shutdown(): Promise<void> {
    await Promise.all([this.tracerProvider?.shutdown(), this.meterProvider?.shutdown()]);
  }
}
