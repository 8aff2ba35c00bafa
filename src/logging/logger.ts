/**
 * The logging surface the domain sees. It is pino's shape, so the root pino logger built in an
 * entry point satisfies it, but the domain never imports pino.
 * Messages are fixed strings; variables go in the object (`log.info({ merchantId }, 'merchant created')`).
 */
export interface Logger {
  debug(object: object, message?: string): void;
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that drops everything; for unit tests and library callers that pass none. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
