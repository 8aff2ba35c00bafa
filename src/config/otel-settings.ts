import type { Config } from './load-config.js';

export type OtelSamplerName = NonNullable<Config['otelTracesSampler']>;

/** The OpenTelemetry slice of the config: what the process exports, where, and as whom. */
export interface OtelSettings {
  /** Full OTLP/HTTP URL for spans; absent: no spans are exported. */
  readonly tracesUrl?: string;
  /** Full OTLP/HTTP URL for metrics; absent: no metrics are exported. */
  readonly metricsUrl?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly serviceName: string;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly sampler: OtelSamplerName;
  readonly samplerRatio: number;
  readonly metricExportIntervalMs: number;
  /** `OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf` was asked for; bodies are sent as JSON all the same. */
  readonly protobufRequested: boolean;
}

/** The SDK's default OTLP/HTTP endpoint, used only when `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER=otlp` asks for export without a URL. */
const defaultEndpoint = 'http://localhost:4318';

/** `k=v,k2=v2` (values URL-encoded, as the OTel spec writes them) as a record. */
export function parseKeyValueList(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (text === undefined) return out;
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A '%' that starts no escape is plain text: the raw text is the value.
      value = raw;
    }
    out[key] = value;
  }
  return out;
}

function signalUrl(explicit: string | undefined, base: string | undefined, path: string): string {
  return explicit ?? `${(base ?? defaultEndpoint).replace(/\/+$/, '')}/${path}`;
}

/**
 * The OpenTelemetry settings the standard `OTEL_*` variables ask for, or `undefined` when they ask
 * for nothing: no endpoint and no `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER=otlp`, or
 * `OTEL_SDK_DISABLED=true`. The OTel SDK itself would export to localhost:4318 once started with
 * nothing set; this gate is what keeps an unconfigured process from starting it at all.
 */
export function otelSettingsOf(config: Config, defaultServiceName: string): OtelSettings | undefined {
  if (config.otelSdkDisabled === true) return undefined;
  const base = config.otelExporterOtlpEndpoint;
  const tracesWanted =
    config.otelTracesExporter === 'none'
      ? false
      : config.otelTracesExporter === 'otlp' || base !== undefined || config.otelExporterOtlpTracesEndpoint !== undefined;
  const metricsWanted =
    config.otelMetricsExporter === 'none'
      ? false
      : config.otelMetricsExporter === 'otlp' || base !== undefined || config.otelExporterOtlpMetricsEndpoint !== undefined;
  if (!tracesWanted && !metricsWanted) return undefined;
  const resourceAttributes = parseKeyValueList(config.otelResourceAttributes);
  return {
    ...(tracesWanted ? { tracesUrl: signalUrl(config.otelExporterOtlpTracesEndpoint, base, 'v1/traces') } : {}),
    ...(metricsWanted ? { metricsUrl: signalUrl(config.otelExporterOtlpMetricsEndpoint, base, 'v1/metrics') } : {}),
    headers: parseKeyValueList(config.otelExporterOtlpHeaders),
    // The spec's order: OTEL_SERVICE_NAME, then service.name in OTEL_RESOURCE_ATTRIBUTES, then the process's own name.
    serviceName: config.otelServiceName ?? resourceAttributes['service.name'] ?? defaultServiceName,
    resourceAttributes,
    sampler: config.otelTracesSampler ?? 'parentbased_always_on',
    samplerRatio: config.otelTracesSamplerArg ?? 1,
    metricExportIntervalMs: config.otelMetricExportInterval ?? 60_000,
    protobufRequested: config.otelExporterOtlpProtocol === 'http/protobuf',
  };
}
