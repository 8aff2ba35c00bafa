import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../src/errors/codes.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import { ClientGone } from '../wire/client-gone.js';
import { deciderError, deciderParseError } from '../wire/decider-error-envelope.js';
import { describeValidationError } from '../wire/describe-validation-error.js';
import { generationHttpError, type GenerationHttpError } from '../wire/generation-error.js';
import { genericError } from '../wire/generic-error-envelope.js';
import { jsonRpcError } from '../wire/jsonrpc-error.js';
import { anthropicCodedError, anthropicError, anthropicGenerationError, anthropicServerError, anthropicValidationError } from '../wire/anthropic-error.js';
import { openAiCodedError, openAiError, openAiGenerationError, openAiServerError, openAiValidationError } from '../wire/openai-error.js';

/**
 * Which error shape a route answers with (set as route `config.envelope`): a 1.4.x envelope
 * (`decider`, `generic`), OpenAI's `{error:{…}}` on the LLM gateway's `/v1/*` routes, or
 * Anthropic's `{type:"error",error:{…}}` on `/v1/messages*`, a JSON-RPC error on the MCP gateway
 * (`/mcp`). The status of a code is the same whichever shape carries it.
 */
export type EnvelopeKind = 'decider' | 'generic' | 'openai' | 'anthropic' | 'jsonrpc';

declare module 'fastify' {
  interface FastifyContextConfig {
    envelope?: EnvelopeKind;
    /** Decider routes: the `error_message` of a body that does not parse (default "Error parsing request"). */
    deciderParseMessage?: string;
    /**
     * 'json': a body that fails its schema answers 1.4.x's 422 and message in the JSON envelope
     * (TE_03) instead of text/plain; for routes 1.4.x does not have, whose clients read `code`.
     */
    bodyErrors?: 'json';
  }
}

type Wire =
  | { readonly kind: 'generic'; readonly status: number; readonly code: string }
  | { readonly kind: 'text'; readonly status: number }
  | { readonly kind: 'decider'; readonly status: 400; readonly infoCode: string; readonly errorCode: string; readonly statusText: string };

/**
 * The one table from our error codes to HTTP statuses and 1.4.x envelopes. The message sent is the
 * error's own message (routes set the exact compatibility string when they throw).
 */
