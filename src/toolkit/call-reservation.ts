import type { GenerateOptions } from '../generation/generate-options.js';
import type { InputEstimate } from '../generation/input-estimate.js';
import { DEFAULT_MAX_TOKENS } from '../generation/normalize-options.js';
import { reservationUsd } from '../governance/reservation.js';
import type { ModelRegistryView } from './model-registry-view.js';

/** The toolkit as a reservation needs it (NeuroLink). */
export interface ReservingToolkit {
  readonly modelRegistry: ModelRegistryView | undefined;
  estimateInput(options: GenerateOptions): Promise<InputEstimate>;
  candidateModels(options: { readonly provider?: string | undefined; readonly model?: string | undefined }): readonly string[];
}

/**
 * The most a toolkit call (`/api/generate`, `/api/stream`, a WebSocket chat turn) can cost, held
 * against its key's budget while it runs: the whole input it will send (prompt, remembered history,
 * documents' text) and every output token `maxTokens` allows, plus memory's summarising call when the
 * session's history is over budget. A call is priced at the dearest model it can land on: the one it
 * names, or, when it names none, each provider default of its plan (the fallbacks included). 0 when
 * none of them is priced.
 */
export async function toolkitReservationUsd(toolkit: ReservingToolkit, options: GenerateOptions): Promise<number> {
  const pricesOf = (models: readonly string[]) => models.map((model) => toolkit.modelRegistry?.getModelConfig(model)?.pricing);
  const models = toolkit.candidateModels({ provider: options.provider, model: options.model });
  const estimate = await toolkit.estimateInput(options);
  const call = reservationUsd(pricesOf(models), estimate.characters, options.maxTokens ?? DEFAULT_MAX_TOKENS);
  const summary = estimate.summaryCall;
  if (summary === undefined) return call;
  const summaryModels = summary.model !== undefined ? toolkit.candidateModels({ provider: options.provider, model: summary.model }) : models;
  return call + reservationUsd(pricesOf(summaryModels), summary.characters, summary.maxTokens);
}
