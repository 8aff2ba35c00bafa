import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as switchyard from '../../../src/index.js';
import type {
  AIProvider,
  AnalyticsData,
  EvaluationData,
  GenerateOptions,
  GenerateResult,
  ProviderStatus,
  StreamOptions,
  StreamResult,
  TelemetryConfig,
  TelemetryResult,
  TelemetryStatus,
} from '../../../src/index.js';

describe('the public library entry', () => {
  it('exports the documented functions and classes', () => {
    for (const name of [
      'NeuroLink',
      'AIProviderFactory',
      'createBestAIProvider',
      'createAIProvider',
      'createAIProviderWithFallback',
      'getBestProvider',
      'getAvailableProviders',
      'isValidProvider',
      'initializeTelemetry',
      'getTelemetryStatus',
      'DynamicModelRegistry',
      'createTool',
      'validateTool',
      'AIProviderError',
      'TimeoutError',
      'ConfigurationError',
      'AuthenticationError',
      'RateLimitError',
      'QuotaExceededError',
      'InvalidRequestError',
      'MCPError',
      'MCPConnectionError',
      'MCPToolError',
      'MCPConfigurationError',
      'UserConfirmationRequiredError',
    ]) {
      expect(switchyard, name).toHaveProperty(name);
    }
  });

  it('keeps VERSION equal to package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(switchyard.VERSION).toBe(pkg.version);
  });

  it('keeps the documented error hierarchy', () => {
    expect(new switchyard.TimeoutError('t', 'openai', 5)).toBeInstanceOf(switchyard.AIProviderError);
    expect(new switchyard.RateLimitError('r', 'openai', 3).retryAfter).toBe(3);
    expect(new switchyard.MCPToolError('m', 'server', 'tool')).toBeInstanceOf(switchyard.MCPError);
  });

  it('has the documented signatures', () => {
    expectTypeOf(switchyard.NeuroLink).constructorParameters.toEqualTypeOf<[options?: switchyard.NeuroLinkOptions]>();
    expectTypeOf<switchyard.NeuroLink['generate']>().parameters.toEqualTypeOf<[GenerateOptions | string]>();
    expectTypeOf<switchyard.NeuroLink['generate']>().returns.toEqualTypeOf<Promise<GenerateResult>>();
    expectTypeOf<switchyard.NeuroLink['gen']>().toEqualTypeOf<switchyard.NeuroLink['generate']>();
    expectTypeOf<switchyard.NeuroLink['stream']>().parameters.toEqualTypeOf<[StreamOptions | string]>();
    expectTypeOf<switchyard.NeuroLink['stream']>().returns.toEqualTypeOf<Promise<StreamResult>>();
    expectTypeOf<switchyard.NeuroLink['getProviderStatus']>().returns.toEqualTypeOf<Promise<ProviderStatus[]>>();
    expectTypeOf(switchyard.createBestAIProvider).parameters.toEqualTypeOf<[requestedProvider?: string, modelName?: string]>();
    expectTypeOf(switchyard.createBestAIProvider).returns.toEqualTypeOf<AIProvider>();
    expectTypeOf(switchyard.createAIProviderWithFallback).returns.toEqualTypeOf<{ primary: AIProvider; fallback: AIProvider }>();
    expectTypeOf<AIProvider['gen']>().toEqualTypeOf<AIProvider['generate']>();
    expectTypeOf(switchyard.initializeTelemetry).parameters.toEqualTypeOf<[config: TelemetryConfig]>();
    expectTypeOf(switchyard.initializeTelemetry).returns.toEqualTypeOf<Promise<TelemetryResult>>();
    expectTypeOf(switchyard.getTelemetryStatus).returns.toEqualTypeOf<Promise<TelemetryStatus>>();
    expectTypeOf<GenerateResult['usage']>().toMatchTypeOf<{
      promptTokens: number;
      completionTokens: number;
      totalTokens: number;
      inputTokens: number;
      outputTokens: number;
    }>();
    expectTypeOf<EvaluationData>().toMatchTypeOf<{ relevanceScore: number; relevance: number; alertLevel: string; alertSeverity: string }>();
    expectTypeOf<AnalyticsData['tokens']>().toEqualTypeOf<{ readonly input: number; readonly output: number; readonly total: number }>();
    expectTypeOf<StreamResult['stream']>().toEqualTypeOf<AsyncIterable<{ readonly content: string }>>();
    expectTypeOf<GenerateOptions['timeout']>().toEqualTypeOf<number | string | undefined>();
  });
});

describe('telemetry functions', () => {
  it('report the documented shapes and count calls', async () => {
    expect(await switchyard.getTelemetryStatus()).toMatchObject({ enabled: false, features: { tracing: false, metrics: false, logs: false } });
    expect(await switchyard.initializeTelemetry({ serviceName: '' })).toMatchObject({ success: false, error: 'serviceName is required' });
    expect(await switchyard.initializeTelemetry({ serviceName: 's', samplingRate: 2 })).toMatchObject({ success: false });
    expect(await switchyard.initializeTelemetry({ serviceName: 's', endpoint: 'ftp://x' })).toMatchObject({ success: false });
    const result = await switchyard.initializeTelemetry({ serviceName: 'unit', samplingRate: 1, inMemory: true, enableLogs: false });
    expect(result).toEqual({ success: true, tracingEnabled: true, metricsEnabled: true, logsEnabled: false });
    const status = await switchyard.getTelemetryStatus();
    expect(status).toEqual({
      enabled: true,
      service: 'unit',
      version: switchyard.VERSION,
      features: { tracing: true, metrics: true, logs: false },
      stats: { tracesCollected: 0, metricsCollected: 0, logsCollected: 0 },
    });
    await switchyard.shutdownTelemetry();
    expect((await switchyard.getTelemetryStatus()).enabled).toBe(false);
  });
});
