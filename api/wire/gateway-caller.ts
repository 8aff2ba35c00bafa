import type { FastifyRequest } from 'fastify';
import type { GatewayCaller } from '../../src/generation/gateway/gateway-caller.js';
import { credentialMerchantOf, credentialOf } from '../plugins/authentication.js';
import { callAttributionOf } from './call-attribution.js';

/** The gateway use cases' caller from the request's credential (the guard has checked it). */
export function gatewayCallerOf(request: FastifyRequest): GatewayCaller {
  const credential = credentialOf(request);
  return {
    merchantId: credentialMerchantOf(request),
    apiKeyPolicy: credential.kind === 'api_key' ? (credential.policy ?? {}) : undefined,
    attribution: callAttributionOf(request, 'gateway'),
  };
}
