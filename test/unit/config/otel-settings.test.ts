import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';
import { otelSettingsOf, parseKeyValueList } from '../../../src/config/otel-settings.js';

const settingsFor = (env: Record<string, string>) => otelSettingsOf(loadConfig(env), 'switchyard');

describe('the OpenTelemetry slice of the config (OTEL_*)', () => {
  it('asks for nothing when no OTEL_* variable does (the SDK would otherwise export to localhost:4318)', () => {
    expect(settingsFor({})).toBeUndefined();
    expect(settingsFor({ OTEL_SERVICE_NAME: 'api', OTEL_TRACES_SAMPLER: 'always_on' })).toBeUndefined();
  });

  it('exports traces and metrics under the base endpoint, with the standard defaults', () => {
    expect(settingsFor({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      metricsUrl: 'http://collector:4318/v1/metrics',
      headers: {},
      serviceName: 'switchyard',
      resourceAttributes: {},
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
      metricExportIntervalMs: 60_000,
      protobufRequested: false,
    });
  });

  it('uses per-signal endpoints verbatim and honours each exporter switch', () => {
    expect(settingsFor({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/traces' })).toMatchObject({ tracesUrl: 'https://t.example/traces' });
    expect(settingsFor({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/traces' })?.metricsUrl).toBeUndefined();
    expect(settingsFor({ OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({ tracesUrl: 'http://localhost:4318/v1/traces' });
    const metricsOnly = settingsFor({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' });
    expect(metricsOnly?.tracesUrl).toBeUndefined();
    expect(metricsOnly?.metricsUrl).toBe('http://c:4318/v1/metrics');
    expect(settingsFor({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' })).toBeUndefined();
  });

  it('lets OTEL_SDK_DISABLED=true win', () => {
    expect(settingsFor({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBeUndefined();
    expect(settingsFor({ OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBeDefined();
  });

  it('reads service name, resource attributes, headers, sampler and interval', () => {
    const settings = settingsFor({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs, deployment.environment.name=prod,team=a%20b',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc,x-tenant=7',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_METRIC_EXPORT_INTERVAL: '5000',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    });
    expect(settings).toMatchObject({
      serviceName: 'from-attrs',
      resourceAttributes: { 'service.name': 'from-attrs', 'deployment.environment.name': 'prod', team: 'a b' },
      headers: { authorization: 'Bearer abc', 'x-tenant': '7' },
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
      metricExportIntervalMs: 5000,
      protobufRequested: true,
    });
    expect(
      settingsFor({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SERVICE_NAME: 'api', OTEL_RESOURCE_ATTRIBUTES: 'service.name=x' })?.serviceName,
    ).toBe('api');
  });

  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['OTEL_TRACES_EXPORTER', 'zipkin'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
    ['OTEL_RESOURCE_ATTRIBUTES', 'no-equals-sign'],
    ['OTEL_SDK_DISABLED', 'maybe'],
  ])('refuses a bad %s at start, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('parses k=v lists leniently about a stray percent sign', () => {
    expect(parseKeyValueList('a=50%,b=%41')).toEqual({ a: '50%', b: 'A' });
  });
});
