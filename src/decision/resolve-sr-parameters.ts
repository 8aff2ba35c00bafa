import type { SuccessRateConfig, SuccessRateSubLevelConfig } from '../generated/schema-types.js';
import type { RoutingDefaults } from './routing-defaults.js';

/** The SR v3 parameters one payment is scored and learned with. */
export interface SrParameters {
  readonly bucketSize: number;
  readonly hedgingPercent: number;
  readonly latencyThresholdSeconds: number;
}

/** The payment values a sub-level entry can match on (PaymentDimensions satisfies it). */
export interface SrMatchDimensions {
  /** Upper-cased. */
  readonly paymentMethodType: string;
  readonly paymentMethod: string;
  readonly cardNetwork: string | null;
  readonly cardIsIn: string | null;
  readonly currency: string | null;
  readonly country: string | null;
  readonly authType: string | null;
}

type Parameter = 'bucketSize' | 'hedgingPercent' | 'latencyThreshold';

/**
 * Resolves each parameter on its own (§3.3): the most specific matching sub-level entry that sets
 * it → the merchant's top-level `default*` value → `defaults`. Decision and feedback both call this,
 * so a payment is learned with the window length it was scored with.
 *
 * A sub-level entry matches when its `paymentMethodType` equals the payment's (case-insensitively,
 * since the payment's is upper-cased) and each of its other set fields equals the payment's value;
 * unset fields are wildcards. Specificity is the number of set narrowing fields; equal specificity
 * goes to the entry listed first. A value that would break the math (bucket size not a positive
 * integer, negative percent or threshold) is skipped as if unset, like upstream's filters.
 *
 * @remarks Upstream's global `SR_V3_INPUT_CONFIG_DEFAULT` is `defaults` here, and `source:
 * "autopilot"` entries are not special because there are no A/B arms.
 */
export function resolveSrParameters(config: SuccessRateConfig | undefined, payment: SrMatchDimensions, defaults: RoutingDefaults): SrParameters {
  const matching = config?.subLevelInputConfig ? matchingEntries(config.subLevelInputConfig, payment) : [];
  return {
    bucketSize: resolve(matching, 'bucketSize', config?.defaultBucketSize, isPositiveInteger) ?? defaults.bucketSize,
    hedgingPercent: resolve(matching, 'hedgingPercent', config?.defaultHedgingPercent, isNonNegative) ?? defaults.hedgingPercent,
    latencyThresholdSeconds: resolve(matching, 'latencyThreshold', config?.defaultLatencyThreshold, isNonNegative) ?? defaults.latencyThresholdSeconds,
  };
}

/** Matching entries, most specific first; the sort is stable, so ties keep their listed order. */
function matchingEntries(entries: readonly SuccessRateSubLevelConfig[], payment: SrMatchDimensions): readonly SuccessRateSubLevelConfig[] {
  const scored: { entry: SuccessRateSubLevelConfig; specificity: number }[] = [];
  for (const entry of entries) {
    const specificity = specificityIfMatching(entry, payment);
    if (specificity !== undefined) scored.push({ entry, specificity });
  }
  scored.sort((a, b) => b.specificity - a.specificity);
  return scored.map((item) => item.entry);
}

function specificityIfMatching(entry: SuccessRateSubLevelConfig, payment: SrMatchDimensions): number | undefined {
  if (entry.paymentMethodType == null || entry.paymentMethodType.toUpperCase() !== payment.paymentMethodType) {
    return undefined;
  }
  let specificity = 0;
  const narrowing: readonly [string | null | undefined, string | null][] = [
    [entry.paymentMethod, payment.paymentMethod],
    [entry.cardNetwork, payment.cardNetwork],
    [entry.cardIsIn, payment.cardIsIn],
    [entry.currency, payment.currency],
    [entry.country, payment.country],
    [entry.authType, payment.authType],
  ];
  for (const [wanted, actual] of narrowing) {
    if (wanted == null) continue;
    if (wanted !== actual) return undefined;
    specificity += 1;
  }
  return specificity;
}

function resolve(
  matching: readonly SuccessRateSubLevelConfig[],
  parameter: Parameter,
  topLevel: number | null | undefined,
  isValid: (value: number) => boolean,
): number | undefined {
  for (const entry of matching) {
    const value = entry[parameter];
    if (value != null && isValid(value)) return value;
  }
  return topLevel != null && isValid(topLevel) ? topLevel : undefined;
}

function isPositiveInteger(value: number): boolean {
  return Number.isInteger(value) && value > 0;
}

function isNonNegative(value: number): boolean {
  return Number.isFinite(value) && value >= 0;
}
