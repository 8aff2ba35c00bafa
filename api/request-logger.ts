import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, LogFn } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** fastify's logger type with what pino adds and this file reads (the root logger is pino's). */
type ParentLogger = FastifyBaseLogger & { isLevelEnabled?(level: LevelWithSilentOrString): boolean; readonly msgPrefix?: string | undefined };

/**
 * `request.log` created when the request first logs, not for every request: fastify makes a pino
 * child with the request id for each request, and pino serialises its bindings and builds its
 * formatters at once, which costs more per decision than most of the decision's own steps, while
 * almost no request logs anything (request logging is off; refusals and errors log). A method of a
 * level the root logger has off returns at once without making the child; anything else (a line
 * to write, `child`, a level change) makes the real child first, so what is written is the same.
 */
class DeferredChildLogger implements FastifyBaseLogger {
  #child: ParentLogger | undefined;
  readonly #parent: ParentLogger;
  readonly #bindings: Bindings;

  constructor(parent: ParentLogger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #real(): ParentLogger {
    this.#child ??= this.#parent.child(this.#bindings) as ParentLogger;
    return this.#child;
  }

  #write(level: Level, args: Parameters<LogFn>): void {
    if (this.#child === undefined && this.#parent.isLevelEnabled?.(level) === false) return;
    (this.#real()[level] as (...line: Parameters<LogFn>) => void)(...args);
  }

  get level(): LevelWithSilentOrString {
    return (this.#child ?? this.#parent).level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#real().level = level;
  }

  get msgPrefix(): string | undefined {
    return (this.#child ?? this.#parent).msgPrefix;
  }

  // Methods on the prototype, not per-instance closures: one object per request, nothing else.
  fatal(...args: Parameters<LogFn>): void {
    this.#write('fatal', args);
  }
  error(...args: Parameters<LogFn>): void {
    this.#write('error', args);
  }
  warn(...args: Parameters<LogFn>): void {
    this.#write('warn', args);
  }
  info(...args: Parameters<LogFn>): void {
    this.#write('info', args);
  }
  debug(...args: Parameters<LogFn>): void {
    this.#write('debug', args);
  }
  trace(...args: Parameters<LogFn>): void {
    this.#write('trace', args);
  }
  silent(): void {
    // pino's `silent` level writes nothing.
  }

  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled?.(level) ?? true;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  /** The real child, for what reads pino internals (bindings, flush). */
  bindings(): Bindings {
    return (this.#real() as FastifyBaseLogger & { bindings(): Bindings }).bindings();
  }
}

/**
 * fastify's `childLoggerFactory`: the per-request logger above, or a real child at once when the
 * route sets its own log level or serializers (fastify passes them as options).
 */
export function deferredChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new DeferredChildLogger(logger, bindings);
}
