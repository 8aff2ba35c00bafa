import { isFeatureEnabled, readMerchantFeatures } from '../../decision/features/merchant-features.js';
import type { FeedbackReceivedV1 } from '../../generated/schema-types.js';
import type { ConfigStore } from '../../ports/state/config-store.js';
import { classifyGsmError, isGatewayFault } from './classify-gsm-error.js';
import type { GsmErrorQuery, GsmMatch } from './gsm-error.js';

/** What `feedback.received` records of the PSP error (its `gsm` field). */
export type FeedbackGsm = NonNullable<FeedbackReceivedV1['gsm']>;

export interface FeedbackClassification {
  /** The matched rule; undefined when the error is unmapped. */
  readonly match: GsmMatch | undefined;
  readonly recorded: FeedbackGsm;
}

/**
 * Classifies the PSP error of one score feedback for its merchant, at the API, so the event carries
 * the verdict the merchant's settings gave when the feedback arrived (a redelivery or a later
 * settings change does not reclassify it). The lookup's connector is the feedback's gateway.
 */
export async function classifyFeedbackError(configs: Pick<ConfigStore, 'get'>, merchantId: string, error: GsmErrorQuery): Promise<FeedbackClassification> {
  const [rules, features] = await Promise.all([configs.get(merchantId, 'gsmRules'), readMerchantFeatures(configs, merchantId)]);
  const match = classifyGsmError(error, rules);
  return {
    match,
    recorded: {
      errorCode: error.errorCode ?? null,
      errorMessage: error.errorMessage ?? null,
      unifiedCode: match?.unifiedCode ?? null,
      unifiedMessage: match?.unifiedMessage ?? null,
      stepUpPossible: match?.stepUpPossible ?? false,
      ruleSource: match?.source ?? 'unmapped',
      gatewayFault: isGatewayFault(match, rules),
      scoringFilter: isFeatureEnabled(features, 'gsm-scoring-filter'),
    },
  };
}

/** Whether feedback's failure stays out of the gateway's windows and elimination (filter on, not the gateway's fault). */
export function isExcusedFailure(gsm: FeedbackGsm | undefined): boolean {
  return gsm?.scoringFilter === true && !gsm.gatewayFault;
}
