import type { EliminationConfig } from '../../generated/schema-types.js';

/**
 * The stringified `GatewaySuccessRateBasedRoutingInput` that 1.4.x keeps in the merchant row after
 * an elimination rule-config, and echoes from GET /merchant-account/{id}. We store the elimination
 * config on its own and derive this text on read, so the two can never disagree.
 */
export function legacyDeciderInput(elimination: EliminationConfig | undefined): string {
  if (elimination === undefined) return '';
  const latency = elimination.txnLatency?.gatewayLatency;
  return JSON.stringify({
    gatewayWiseInputs: null,
    defaultEliminationThreshold: elimination.threshold,
    defaultEliminationLevel: 'PAYMENT_METHOD',
    defaultSelectionLevel: null,
    enabledPaymentMethodTypes: [],
    eliminationV2SuccessRateInputs: null,
    globalGatewayWiseInputs: null,
    defaultGlobalEliminationThreshold: null,
    defaultGlobalEliminationMaxCountThreshold: null,
    defaultGlobalEliminationLevel: null,
    defaultGlobalSelectionMaxCountThreshold: null,
    selectionTransactionCountThreshold: null,
    defaultGlobalSoftTxnResetCount: null,
    defaultGatewayLevelEliminationThreshold: null,
    defaultEliminationV2SuccessRate: null,
    txnLatency: latency === undefined || latency === null ? null : { gatewayLatency: latency },
  });
}
