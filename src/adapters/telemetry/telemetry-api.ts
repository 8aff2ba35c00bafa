import type { OtelTelemetry } from './otel-telemetry.js';
import { noTelemetry, type GenerationTelemetry } from '../../generation/telemetry.js';
import { VERSION } from '../../toolkit/version.js';

export interface TelemetryConfig {
  readonly serviceName: string;
  /** OTLP/HTTP base URL, e.g. `http://localhost:4318`; without it nothing is exported (stats still count). */
  readonly endpoint?: string;
  readonly enableTracing?: boolean;
  readonly enableMetrics?: boolean;
  readonly enableLogs?: boolean;
  /** Fraction of calls traced, 0..1, default 0.1. */
  readonly samplingRate?: number;
  /** Keep spans and metrics in memory as well (tests, diagnostics). */
  readonly inMemory?: boolean;
}

export interface TelemetryResult {
  readonly success: boolean;
  readonly tracingEnabled: boolean;
  readonly metricsEnabled: boolean;
  readonly logsEnabled: boolean;
  readonly endpoint?: string;
  readonly error?: string;
}

export interface TelemetryStatus {
  readonly enabled: boolean;
  readonly endpoint?: string;
  readonly service: string;
  readonly version: string;
  readonly features: { readonly tracing: boolean; readonly metrics: boolean; readonly logs: boolean };
  readonly stats?: { readonly tracesCollected: number; readonly metricsCollected: number; readonly logsCollected: number };
}

/**
 * The process's telemetry, as the documented module functions `initializeTelemetry` /
 * `getTelemetryStatus` require. This holder is the one piece of module state in the toolkit:
 * the documented API has no object to hang it on. `NeuroLink` reads it at each call unless given
 * its own telemetry.
 */
let active:
  | { readonly telemetry: OtelTelemetry; readonly config: Required<Omit<TelemetryConfig, 'endpoint' | 'inMemory'>> & { readonly endpoint?: string } }
  | undefined;

const failure = (error: string): TelemetryResult => ({ success: false, tracingEnabled: false, metricsEnabled: false, logsEnabled: false, error });

/**
 * Starts OpenTelemetry tracing and metrics for every toolkit call in this process. The OTel SDK
 * is imported only here, so a process that never calls this pays nothing for it. Calling it again
 * replaces (and flushes) the previous setup. Invalid configuration is reported in the result
 * (`success: false, error`), not thrown.
 */
export async function initializeTelemetry(config: TelemetryConfig): Promise<TelemetryResult> {
  if (typeof config?.serviceName !== 'string' || config.serviceName.trim() === '') return failure('serviceName is required');
  const samplingRate = config.samplingRate ?? 0.1;
  if (typeof samplingRate !== 'number' || !(samplingRate >= 0 && samplingRate <= 1)) return failure('samplingRate must be a number from 0 to 1');
  let endpoint: string | undefined;
  if (config.endpoint !== undefined) {
    try {
      const url = new URL(config.endpoint);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return failure('endpoint must be an http(s) URL');
      endpoint = config.endpoint.replace(/\/+$/, '');
    } catch {
      return failure(`endpoint is not a URL: ${config.endpoint}`);
    }
  }
  const settings = {
    serviceName: config.serviceName,
    enableTracing: config.enableTracing ?? true,
    enableMetrics: config.enableMetrics ?? true,
    enableLogs: config.enableLogs ?? true,
    samplingRate,
    ...(endpoint !== undefined ? { endpoint } : {}),
  };
  await shutdownTelemetry();
  if (settings.enableTracing || settings.enableMetrics) {
    const { OtelTelemetry } = await import('./otel-telemetry.js');
    active = {
      telemetry: new OtelTelemetry({ ...settings, serviceVersion: VERSION, ...(config.inMemory === true ? { inMemory: true } : {}) }),
      config: settings,
    };
  }
  return {
    success: true,
    tracingEnabled: settings.enableTracing,
    metricsEnabled: settings.enableMetrics,
    logsEnabled: settings.enableLogs && settings.enableTracing,
    ...(endpoint !== undefined ? { endpoint } : {}),
  };
}

/**
 * Makes `telemetry` (the process's OpenTelemetry started from the `OTEL_*` variables, see
 * process-telemetry.ts) the one toolkit calls use, as `initializeTelemetry` would. The returned
 * function takes it out again (if still in place) and stops it.
 */
export function installProcessTelemetry(
  telemetry: OtelTelemetry,
  settings: { readonly serviceName: string; readonly tracing: boolean; readonly metrics: boolean; readonly endpoint?: string },
): () => Promise<void> {
  const installed = {
    telemetry,
    config: {
      serviceName: settings.serviceName,
      enableTracing: settings.tracing,
      enableMetrics: settings.metrics,
      enableLogs: false,
      samplingRate: 1,
      ...(settings.endpoint !== undefined ? { endpoint: settings.endpoint } : {}),
    },
  };
  active = installed;
  return async () => {
    if (active === installed) active = undefined;
    await telemetry.shutdown();
  };
}

/** The documented status shape; `stats` counts what this process recorded since `initializeTelemetry`. */
export async function getTelemetryStatus(): Promise<TelemetryStatus> {
  if (active === undefined) {
    return { enabled: false, service: 'switchyard', version: VERSION, features: { tracing: false, metrics: false, logs: false } };
  }
  const { config, telemetry } = active;
  return {
    enabled: true,
    ...(config.endpoint !== undefined ? { endpoint: config.endpoint } : {}),
    service: config.serviceName,
    version: VERSION,
    features: { tracing: config.enableTracing, metrics: config.enableMetrics, logs: config.enableLogs && config.enableTracing },
    stats: telemetry.stats(),
  };
}

/** Flushes and stops the process telemetry; later calls record nothing. */
export async function shutdownTelemetry(): Promise<void> {
  const previous = active;
  active = undefined;
  await previous?.telemetry.shutdown();
}

/** What a toolkit call uses right now: the process telemetry, or the free no-op. */
export function currentTelemetry(): GenerationTelemetry {
  return active?.telemetry ?? noTelemetry;
}
