import type { GenerateOptions } from '../generation/generate-options.js';
import type { InputEstimate } from '../generation/input-estimate.js';
import { DEFAULT_MAX_TOKENS } from '../generation/normalize-options.js';
import { reservationUsd } from '../governance/reservation.js';
import type { ModelRegistryView } from './model-registry-view.js';

/** The toolkit as a reservation needs it (NeuroLink). */
export interface ReservingToolkit {
  readonly modelRegistry: ModelRegistryView | undefined;
  estimateInput(options: GenerateOptions): Promise<InputEstimate>;
}

/**
 * The most a toolkit call (`/api/generate`, `/api/stream`, a WebSocket chat turn) can cost, held
 * against its key's budget while it runs: the whole input it will send (prompt, remembered history,
 * documents' text) and every output token `maxTokens` allows, plus memory's summarising call when the
 * session's history is over budget. 0 for an unpriced (or unnamed) model.
 */
export async function toolkitReservationUsd(toolkit: ReservingToolkit, options: GenerateOptions): Promise<number> {
  const priceOf = (model: string | undefined) => (model === undefined ? undefined : toolkit.modelRegistry?.getModelConfig(model)?.pricing);
  const estimate = await toolkit.estimateInput(options);
  const call = reservationUsd([priceOf(options.model)], estimate.characters, options.maxTokens ?? DEFAULT_MAX_TOKENS);
  const summary = estimate.summaryCall;
  if (summary === undefined) return call;
  return call + reservationUsd([priceOf(summary.model ?? options.model)], summary.characters, summary.maxTokens);
}
