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
}

/** One call being observed: a span plus the metrics recorded when it ends. */
export interface CallObservation {
  end(outcome: CallOutcome): void;
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
}

const noObservation: CallObservation = { end: () => undefined };

export const noTelemetry: GenerationTelemetry = {
  enabled: false,
  startCall: () => noObservation,
};
