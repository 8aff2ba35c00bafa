import type { GsmMatch } from '../../src/feedback/gsm/gsm-error.js';

/**
 * decision-engine's `gsm_info` (camelCase inside, as it serialises GsmInfo) for a matched PSP error.
 * Fields the shipped map does not keep (standardised code, descriptions, guidance) are null.
 */
export function gsmInfoWire(match: GsmMatch): Record<string, unknown> {
  return {
    decision: match.decision,
    stepUpPossible: match.stepUpPossible,
    clearPanPossible: false,
    alternateNetworkPossible: false,
    unifiedCode: match.unifiedCode,
    unifiedMessage: match.unifiedMessage,
    errorCategory: match.errorCategory,
    standardisedCode: null,
    description: null,
    userGuidanceMessage: null,
    ruleSource: match.source,
  };
}
