import type { GenerateOptions } from '../generate-options.js';
import type { GenerateResult } from '../generate-result.js';
import type { ProviderSelection } from '../select-provider.js';

/**
 * What batches need from the toolkit: the `NeuroLink` of the process satisfies it (its `onCall`
 * turns every call into an `llm.call` record carrying the batch attribution).
 */
export interface BatchModels {
  generate(options: GenerateOptions): Promise<GenerateResult>;
  /** Which provider a call naming `requested` (or none) would use; throws when none is usable. Offline. */
  getProviderSelection(requested?: string): ProviderSelection;
}