const wireOf: Readonly<Record<ErrorCode, Wire>> = {
  SY_CONFIG_INVALID: { kind: 'generic', status: 500, code: 'TE_00' },
  SY_REQUEST_INVALID: { kind: 'generic', status: 400, code: 'TE_03' },
  SY_MERCHANT_NOT_FOUND: { kind: 'generic', status: 404, code: 'TE_04' },
  SY_MERCHANT_EXISTS: { kind: 'generic', status: 400, code: 'TE_04' },
  SY_RULE_CONFIG_EXISTS: { kind: 'generic', status: 400, code: 'TE_04' },
  SY_SR_DIMENSION_INVALID: { kind: 'generic', status: 400, code: 'TE_04' },
  SY_RULE_CONFIG_NOT_FOUND: { kind: 'generic', status: 404, code: 'TE_04' },
  SY_ROUTING_RULE_REJECTED: { kind: 'generic', status: 400, code: 'TE_04' },
  SY_ROUTING_GATEWAY_NOT_FOUND: {
    kind: 'decider',
    status: 400,
    infoCode: 'GATEWAY_NOT_FOUND',
    errorCode: 'invalid_request_error',
    statusText: 'Invalid Request',
  },
  SY_ROUTING_DEBIT_DISABLED: { kind: 'decider', status: 400, infoCode: 'TE_05', errorCode: 'debit_routing_not_enabled', statusText: 'Forbidden' },
  SY_ROUTING_COBADGE_NOT_FOUND: {
    kind: 'decider',
    status: 400,
    infoCode: 'CO_BADGED_NETWORK_NOT_FOUND',
    errorCode: 'invalid_request_error',
    statusText: 'Invalid Request',
  },
  SY_ROUTING_INVALID_INPUT: { kind: 'decider', status: 400, infoCode: 'INVALID_INPUT', errorCode: '400', statusText: '400' },
  SY_AUTH_MISSING_CREDENTIALS: { kind: 'text', status: 401 },
  SY_AUTH_INVALID_TOKEN: { kind: 'text', status: 401 },
  SY_AUTH_INVALID_API_KEY: { kind: 'text', status: 401 },
  SY_AUTH_REVOKED_API_KEY: { kind: 'text', status: 401 },
  SY_AUTH_INVALID_ADMIN_SECRET: { kind: 'generic', status: 401, code: 'TE_04' },
  SY_AUTH_FORBIDDEN_MERCHANT: { kind: 'text', status: 403 },
  SY_AUTH_UNSUPPORTED_SESSION: { kind: 'generic', status: 403, code: 'TE_04' },
  SY_AUTH_NOT_SUPER_ADMIN: { kind: 'generic', status: 403, code: 'TE_04' },
  SY_AUTH_INVALID_SSO_CODE: { kind: 'generic', status: 401, code: 'TE_04' },
  SY_AUTH_FORBIDDEN_ROLE: { kind: 'text', status: 403 },
  SY_STATE_UNAVAILABLE: { kind: 'generic', status: 503, code: 'TE_01' },
  SY_BUS_UNAVAILABLE: { kind: 'generic', status: 503, code: 'TE_00' },
  SY_ANALYTICS_UNAVAILABLE: { kind: 'generic', status: 500, code: 'TE_01' },
  SY_EVENT_INVALID: { kind: 'generic', status: 500, code: 'TE_00' },
  SY_SHUTTING_DOWN: { kind: 'generic', status: 503, code: 'TE_00' },
  SY_QUEUE_UNAVAILABLE: { kind: 'generic', status: 503, code: 'TE_01' },
  SY_BATCH_INVALID: { kind: 'generic', status: 400, code: 'TE_03' },
  SY_BATCH_NOT_FOUND: { kind: 'generic', status: 404, code: 'TE_04' },
  SY_FILE_INVALID: { kind: 'generic', status: 400, code: 'TE_03' },
  SY_FILE_TOO_LARGE: { kind: 'generic', status: 413, code: 'TE_03' },
  SY_FILE_NOT_FOUND: { kind: 'generic', status: 404, code: 'TE_04' },
  SY_FILE_STORE_UNAVAILABLE: { kind: 'generic', status: 503, code: 'TE_01' },
  SY_EXPERIMENT_NOT_FOUND: { kind: 'generic', status: 404, code: 'TE_04' },
  SY_VOLUME_CONTRACT_NOT_FOUND: { kind: 'generic', status: 404, code: 'TE_04' },
  SY_VOLUME_FORECAST_UNAVAILABLE: { kind: 'generic', status: 503, code: 'TE_01' },
  SY_MODEL_NOT_FOUND: { kind: 'generic', status: 404, code: 'TE_04' },
  SY_GATEWAY_REQUEST_UNSUPPORTED: { kind: 'generic', status: 400, code: 'TE_03' },
  SY_RESPONSE_NOT_FOUND: { kind: 'generic', status: 404, code: 'TE_04' },
  SY_PREVIOUS_RESPONSE_NOT_FOUND: { kind: 'generic', status: 400, code: 'TE_03' },
  SY_PROVIDER_CREDENTIALS_UNCONFIGURED: { kind: 'generic', status: 503, code: 'TE_01' },
  SY_PROVIDER_CREDENTIAL_NOT_FOUND: { kind: 'generic', status: 404, code: 'TE_04' },
  SY_KEY_LIMIT_EXCEEDED: { kind: 'generic', status: 429, code: 'TE_04' },
  SY_GUARDRAIL_BLOCKED: { kind: 'generic', status: 400, code: 'TE_03' },
  SY_GUARDRAIL_INVALID: { kind: 'generic', status: 400, code: 'TE_03' },
  SY_INTERNAL: { kind: 'generic', status: 500, code: 'TE_00' },
};

