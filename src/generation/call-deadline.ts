import { TimeoutError } from './errors/provider-errors.js';

/**
 * One call's cancellation: the caller's `abortSignal` combined with the `timeout` option, as a
 * single `AbortSignal` handed to the client, plus `race` for clients that ignore the signal.
 * A timeout surfaces as `TimeoutError` (retryable: a fallback chain moves on); a caller's abort as
 * the signal's own reason (not retryable).
 */
export class CallDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly aborted: Promise<never>;
  private timedOut = false;

  constructor(
    private readonly timeoutMs: number | undefined,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly provider: string,
    private readonly operation: 'generate' | 'stream' | 'embed',
  ) {
    this.signal = callerSignal === undefined ? this.controller.signal : AbortSignal.any([this.controller.signal, callerSignal]);
    this.aborted = new Promise<never>((_, reject) => {
      const onAbort = (): void => reject(this.mapError(this.signal.reason));
      if (this.signal.aborted) onAbort();
      else this.signal.addEventListener('abort', onAbort, { once: true });
    });
    // The rejection is delivered through `race`; this handler only stops an unraced deadline from
    // being reported as an unhandled rejection.
    this.aborted.catch(() => undefined);
    if (timeoutMs !== undefined && !this.signal.aborted) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort(this.timeoutError());
      }, timeoutMs);
    }
  }

  /** Settles with `work`, or rejects as soon as the deadline passes or the caller aborts. */
  race<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.aborted]);
  }

  /** What an error thrown during the call means once the deadline's own state is known. */
  mapError(error: unknown): unknown {
    if (this.timedOut) return error instanceof TimeoutError ? error : this.timeoutError(error);
    if (this.callerSignal?.aborted) return this.callerSignal.reason ?? new DOMException('The operation was aborted', 'AbortError');
    // A provider-side timeout (a 408, the SDK's own timer) knows no deadline: it carries this call's.
    if (error instanceof TimeoutError && error.timeout === 0 && this.timeoutMs !== undefined) {
      return new TimeoutError(
        `${error.message} (the call's timeout is ${this.timeoutMs} ms)`,
        error.provider,
        this.timeoutMs,
        error.operation ?? this.operation,
        {
          originalError: error.originalError ?? error,
          ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
        },
      );
    }
    return error;
  }

  /** Stops the underlying request (the consumer left a stream early). */
  cancel(reason: unknown): void {
    this.controller.abort(reason);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  private timeoutError(cause?: unknown): TimeoutError {
    return new TimeoutError(
      `${this.operation} with ${this.provider} timed out after ${this.timeoutMs} ms`,
      this.provider,
      this.timeoutMs ?? 0,
      this.operation,
      cause === undefined ? {} : { originalError: cause },
    );
  }
}
