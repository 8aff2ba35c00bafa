import { SpanStatusCode, type Attributes, type Counter, type Histogram, type Tracer } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, MetricReader, PeriodicExportingMetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor, TraceIdRatioBasedSampler, TracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace';
import type { CallObservation, CallOperation, CallOutcome, GenerationTelemetry } from '../../generation/telemetry.js';

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
 * The telemetry port on OpenTelemetry: one span per model call (`ai.<provider>.<operation>`, GenAI
 * semantic-convention attributes), counters for requests, tokens and errors, and a latency
 * histogram. Providers are private (not registered globally), so two toolkits in one process, or
 * an application's own OTel setup, never interfere.
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
  private readonly instruments: { requests: Counter; tokens: Counter; errors: Counter; toolCalls: Counter; duration: Histogram } | undefined;
  private traces = 0;
  private metrics = 0;
  private logs = 0;

  constructor(private readonly options: OtelTelemetryOptions) {
    const resource = resourceFromAttributes({ 'service.name': options.serviceName, 'service.version': options.serviceVersion });
    if (options.enableTracing) {
      const processors: SpanProcessor[] = [];
      if (options.inMemory === true) {
        this.spanExporter = new InMemorySpanExporter();
        processors.push(new SimpleSpanProcessor({ exporter: this.spanExporter }));
      }
      if (options.endpoint !== undefined) processors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` }) }));
      this.tracerProvider = new TracerProvider({ resource, sampler: new TraceIdRatioBasedSampler(options.samplingRate), spanProcessors: processors });
      this.tracer = this.tracerProvider.getTracer('switchyard-generation', options.serviceVersion);
    }
    if (options.enableMetrics) {
      const readers: MetricReader[] = [];
      if (options.inMemory === true) {
        this.onDemandReader = new OnDemandMetricReader();
        readers.push(this.onDemandReader);
      }
      if (options.endpoint !== undefined) {
        readers.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: `${options.endpoint}/v1/metrics` }), exportIntervalMillis: options.exportIntervalMillis ?? 60_000 }));
      }
      this.meterProvider = new MeterProvider({ resource, readers });
      const meter = this.meterProvider.getMeter('switchyard-generation', options.serviceVersion);
      this.instruments = {
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
    const span =
      operation === 'tool'
        ? this.tracer?.startSpan(`tool.${model}`, { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': model, 'switchyard.tool.source': provider } })
        : this.tracer?.startSpan(`ai.${provider}.${operation}`, { attributes: { 'gen_ai.system': provider, 'gen_ai.operation.name': operation, 'gen_ai.request.model': model } });
    return {
      end: (outcome: CallOutcome) => {
        this.recordMetrics(operation, provider, model, outcome);
        if (span === undefined) return;
        if (!span.isRecording()) {
          span.end();
          return;
        }
        const attributes: Attributes = { 'switchyard.outcome': outcome.ok ? 'success' : 'error', 'switchyard.latency_ms': Math.round(outcome.latencyMs) };
        if (outcome.model !== undefined) attributes['gen_ai.response.model'] = outcome.model;
        if (outcome.usage !== undefined) {
          attributes['gen_ai.usage.input_tokens'] = outcome.usage.inputTokens;
          attributes['gen_ai.usage.output_tokens'] = outcome.usage.outputTokens;
        }
        if (outcome.errorCode !== undefined) attributes['error.type'] = outcome.errorCode;
        span.setAttributes(attributes);
        if (!outcome.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorCode ?? 'error' });
        if (this.options.enableLogs) {
          span.addEvent(outcome.ok ? 'ai.call.completed' : 'ai.call.failed', { 'switchyard.latency_bucket': latencyBucket(outcome.latencyMs) });
          this.logs += 1;
        }
        span.end();
        this.traces += 1;
      },
    };
  }

  private recordMetrics(operation: CallOperation, provider: string, model: string, outcome: CallOutcome): void {
    if (this.instruments === undefined) return;
    if (operation === 'tool') {
      this.instruments.toolCalls.add(1, { tool: model, source: provider, success: outcome.ok ? 'true' : 'false' });
      this.metrics += 1;
      return;
    }
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