export function statusOf(code: ErrorCode): number {
  return wireOf[code].status;
}

/** Our final refusals: a retry cannot succeed before the limit renews, so clients are told not to retry. */
function isFinalRefusal(error: SwitchyardError): boolean {
  return error.code === 'SY_KEY_LIMIT_EXCEEDED';
}

function sendSwitchyardError(error: SwitchyardError, request: FastifyRequest, reply: FastifyReply, envelope: EnvelopeKind): FastifyReply {
  const wire = wireOf[error.code];
  const log = wire.status >= 500 ? request.log.error.bind(request.log) : request.log.info.bind(request.log);
  log({ err: error, code: error.code }, wire.status >= 500 ? 'request failed' : 'request rejected');
  reply.code(wire.status);
  const retryAfterS = error.details?.['retryAfterS'];
  if (typeof retryAfterS === 'number') void reply.header('retry-after', String(retryAfterS));
  // Both official LLM SDKs retry a 429 twice unless told not to; a key's own limit will not lift by then.
  if ((envelope === 'openai' || envelope === 'anthropic') && isFinalRefusal(error)) void reply.header('x-should-retry', 'false');
  if (envelope === 'openai') return reply.send(openAiCodedError(error, wire.status));
  if (envelope === 'anthropic') return reply.send(anthropicCodedError(error, wire.status));
  if (envelope === 'jsonrpc') {
    // RFC 6750: a 401 names the scheme it wants (an MCP client configured with a key header sends it).
    if (wire.status === 401) void reply.header('www-authenticate', 'Bearer realm="switchyard"');
    const internal = wire.status >= 500 && error.code === 'SY_INTERNAL';
    return reply.send(jsonRpcError(internal ? -32603 : -32000, internal ? 'Something went wrong' : error.message));
  }
  switch (wire.kind) {
    case 'text':
      return reply.type('text/plain; charset=utf-8').send(error.message);
    case 'decider':
      return reply.send(
        deciderError({
          status: wire.statusText,
          errorCode: wire.errorCode,
          message: error.message,
          infoCode: wire.infoCode,
          developerMessage: String(error.details?.['developerMessage'] ?? error.message),
        }),
      );
    case 'generic':
      return reply.send(genericError(wire.code, wire.status >= 500 && error.code === 'SY_INTERNAL' ? 'Something went wrong' : error.message));
  }
}

/** A toolkit error: its status (api/wire/generation-error.ts) and the route's body shape. */
function sendGenerationError(generation: GenerationHttpError, request: FastifyRequest, reply: FastifyReply, envelope: EnvelopeKind): FastifyReply {
  const log = generation.status >= 500 ? request.log.warn.bind(request.log) : request.log.info.bind(request.log);
  log({ code: generation.body.code, provider: generation.body.provider, status: generation.status }, 'generation request failed');
  if (generation.body.retryAfter !== undefined) void reply.header('retry-after', String(Math.ceil(generation.body.retryAfter)));
  if (envelope === 'anthropic') return reply.code(generation.status).send(anthropicGenerationError(generation.body, generation.status));
  return reply.code(generation.status).send(envelope === 'openai' ? openAiGenerationError(generation.body) : generation.body);
}

