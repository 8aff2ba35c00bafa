/**
 * The provider kinds of the toolkit interface (eleven) plus `openai-compatible`, in the order
 * `createBestAIProvider('auto')` tries them (see `autoSelectionOrder`).
 *
 * @remarks Kept in the port because stored records name a provider kind (a batch's pinned
 * provider, a route group's candidates); src/generation/provider-name.ts re-exports it beside the
 * alias resolution, which is the toolkit's business, not the store's.
 */
export const providerNames = [
  'openai',
  'anthropic',
  'google-ai',
  'vertex',
  'bedrock',
  'azure',
  'mistral',
  'huggingface',
  'litellm',
  'openai-compatible',
  'sagemaker',
  'ollama',
] as const;

export type ProviderName = (typeof providerNames)[number];
