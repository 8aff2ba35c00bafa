import pino, { type Logger as PinoLogger } from 'pino';
import type { Config } from '../src/config/load-config.js';
import { redactPaths } from '../src/logging/redact-paths.js';
import { serializeRequest } from '../src/logging/redact-url.js';

/**
 * The one root logger of a process, with the shared redact list. Its `req` serializer replaces
 * fastify's (same fields) so that a request log line never shows a secret query value, such as
 * the one-time token of `GET /auth/verify-email?token=…`.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): PinoLogger {
  return pino({ level: config.logLevel, redact: { paths: [...redactPaths], censor: '[redacted]' }, serializers: { req: serializeRequest } }, destination);
}