function sendValidationError(error: FastifyError, request: FastifyRequest, reply: FastifyReply, envelope: EnvelopeKind): FastifyReply {
  const problem = describeValidationError(error.validation ?? [], error.validationContext);
  request.log.info({ problem }, 'request failed validation');
  if (envelope === 'openai') return reply.code(400).send(openAiValidationError(problem));
  if (envelope === 'anthropic') return reply.code(400).send(anthropicValidationError(problem));
  if (envelope === 'jsonrpc') return reply.code(400).send(jsonRpcError(-32000, `Invalid request: ${problem}`));
  if (envelope === 'decider') return reply.code(400).send(deciderParseError(problem, request.routeOptions.config.deciderParseMessage));
  // 1.4.x answers shape errors of JSON bodies with 422 and this text.
  if (error.validationContext === 'body') {
    const message = `Failed to deserialize the JSON body into the target type: ${problem}`;
    if (request.routeOptions.config.bodyErrors === 'json') return reply.code(422).send(genericError('TE_03', message));
    return reply.code(422).type('text/plain; charset=utf-8').send(message);
  }
  return reply.code(400).send(genericError('TE_03', `Invalid request: ${problem}`));
}

/** fastify's own 4xx (content type, JSON syntax, body size): the client's mistake, in the route's shape. */
function sendClientError(error: FastifyError, status: number, request: FastifyRequest, reply: FastifyReply, envelope: EnvelopeKind): FastifyReply {
  request.log.info({ err: error }, 'request rejected');
  if (envelope === 'openai') return reply.code(status).send(openAiError(error.message, 'invalid_request_error'));
  if (envelope === 'anthropic') return reply.code(status).send(anthropicError(status === 413 ? 'request_too_large' : 'invalid_request_error', error.message));
  if (envelope === 'jsonrpc') {
    const notJson = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError;
    return reply.code(status).send(jsonRpcError(notJson ? -32700 : -32000, notJson ? `Parse error: ${error.message}` : error.message));
  }
  if (envelope === 'decider') return reply.code(400).send(deciderParseError(error.message, request.routeOptions.config.deciderParseMessage));
  // 1.4.x's messages, in the JSON envelope every other refusal of these routes uses (1.4.x's axum
  // extractors answer them as text/plain, which a client reading `code` cannot parse).
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return reply.code(415).send(genericError('TE_03', 'Expected request with `Content-Type: application/json`'));
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
    return reply.code(400).send(genericError('TE_03', `Failed to parse the request body as JSON: ${error.message}`));
  }
  return reply.code(status).send(genericError('TE_03', error.message));
}

/**
 * Maps every error to a status and the route's envelope (1.4.x, or OpenAI's on `/v1/*`). The only
 * place that does so. Client mistakes (schema, JSON syntax, content type, size) are 4xx and logged
 * at info; only our own failures are 5xx and logged at error.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const envelope = request.routeOptions.config.envelope ?? 'generic';
    if ((error as unknown) instanceof ClientGone) {
      request.log.info('gateway call cancelled: the client went away');
      // nginx's "client closed request"; nobody reads it.
      const gone = 'client closed request';
      if (envelope === 'anthropic') return reply.code(499).send(anthropicError('invalid_request_error', gone));
      return reply.code(499).send(envelope === 'openai' ? openAiError(gone, 'invalid_request_error') : genericError('TE_03', gone));
    }
    if (SwitchyardError.isInstance(error)) return sendSwitchyardError(error, request, reply, envelope);
    const generation = generationHttpError(error);
    if (generation !== undefined) return sendGenerationError(generation, request, reply, envelope);
    if (error.validation !== undefined) return sendValidationError(error, request, reply, envelope);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendClientError(error, status, request, reply, envelope);
    request.log.error({ err: error }, 'request failed');
    if (envelope === 'anthropic') return reply.code(500).send(anthropicServerError());
    if (envelope === 'jsonrpc') return reply.code(500).send(jsonRpcError(-32603, 'Something went wrong'));
    return reply.code(500).send(envelope === 'openai' ? openAiServerError() : genericError('TE_00', 'Something went wrong'));
  });

  app.setNotFoundHandler((request, reply) => {
    request.log.info({ url: request.url, method: request.method }, 'route not found');
    return reply.code(404).send(genericError('TE_02', `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });
}
