/** USD per 1,000 tokens (the unit of models.json and of analytics cost). */
export interface ModelPricing {
  readonly input: number;
  readonly output: number;
}

export interface ModelMetadata {
  readonly description?: string;
  readonly useCase?: string;
  /** `fastest` > `fast` > `medium` > `slow`. */
  readonly speed?: string;
  /** `highest` > `high` > `medium` > `low`. */
  readonly quality?: string;
}

/** One model of the registry, normalised from either models.json layout. */
export interface ModelConfig {
  /** The id sent to the provider's API, e.g. `claude-3-5-sonnet-20241022`. */
  readonly id: string;
  /** The registry key (nested layout: the key under its provider; flat layout: the id). */
  readonly key: string;
  readonly name: string;
  /** Canonical provider kind (`google` is read as `google-ai`, see normalizeProviderName). */
  readonly provider: string;
  /** Absent for models billed another way (self-hosted endpoints); such a model never passes a maxPrice filter. */
  readonly pricing: ModelPricing | undefined;
  /** camelCase (`function-calling` in a file becomes `functionCalling`). */
  readonly capabilities: readonly string[];
  readonly contextWindow: number | undefined;
  /** The most tokens the model may answer with (its maximum output), when the registry says. */
  readonly maxOutputTokens?: number | undefined;
  readonly deprecated: boolean;
  /** The model's own aliases plus the top-level aliases that point at it. */
  readonly aliases: readonly string[];
  readonly releaseDate: string | undefined;
  readonly metadata: ModelMetadata;
  /** How well the model uses tools: the file's `toolSupport`, else graded by `toolSupportGrade`. */
  readonly toolSupport: ToolSupport;
}

export const toolSupportGrades = ['full', 'partial', 'limited'] as const;
/** `full`: tool calling the provider documents and the toolkit drives; `partial`: depends on the served model or proxy; `limited`: no functionCalling capability. */
export type ToolSupport = (typeof toolSupportGrades)[number];

/** Provider kinds whose models with `functionCalling` take tools natively (their own tool-calling API). */
const fullToolProviders: ReadonlySet<string> = new Set(['openai', 'anthropic', 'google-ai', 'vertex', 'azure', 'bedrock']);

/**
 * The grade of a model without an explicit `toolSupport`: `limited` without the `functionCalling`
 * capability; `full` on a provider with a native tool-calling API; `partial` where it depends on
 * what is served behind the endpoint (Mistral, Hugging Face, Ollama, LiteLLM, OpenAI-compatible, SageMaker).
 */
export function toolSupportGrade(provider: string, capabilities: readonly string[]): ToolSupport {
  if (!capabilities.includes('functionCalling')) return 'limited';
  return fullToolProviders.has(provider) ? 'full' : 'partial';
}

export interface ModelResolutionResult {
  readonly modelId: string;
  readonly provider: string;
  /** Why this model: how the name resolved, or which filters and ranking picked it. */
  readonly reasoning: string;
  readonly pricing: ModelPricing | undefined;
  readonly capabilities: readonly string[];
}

export interface DynamicModelOptions {
  /** A model id, key, `provider/key` or alias; wins when it resolves. */
  readonly model?: string;
  readonly capability?: string;
  /** Per-1K USD bound on the average of input and output price. */
  readonly maxPrice?: number;
  /** Default `quality`. */
  readonly optimizeFor?: 'cost' | 'speed' | 'quality';
  readonly provider?: string;
}

export interface ModelSearchOptions {
  readonly capability?: string;
  readonly provider?: string;
  /** Per-1K USD bound on the average of input and output price. */
  readonly maxPrice?: number;
  readonly minContextWindow?: number;
  readonly excludeDeprecated?: boolean;
}

/** The average of input and output price per 1K tokens: the number every maxPrice compares and cost ranking sorts by. */
export function averagePrice(model: ModelConfig): number | undefined {
  return model.pricing === undefined ? undefined : (model.pricing.input + model.pricing.output) / 2;
}

/** `function-calling`, `function_calling` and `functionCalling` are one capability. */
export function normalizeCapability(capability: string): string {
  const trimmed = capability.trim();
  return trimmed.replace(/[-_\s]+([a-zA-Z0-9])/g, (_match, next: string) => next.toUpperCase()).replace(/^[A-Z]/, (first) => first.toLowerCase());
}
