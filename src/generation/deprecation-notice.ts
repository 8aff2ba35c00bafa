/** Where deprecation warnings go; defaults to Node's `process.emitWarning`-free `console.warn`. */
export type WarningSink = (message: string) => void;

/**
 * Emits each deprecation message at most once for the lifetime of this notice. The library
 * shares one notice per process (`processDeprecationNotice`) so a loop calling `generate` with
 * `prompt` warns once, not once per call. Suppressed entirely when constructed with `suppressed`.
 */
export class DeprecationNotice {
  private readonly seen = new Set<string>();
  constructor(
    private readonly sink: WarningSink = (message) => console.warn(message),
    private suppressed = false,
  ) {}

  /** Env `SWITCHYARD_SUPPRESS_DEPRECATION` / `NEUROLINK_SUPPRESS_DEPRECATION` turns warnings off. */
  suppress(value: boolean): void {
    this.suppressed = value;
  }

  warn(key: string, message: string): void {
    if (this.suppressed || this.seen.has(key)) return;
    this.seen.add(key);
    this.sink(message);
  }
}

/** The process-wide notice used by `NeuroLink` and the factories unless one is injected. */
export const processDeprecationNotice = new DeprecationNotice();
