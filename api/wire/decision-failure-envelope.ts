import type { DecisionFailure } from '../../src/decision/decide-gateway.js';
import { deciderError, deciderParseError, type DeciderErrorEnvelope } from './decider-error-envelope.js';

/** A decision that could not be made, in the 1.4.x decider envelope (always HTTP 400). */
export function decisionFailureEnvelope(failure: DecisionFailure, merchantId: string): DeciderErrorEnvelope {
  switch (failure.kind) {
    case 'merchant_not_found':
      return deciderError({
        status: 'Invalid Request',
        errorCode: 'invalid_request_error',
        message: 'Merchant not found',
        infoCode: 'MERCHANT_NOT_FOUND',
        developerMessage: failure.message,
      });
    case 'gateway_not_found':
      return deciderError({
        status: 'Invalid Request',
        errorCode: 'invalid_request_error',
        message: "Can't find a suitable gateway to process the transaction",
        infoCode: 'GATEWAY_NOT_FOUND',
        developerMessage: failure.message,
        routingApproach: 'NONE',
      });
    case 'debit_routing_not_enabled':
      return deciderError({
        status: 'Forbidden',
        errorCode: 'debit_routing_not_enabled',
        message: `Debit routing is not enabled for merchant: ${merchantId}`,
        infoCode: 'TE_05',
      });
    case 'co_badged_network_not_found':
      return deciderError({
        status: 'Invalid Request',
        errorCode: 'invalid_request_error',
        message: "Can't find the co-badged card network",
        infoCode: 'CO_BADGED_NETWORK_NOT_FOUND',
        developerMessage: failure.detail,
      });
    case 'invalid_input':
      return deciderParseError(failure.message);
  }
}
