import type { TokenUsage } from './language-model-client.js';

export type CallOperation = 'generate' | 'stream' | 'embed' | 'evaluate' | 'tool';

/** How one observed call ended. */
export interface CallOutcome {
  readonly ok: boolean;
  /** The model that answered (may differ from the one asked for). */
  readonly model?: string;
  readonly usage?: TokenUsage;
  /** `GenerationErrorCode` (or the error name) when `ok` is false. */
  readonly errorCode?: string;
  readonly latencyMs: number;
  /** Why the model stopped (`stop`, `length`, `tool-calls`, …), when it answered. */
  readonly finishReason?: string;
}

/** One call being observed: a span plus the metrics recorded when it ends. */
export interface CallObservation {
  end(outcome: CallOutcome): void;
  /**
   * Runs `work` with this call as the current one, so what it does (tool executions) is observed
   * as part of it (child spans). Optional: observations that do not nest leave it out.
   */
  within?<T>(work: () => T): T;
}

/** Runs `work` inside `observation` when it nests, else just runs it. */
export function withinObservation<T>(observation: CallObservation | undefined, work: () => T): T {
  return observation?.within === undefined ? work() : observation.within(work);
}

/** The operations a fallback chain runs: each provider attempt is one of these. */
export type ChainOperation = 'generate' | 'stream' | 'embed';

/**
 * One model call as its caller sees it: every provider attempt of one fallback chain. What its
 * `telemetry` observes for the chain's operation are attempts of this call (one span over retries,
 * named and attributed after the attempt that ended it); the call ends when an attempt succeeds and
 * ends, when `fail` is called, or when an attempt fails after `succeeded` (a stream broken after its
 * first chunk). Tool and judge observations made through it are their own calls, as without a chain.
 */
export interface ChainObservation {
  readonly telemetry: GenerationTelemetry;
  /** The chain found a provider (for a stream: its first chunk came): a later failure ends the call. */
  succeeded(): void;
  /** The chain failed as a whole (every provider, or a failure no other provider could mend). */
  fail(errorCode: string): void;
}

/**
 * The telemetry port of the generation domain. The OpenTelemetry adapter
 * (`src/adapters/telemetry/otel-telemetry.ts`) implements it; `noTelemetry` is the default.
 *
 * @remarks Callers check `enabled` before `startCall` and use `observation?.end({...})`, so when
 * telemetry is off no span is created and not even the attribute objects are built.
 */
export interface GenerationTelemetry {
  readonly enabled: boolean;
  startCall(operation: CallOperation, provider: string, model: string): CallObservation;
  /**
   * Optional: observe the provider attempts of one fallback chain as one call. Without it each
   * attempt is observed as a call of its own.
   */
  startChain?(operation: ChainOperation): ChainObservation;
}

const noObservation: CallObservation = { end: () => undefined };

export const noTelemetry: GenerationTelemetry = {
  enabled: false,
  startCall: () => noObservation,
};
