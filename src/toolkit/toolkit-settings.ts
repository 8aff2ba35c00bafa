import { ConfigurationError } from '../generation/errors/provider-errors.js';
import { DEFAULT_EVALUATION_THRESHOLD, DEFAULT_EVALUATION_TIMEOUT_MS } from '../generation/evaluation/evaluate-response.js';
import type { EvaluationSettings } from '../generation/generation-service.js';
import { parseTimeout } from '../generation/parse-timeout.js';
import { normalizeProviderName } from '../generation/provider-name.js';

export interface ToolkitSettings {
  /** `DEFAULT_PROVIDER`: preferred over the auto order when configured. */
  readonly defaultProvider: string | undefined;
  /** `SWITCHYARD_SUPPRESS_DEPRECATION` / `NEUROLINK_SUPPRESS_DEPRECATION` set to anything but `0`/`false`. */
  readonly suppressDeprecation: boolean;
  readonly evaluation: EvaluationSettings;
}

const falsy = new Set(['', '0', 'false', 'no', 'off']);

function flag(value: string | undefined): boolean {
  return value !== undefined && !falsy.has(value.trim().toLowerCase());
}

/**
 * Reads the toolkit's own variables from an environment record (never `process.env`). A bad value
 * fails here naming the variable: `NEUROLINK_EVALUATION_PROVIDER` must name a provider and
 * `NEUROLINK_EVALUATION_TIMEOUT` must be a timeout (ms or `10s`).
 */
export function readToolkitSettings(env: Readonly<Record<string, string | undefined>>): ToolkitSettings {
  const judgeName = env['NEUROLINK_EVALUATION_PROVIDER']?.trim();
  const judge = judgeName ? normalizeProviderName(judgeName) : undefined;
  if (judgeName && (judge === undefined || judge === 'auto')) {
    throw new ConfigurationError(`NEUROLINK_EVALUATION_PROVIDER="${judgeName}" names no provider`, 'toolkit');
  }
  const timeoutText = env['NEUROLINK_EVALUATION_TIMEOUT']?.trim();
  let timeoutMs = DEFAULT_EVALUATION_TIMEOUT_MS;
  if (timeoutText) {
    try {
      timeoutMs = parseTimeout(timeoutText, 'NEUROLINK_EVALUATION_TIMEOUT');
    } catch (error) {
      throw new ConfigurationError(`NEUROLINK_EVALUATION_TIMEOUT="${timeoutText}" is not a timeout (use ms or text like 10s)`, 'toolkit', {
        originalError: error,
      });
    }
  }
  const judgeModel = env['NEUROLINK_EVALUATION_MODEL']?.trim();
  const thresholdText = env['NEUROLINK_EVALUATION_THRESHOLD']?.trim();
  const threshold = thresholdText ? Number(thresholdText) : DEFAULT_EVALUATION_THRESHOLD;
  if (!Number.isFinite(threshold) || threshold < 1 || threshold > 10) {
    throw new ConfigurationError(`NEUROLINK_EVALUATION_THRESHOLD="${thresholdText}" is not a score from 1 to 10`, 'toolkit');
  }
  return {
    defaultProvider: env['DEFAULT_PROVIDER']?.trim() || undefined,
    suppressDeprecation: flag(env['SWITCHYARD_SUPPRESS_DEPRECATION']) || flag(env['NEUROLINK_SUPPRESS_DEPRECATION']),
    evaluation: {
      ...(judge !== undefined && judge !== 'auto' ? { provider: judge } : {}),
      ...(judgeModel ? { model: judgeModel } : {}),
      timeoutMs,
      threshold,
    },
  };
}
