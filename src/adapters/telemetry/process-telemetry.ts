import { context, metrics, propagation, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import type { OtelSettings } from '../../config/otel-settings.js';
import { VERSION } from '../../toolkit/version.js';
import { OtelTelemetry } from './otel-telemetry.js';
import { installProcessTelemetry } from './telemetry-api.js';

/** The process's OpenTelemetry once started: its tracer (HTTP server spans) and the one way to flush and stop it. */
export interface ProcessTelemetry {
  readonly tracer: Tracer;
  /** Flushes pending spans and metrics to the collector and stops exporting. Safe to call twice. */
  shutdown(): Promise<void>;
}

function samplerOf(settings: OtelSettings): Sampler {
  switch (settings.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(settings.samplerRatio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.samplerRatio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Starts the OpenTelemetry SDK for this process as the standard `OTEL_*` variables asked
 * (`otelSettingsOf` decided that they did): global tracer and meter providers exporting OTLP/HTTP,
 * the AsyncLocalStorage context manager and the W3C trace-context propagator, and the toolkit's
 * telemetry (GenAI spans and metrics) on those providers. Nothing here reads the environment; the
 * exporters get explicit URLs and headers.
 */
export function startProcessTelemetry(settings: OtelSettings): ProcessTelemetry {
  const resource = resourceFromAttributes({ ...settings.resourceAttributes, 'service.name': settings.serviceName, 'service.version': VERSION });
  const headers = { ...settings.headers };
  const tracerProvider = new TracerProvider({
    resource,
    sampler: samplerOf(settings),
    spanProcessors: settings.tracesUrl === undefined ? [] : [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: settings.tracesUrl, headers }) })],
  });
  const meterProvider = new MeterProvider({
    resource,
    readers:
      settings.metricsUrl === undefined
        ? []
        : [
            new PeriodicExportingMetricReader({
              exporter: new OTLPMetricExporter({ url: settings.metricsUrl, headers }),
              exportIntervalMillis: settings.metricExportIntervalMs,
              exportTimeoutMillis: Math.min(30_000, settings.metricExportIntervalMs),
            }),
          ],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  const telemetry = new OtelTelemetry({
    serviceName: settings.serviceName,
    serviceVersion: VERSION,
    enableTracing: settings.tracesUrl !== undefined,
    enableMetrics: settings.metricsUrl !== undefined,
    enableLogs: false,
    samplingRate: 1,
    providers: { tracerProvider, meterProvider },
  });
  const uninstall = installProcessTelemetry(telemetry, {
    serviceName: settings.serviceName,
    tracing: settings.tracesUrl !== undefined,
    metrics: settings.metricsUrl !== undefined,
    ...(settings.tracesUrl !== undefined ? { endpoint: settings.tracesUrl } : {}),
  });
  let stopping: Promise<void> | undefined;
  return {
    tracer: tracerProvider.getTracer('switchyard', VERSION),
    shutdown() {
      stopping ??= (async () => {
        // OtelTelemetry.shutdown flushes and stops both providers (BatchSpanProcessor, the periodic reader).
        await uninstall();
        trace.disable();
        metrics.disable();
        propagation.disable();
        context.disable();
      })();
      return stopping;
    },
  };
}
