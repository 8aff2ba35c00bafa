import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { QueueLimits } from '../../ports/job-queue.js';
import { providerNames, type ProviderName } from '../provider-name.js';

/** The config values the limits come from (schemas/config.json `batch*`). */
export interface BatchLimitSettings {
  /** Items of one provider each worker process runs at once. */
  readonly batchConcurrency: number;
  /** Items of one provider started per minute across all workers; 0 = unlimited. */
  readonly batchRatePerMinute: number;
  /** `provider=concurrency[/perMinute],…` overrides. */
  readonly batchProviderLimits?: string | undefined;
}

const minuteMs = 60_000;

function limitsOf(concurrency: number, perMinute: number): QueueLimits {
  return perMinute > 0 ? { concurrency, rateLimit: { max: perMinute, durationMs: minuteMs } } : { concurrency };
}

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('SY_CONFIG_INVALID', {
    message: `invalid configuration: BATCH_PROVIDER_LIMITS (batchProviderLimits) ${message}`,
    details: { problems: [message] },
  });
}

/**
 * The queue limits of each provider: the defaults, overridden per provider by
 * `BATCH_PROVIDER_LIMITS`. A provider the toolkit does not know, a repeated one or a zero
 * concurrency fails at start, naming the variable.
 */
export function providerQueueLimits(settings: BatchLimitSettings): (provider: ProviderName) => QueueLimits {
  const defaults = limitsOf(settings.batchConcurrency, settings.batchRatePerMinute);
  const overrides = new Map<ProviderName, QueueLimits>();
  const text = settings.batchProviderLimits?.trim() ?? '';
  for (const entry of text === '' ? [] : text.split(',')) {
    const match = /^([a-z-]+)=(\d+)(?:\/(\d+))?$/.exec(entry.trim());
    if (match === null) throw invalid(`has a malformed entry "${entry}"; use provider=concurrency[/perMinute]`);
    const [, name = '', concurrency = '0', perMinute] = match;
    if (!(providerNames as readonly string[]).includes(name)) throw invalid(`names an unknown provider "${name}"; use one of ${providerNames.join(', ')}`);
    if (overrides.has(name as ProviderName)) throw invalid(`names "${name}" twice`);
    if (Number(concurrency) < 1) throw invalid(`gives "${name}" a concurrency below 1`);
    overrides.set(name as ProviderName, limitsOf(Number(concurrency), perMinute === undefined ? settings.batchRatePerMinute : Number(perMinute)));
  }
  return (provider) => overrides.get(provider) ?? defaults;
}
