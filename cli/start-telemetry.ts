import type { Logger as PinoLogger } from 'pino';
import type { ProcessTelemetry } from '../src/adapters/telemetry/process-telemetry.js';
import type { Config } from '../src/config/load-config.js';
import { otelSettingsOf } from '../src/config/otel-settings.js';

/**
 * The process's OpenTelemetry when the standard `OTEL_*` variables ask for it (see
 * src/config/otel-settings.ts), else nothing is started. `serviceName` is the default
 * `service.name` (OTEL_SERVICE_NAME wins). The OpenTelemetry SDK and exporters (some 600 modules)
 * are imported only then.
 */
export async function startTelemetry(config: Config, serviceName: string, logger: Pick<PinoLogger, 'info' | 'warn'>): Promise<ProcessTelemetry | undefined> {
  const settings = otelSettingsOf(config, serviceName);
  if (settings === undefined) return undefined;
  if (settings.protobufRequested)
    logger.warn(
      {},
      'OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf: exporting OTLP/HTTP with JSON bodies (the installed exporters); OTLP/HTTP receivers accept both',
    );
  logger.info(
    { traces: settings.tracesUrl, metrics: settings.metricsUrl, serviceName: settings.serviceName, sampler: settings.sampler },
    'OpenTelemetry started',
  );
  const { startProcessTelemetry } = await import('../src/adapters/telemetry/process-telemetry.js');
  return startProcessTelemetry(settings);
}
