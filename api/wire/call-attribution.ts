import type { FastifyRequest } from 'fastify';
import type { CallAttribution, CallSurface } from '../../src/generation/llm-call-record.js';
import type { LlmCallApi } from '../../src/ports/llm-call-api.js';
import { endUserHeader, endUserOf } from '../../src/governance/end-user.js';
import { credentialMerchantOf, credentialOf } from '../plugins/authentication.js';

/** The end user the request names (header or body), whose per-end-user limits and spend it counts in. */
export function requestEndUser(request: FastifyRequest): string | undefined {
  return endUserOf(request.headers[endUserHeader], request.body);
}

/**
 * Who a model call is made for, from the request's credential: its merchant, the session's user
 * or the API key (whose limits count the call), the end user the request names, this request, and
 * the API it came through (when the surface alone does not say: the gateway's routes name theirs).
 */
export function callAttributionOf(request: FastifyRequest, surface: CallSurface, api?: LlmCallApi): CallAttribution {
  const credential = credentialOf(request);
  const endUser = requestEndUser(request);
  return {
    merchantId: credentialMerchantOf(request),
    ...(credential.kind === 'session' ? { userId: credential.claims.userId } : { apiKeyId: credential.keyId, ...credential.batchLine }),
    ...(endUser !== undefined ? { endUser } : {}),
    requestId: request.id,
    surface,
    ...(api !== undefined ? { api } : {}),
  };
}
