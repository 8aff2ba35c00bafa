import type { ProviderStatus, ProviderStatusOptions } from './provider-status.js';

export interface ProviderStatusProbeOptions {
  /** How long one round of probes answers every caller; default 60 s. */
  readonly ttlMs?: number;
  /** Providers probed at once; default 4. */
  readonly concurrency?: number;
  /** Per-probe limit in ms; default 5000. */
  readonly timeoutMs?: number;
  /** Clock in ms (tests); default `Date.now`. */
  readonly now?: () => number;
}

/** One round of probes as every caller within its TTL sees it. */
export interface ProbedProviderStatus {
  readonly statuses: readonly ProviderStatus[];
  /** When the round started (ms since the epoch). */
  readonly checkedAt: number;
  readonly ttlMs: number;
  /** True when this answer was a stored round (no provider was called for it). */
  readonly cached: boolean;
}

export const defaultProbeTtlMs = 60_000;
export const defaultProbeConcurrency = 4;
export const defaultProbeTimeoutMs = 5000;

/**
 * Live provider status for a status endpoint that anyone may poll: each configured provider gets
 * a 1-token probe (the cheapest call every provider kind answers), at most `concurrency` at once,
 * each cut at `timeoutMs`; the round is kept for `ttlMs`, and callers arriving while a round runs
 * share it. So a dashboard refreshing every second costs one round per TTL, not one per refresh.
 */
export class ProviderStatusProbe {
  private readonly ttlMs: number;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private stored: Omit<ProbedProviderStatus, 'cached'> | undefined;
  private running: Promise<Omit<ProbedProviderStatus, 'cached'>> | undefined;

  constructor(
    private readonly source: { getProviderStatus(options: ProviderStatusOptions): Promise<ProviderStatus[]> },
    options: ProviderStatusProbeOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? defaultProbeTtlMs;
    this.concurrency = Math.max(1, options.concurrency ?? defaultProbeConcurrency);
    this.timeoutMs = options.timeoutMs ?? defaultProbeTimeoutMs;
    this.now = options.now ?? Date.now;
  }

  async status(): Promise<ProbedProviderStatus> {
    const stored = this.stored;
    if (stored !== undefined && this.now() - stored.checkedAt < this.ttlMs) return { ...stored, cached: true };
    const joined = this.running !== undefined;
    this.running ??= this.round().finally(() => {
      this.running = undefined;
    });
    return { ...(await this.running), cached: joined };
  }

  private async round(): Promise<Omit<ProbedProviderStatus, 'cached'>> {
    const checkedAt = this.now();
    const statuses = await this.source.getProviderStatus({ probe: true, concurrency: this.concurrency, timeoutMs: this.timeoutMs });
    this.stored = { statuses, checkedAt, ttlMs: this.ttlMs };
    return this.stored;
  }
}
