import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { genericError } from '../wire/generic-error-envelope.js';

/**
 * Router limits, so that a path parameter's own schema (its `maxLength`) decides, with a 400 in the
 * generic envelope like any other invalid parameter. The router's default limit (100 characters)
 * refused with its own 414 body long before that, even values the schema accepts (ids of up to 255
 * characters); 8,192 covers the longest schema limit percent-encoded (4 UTF-8 bytes a character, 3
 * characters a byte), and a URL is bounded by the header size anyway.
 */
const maxParamLength = 8192;

/**
 * The router's own refusals (a malformed percent-encoding, a segment past the limit above) in the
 * generic envelope, not fastify's `{error, code, statusCode}` body. They are answered before any
 * route or hook runs; the path is not echoed (it may be kilobytes).
 */
function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  request.log.info({ code: error.code }, 'request rejected');
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  return reply
    .code(tooLong ? 414 : 400)
    .send(
      genericError(
        'TE_03',
        tooLong ? `Invalid request: a path parameter is longer than ${maxParamLength} characters` : 'Invalid request: the URL is not valid',
      ),
    );
}

/** Spread into the `Fastify({...})` options of api/app.ts. */
export const pathLimitOptions: Pick<FastifyServerOptions, 'routerOptions' | 'frameworkErrors'> = {
  routerOptions: { maxParamLength },
  frameworkErrors: answerRouterError,
};
