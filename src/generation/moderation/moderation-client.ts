import type { ModerationVerdict } from '../../guardrails/run-guard-checks.js';

/**
 * A provider's moderation endpoint (OpenAI's `POST /v1/moderations`): one verdict per text, in order.
 * Throws when the provider refuses or fails; the guard decides whether that fails open or closed.
 */
export interface ModerationClient {
  readonly provider: string;
  readonly modelId: string;
  moderate(texts: readonly string[], options?: { readonly abortSignal?: AbortSignal }): Promise<readonly ModerationVerdict[]>;
}
