import type { GsmOverrideRule, MerchantGsmRules } from '../../ports/state/gsm-rules.js';
import { defaultExcusedClasses, unifiedMessageOf } from './gsm-classes.js';
import type { GsmErrorQuery, GsmMatch } from './gsm-error.js';
import { defaultGsmMap, type GsmMap, lookupDefaultMap } from './default-gsm-map.js';

/**
 * Classifies a PSP error for a merchant: its override rules first, in their order (the first that
 * matches wins), then the shipped map. Undefined when neither knows the error (unmapped).
 */
export function classifyGsmError(query: GsmErrorQuery, merchantRules: MerchantGsmRules | undefined, map: GsmMap = defaultGsmMap()): GsmMatch | undefined {
  const rule = merchantRules?.rules.find((candidate) => overrideMatches(candidate, query));
  if (rule !== undefined) {
    return {
      source: 'merchant_rule',
      decision: 'do_default',
      unifiedCode: rule.unifiedCode,
      unifiedMessage: unifiedMessageOf(rule.unifiedCode),
      stepUpPossible: rule.stepUpPossible === true,
      errorCategory: null,
    };
  }
  return lookupDefaultMap(map, query);
}

/**
 * Whether a failure counts against the gateway that reported it. An unmapped error counts
 * (decision-engine's default: a failure nobody can place is the gateway's); so does a class the
 * merchant does not excuse. A possible 3-D Secure step-up never counts: the gateway worked.
 */
export function isGatewayFault(match: GsmMatch | undefined, merchantRules: MerchantGsmRules | undefined): boolean {
  if (match === undefined) return true;
  if (match.stepUpPossible) return false;
  const excused = merchantRules?.excusedClasses ?? defaultExcusedClasses;
  return match.unifiedCode === null || !(excused as readonly string[]).includes(match.unifiedCode);
}

function overrideMatches(rule: GsmOverrideRule, query: GsmErrorQuery): boolean {
  if (isSet(rule.connector) && rule.connector.trim().toLowerCase() !== query.connector.trim().toLowerCase()) return false;
  if (isSet(rule.errorCode) && rule.errorCode !== query.errorCode) return false;
  if (isSet(rule.errorMessage) && rule.errorMessage.trim() !== (query.errorMessage ?? '').trim()) return false;
  if (isSet(rule.issuerErrorCode)) {
    if (!isSet(query.issuerErrorCode) || rule.issuerErrorCode.padStart(2, '0') !== query.issuerErrorCode.padStart(2, '0')) return false;
    if (isSet(rule.cardNetwork) && rule.cardNetwork.toLowerCase() !== (query.cardNetwork ?? '').toLowerCase()) return false;
  }
  return isSet(rule.errorCode) || isSet(rule.errorMessage) || isSet(rule.issuerErrorCode);
}

function isSet(value: string | null | undefined): value is string {
  return value !== null && value !== undefined && value !== '';
}
