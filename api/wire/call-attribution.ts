import type { FastifyRequest } from 'fastify';
import type { CallAttribution, CallSurface } from '../../src/generation/llm-call-record.js';
import { credentialMerchantOf, credentialOf } from '../plugins/authentication.js';

/**
 * Who a model call is made for, from the request's credential: its merchant, the session's user
 * or the API key (whose limits count the call), and this request.
 */
export function callAttributionOf(request: FastifyRequest, surface: CallSurface): CallAttribution {
  const credential = credentialOf(request);
  return {
    merchantId: credentialMerchantOf(request),
    ...(credential.kind === 'session' ? { userId: credential.claims.userId } : { apiKeyId: credential.keyId }),
    requestId: request.id,
    surface,
  };
}
