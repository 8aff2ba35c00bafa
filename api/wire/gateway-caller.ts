import type { FastifyRequest } from 'fastify';
import type { GatewayCaller } from '../../src/generation/gateway/gateway-caller.js';
import type { Logger } from '../../src/logging/logger.js';
import type { LlmCallApi } from '../../src/ports/llm-call-api.js';
import { credentialMerchantOf, credentialOf } from '../plugins/authentication.js';
import { callAttributionOf } from './call-attribution.js';

/** The gateway use cases' caller from the request's credential (the guard has checked it); `api` is the route's, recorded on its llm.call events. */
export function gatewayCallerOf(request: FastifyRequest, api: LlmCallApi): GatewayCaller {
  const credential = credentialOf(request);
  return {
    merchantId: credentialMerchantOf(request),
    apiKeyPolicy: credential.kind === 'api_key' ? (credential.policy ?? {}) : undefined,
    attribution: callAttributionOf(request, 'gateway', api),
  };
}

/** What every gateway generation call takes from its request, whatever its wire: the caller, Cache-Control, cancellation and the request's logger. */
export function gatewayCallContext(
  request: FastifyRequest,
  signal: AbortSignal,
  api: LlmCallApi,
): { readonly caller: GatewayCaller; readonly cacheControl: string | readonly string[] | undefined; readonly signal: AbortSignal; readonly log: Logger } {
  return { caller: gatewayCallerOf(request, api), cacheControl: request.headers['cache-control'], signal, log: request.log };
}
