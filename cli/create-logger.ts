import pino, { type Logger as PinoLogger } from 'pino';
import type { Config } from '../src/config/load-config.js';
import { redactPaths } from '../src/logging/redact-paths.js';

/** The one root logger of a process, with the shared redact list. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): PinoLogger {
  return pino({ level: config.logLevel, redact: { paths: [...redactPaths], censor: '[redacted]' } }, destination);
}
