import { providerNames, type ProviderName } from '../ports/state/provider-name.js';

// The kinds themselves are a stored vocabulary (batches and route groups name them), so they live in the port.
export { providerNames, type ProviderName };

/** What callers may pass where a provider is expected: a kind, one of its aliases, or `auto`. */
export type AIProviderName = ProviderName | 'auto';

/** Aliases NeuroLink's factory accepts (reference §1.2), lower-cased. */
const aliases: Readonly<Record<string, ProviderName>> = {
  googleaistudio: 'google-ai',
  google: 'google-ai',
  gemini: 'google-ai',
  gpt: 'openai',
  chatgpt: 'openai',
  claude: 'anthropic',
  aws: 'bedrock',
  azureopenai: 'azure',
  googlevertex: 'vertex',
  hf: 'huggingface',
  local: 'ollama',
  openrouter: 'openai-compatible',
  vllm: 'openai-compatible',
  compatible: 'openai-compatible',
  'aws-sagemaker': 'sagemaker',
};

/** A kind name, an alias or `auto`, normalised; `undefined` when it names nothing we know. */
export function normalizeProviderName(name: string): ProviderName | 'auto' | undefined {
  const lower = name.trim().toLowerCase();
  if (lower === 'auto') return 'auto';
  if ((providerNames as readonly string[]).includes(lower)) return lower as ProviderName;
  return aliases[lower];
}
