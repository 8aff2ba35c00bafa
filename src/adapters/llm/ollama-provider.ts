import { wrapLanguageModel, type LanguageModelMiddleware } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { ConfigurationError } from '../../generation/errors/provider-errors.js';
import { parseTimeout } from '../../generation/parse-timeout.js';
import { createAiSdkEmbeddingClient } from './ai-sdk-embedding-client.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { createNativeWireClient } from './native-wire-client.js';
import type { ProviderDefinition, ProviderEnv, ProviderOverrides } from '../../generation/provider-definition.js';
import { assertProviderConfigured, modelMatchesAny, parseBaseUrl, readEnv } from '../../generation/provider-env.js';

/** 5 minutes: the interface's default timeout for the local model runner (slow first loads of a model). */
export const OLLAMA_DEFAULT_TIMEOUT_MS = 300_000;

/** Used when `OLLAMA_TOOL_CAPABLE_MODELS` (comma list of name fragments) is not set. */
export const ollamaDefaultToolCapableModels: readonly string[] = [
  'llama3.1',
  'llama3.2',
  'llama3.3',
  'mistral',
  'mistral-nemo',
  'qwen2.5',
  'qwen3',
  'hermes3',
  'hermes2-pro',
  'firefunction-v2',
  'command-r',
];

/**
 * A local Ollama server over its native `/api/chat` (JSON, NDJSON when streaming).
 *
 * @remarks Ollama counts as configured only when `OLLAMA_BASE_URL` or `OLLAMA_MODEL` is set: the
 * toolkit never assumes a daemon on localhost, so `auto` selection does not stall on a machine
 * without one. Set `OLLAMA_BASE_URL=http://localhost:11434` to opt in with the default address.
 * A call without its own `timeout` gets 5 minutes (the interface's local-runner default), or
 * `OLLAMA_TIMEOUT` (ms, or text like `90s`/`10m`), applied by the domain's deadline.
 */
export const ollamaProvider: ProviderDefinition = {
  name: 'ollama',
  requiredEnv: [['OLLAMA_BASE_URL', 'OLLAMA_MODEL']],
  modelEnv: ['OLLAMA_MODEL'],
  defaultModel: 'llama3.1:8b',
  defaultTimeoutMs(env) {
    const raw = readEnv(env, 'OLLAMA_TIMEOUT');
    if (raw === undefined) return OLLAMA_DEFAULT_TIMEOUT_MS;
    try {
      return parseTimeout(/^\d+$/.test(raw) ? Number(raw) : raw, 'OLLAMA_TIMEOUT');
    } catch (error) {
      throw new ConfigurationError(`ollama: OLLAMA_TIMEOUT="${raw}" is not a timeout (ms, or text like 90s or 10m)`, 'ollama', { originalError: error });
    }
  },
  create(env, modelId, overrides = {}) {
    const ollama = ollamaSdk(this, env, overrides);
    const listed = readEnv(env, 'OLLAMA_TOOL_CAPABLE_MODELS');
    const toolCapable = listed === undefined ? ollamaDefaultToolCapableModels : listed.split(',').map((name) => name.trim());
    const client = createAiSdkLanguageModelClient({
      provider: 'ollama',
      modelId,
      model: wrapLanguageModel({ model: ollama.chat(modelId), middleware: ollamaSamplingOptions }),
      supportsTools: modelMatchesAny(modelId, toolCapable),
    });
    if (overrides.fetch !== undefined) return client;
    // The gateway's chat completions go to Ollama's own OpenAI-compatible endpoint as they are.
    const root = ollamaRoot(env).replace(/\/api$/, '');
    return {
      ...client,
      ...createNativeWireClient({ provider: 'ollama', modelId, endpoints: { 'openai-chat': { url: `${root}/v1/chat/completions`, headers: {} } } }),
    };
  },
  /** `/api/embed` of the local runner, for a pulled embedding model. */
  embeddings: {
    defaultModel: 'nomic-embed-text',
    create(env, modelId, overrides = {}) {
      return createAiSdkEmbeddingClient({ provider: 'ollama', modelId, model: ollamaSdk(ollamaProvider, env, overrides).embedding(modelId) });
    },
  },
};

/** `OLLAMA_BASE_URL`, checked (default: the runner on localhost). */
function ollamaRoot(env: ProviderEnv): string {
  return parseBaseUrl('ollama', 'OLLAMA_BASE_URL', readEnv(env, 'OLLAMA_BASE_URL') ?? 'http://localhost:11434');
}

function ollamaSdk(definition: ProviderDefinition, env: ProviderEnv, overrides: ProviderOverrides) {
  assertProviderConfigured(definition, env);
  const baseUrl = ollamaRoot(env);
  return createOllama({
    baseURL: /\/api$/.test(baseUrl) ? baseUrl : `${baseUrl}/api`,
    ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
  });
}

/**
 * Ollama reads sampling settings from `options` (`temperature`, `num_predict`, `top_p`, `top_k`, `stop`); the SDK provider
 * sends them at the top level, where the server ignores them, so they are copied into
 * `providerOptions.ollama.options` (explicit provider options win).
 */
const ollamaSamplingOptions: LanguageModelMiddleware = {
  transformParams: ({ params }) => {
    const existing = params.providerOptions?.ollama;
    const existingOptions = (existing?.options ?? {}) as Record<string, unknown>;
    const options = {
      ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
      ...(params.maxOutputTokens === undefined ? {} : { num_predict: params.maxOutputTokens }),
      ...(params.topP === undefined ? {} : { top_p: params.topP }),
      ...(params.topK === undefined ? {} : { top_k: params.topK }),
      ...(params.stopSequences === undefined ? {} : { stop: params.stopSequences }),
      ...existingOptions,
    };
    return Promise.resolve({ ...params, providerOptions: { ...params.providerOptions, ollama: { ...existing, options } } });
  },
};
