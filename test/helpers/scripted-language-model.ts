import type {
  LanguageModelClient,
  ModelCallRequest,
  ModelCallResult,
  ModelStream,
  TokenUsage,
  ToolCallRecord,
  ToolResultRecord,
} from '../../src/generation/language-model-client.js';
import type { ProviderCatalog } from '../../src/generation/provider-catalog.js';
import { providerNames, type ProviderName } from '../../src/generation/provider-name.js';
import { ConfigurationError } from '../../src/generation/errors/provider-errors.js';

/**
 * One scripted answer. Only for unit tests of the toolkit's own loop (options, fallback, timeouts,
 * analytics, evaluation); it is never the proof that a provider works — that is the job of the
 * wire-format fakes in test/fixtures/providers/.
 */
export interface ScriptStep {
  readonly text?: string;
  /** Streamed pieces (default: `text` as one chunk). */
  readonly chunks?: readonly string[];
  readonly usage?: TokenUsage;
  readonly finishReason?: string;
  readonly object?: unknown;
  readonly modelId?: string;
  /** Thrown (generate) or raised before the first chunk (stream). */
  readonly error?: unknown;
  /** Stream: raise `error` after this many chunks instead of before the first. */
  readonly errorAfterChunks?: number;
  /** Never answers; settles only when the request's abort signal fires (with its reason). */
  readonly hang?: boolean;
  /** Ignores the abort signal entirely (a client that does not honour cancellation). */
  readonly ignoreAbort?: boolean;
  /** Runs these offered tools (by name) before answering, recording calls and results. */
  readonly callTools?: readonly { readonly name: string; readonly args: Record<string, unknown> }[];
}

const defaultUsage: TokenUsage = { inputTokens: 10, outputTokens: 20, totalTokens: 30 };

function waitForAbort(signal: AbortSignal | undefined, ignore: boolean): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (ignore || signal === undefined) return;
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export class ScriptedLanguageModel implements LanguageModelClient {
  readonly calls: ModelCallRequest[] = [];
  private readonly steps: ScriptStep[];

  constructor(
    readonly provider: ProviderName,
    readonly modelId: string,
    steps: readonly ScriptStep[],
    readonly supportsTools = true,
  ) {
    this.steps = [...steps];
  }

  private nextStep(request: ModelCallRequest): ScriptStep {
    this.calls.push(request);
    const step = this.steps.shift();
    if (step === undefined) throw new Error(`ScriptedLanguageModel(${this.provider}) has no step left for call ${this.calls.length}`);
    return step;
  }

  private async runTools(step: ScriptStep, request: ModelCallRequest): Promise<{ toolCalls: ToolCallRecord[]; toolResults: ToolResultRecord[] }> {
    const toolCalls: ToolCallRecord[] = [];
    const toolResults: ToolResultRecord[] = [];
    for (const [index, wanted] of (step.callTools ?? []).entries()) {
      const tool = request.tools?.find((candidate) => candidate.name === wanted.name);
      if (tool === undefined) throw new Error(`tool ${wanted.name} was not offered`);
      const toolCallId = `call_${index}`;
      toolCalls.push({ toolCallId, toolName: wanted.name, args: wanted.args });
      const output = await tool.execute(wanted.args, { toolCallId, ...(request.confirmedTools ? { confirmedTools: request.confirmedTools } : {}) });
      toolResults.push({ toolCallId, toolName: wanted.name, output, durationMs: 1, success: true });
    }
    return { toolCalls, toolResults };
  }

  private async result(step: ScriptStep, request: ModelCallRequest): Promise<ModelCallResult> {
    const { toolCalls, toolResults } = await this.runTools(step, request);
    return {
      text: step.text ?? (step.chunks ?? []).join(''),
      ...(step.object !== undefined ? { object: step.object } : {}),
      usage: step.usage ?? defaultUsage,
      finishReason: step.finishReason ?? 'stop',
      toolCalls,
      toolResults,
      modelId: step.modelId ?? this.modelId,
    };
  }

  async generate(request: ModelCallRequest): Promise<ModelCallResult> {
    const step = this.nextStep(request);
    if (step.hang === true) return waitForAbort(request.abortSignal, step.ignoreAbort === true);
    if (step.error !== undefined) throw step.error;
    return this.result(step, request);
  }

  stream(request: ModelCallRequest): ModelStream {
    const step = this.nextStep(request);
    const chunks = step.chunks ?? (step.text !== undefined ? [step.text] : []);
    let settle!: { resolve: (value: ModelCallResult) => void; reject: (error: unknown) => void };
    const result = new Promise<ModelCallResult>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const self = this;
    async function* textStream(): AsyncGenerator<string> {
      try {
        if (step.hang === true) await waitForAbort(request.abortSignal, step.ignoreAbort === true);
        for (const [index, chunk] of chunks.entries()) {
          if (step.error !== undefined && index === (step.errorAfterChunks ?? 0)) throw step.error;
          if (request.abortSignal?.aborted) throw request.abortSignal.reason;
          yield chunk;
        }
        if (step.error !== undefined && (step.errorAfterChunks ?? 0) >= chunks.length) throw step.error;
        settle.resolve(await self.result(step, request));
      } catch (error) {
        settle.reject(error);
        throw error;
      }
    }
    return { textStream: textStream(), result };
  }
}

/** A catalog over scripted clients: `configured` kinds get the given client; others are "missing <KIND>_API_KEY". */
export function scriptedCatalog(
  clients: Partial<Record<ProviderName, ScriptedLanguageModel>>,
  extraConfigured: readonly ProviderName[] = [],
): ProviderCatalog & { created: { provider: ProviderName; model: string | undefined }[] } {
  const created: { provider: ProviderName; model: string | undefined }[] = [];
  const isConfigured = (name: ProviderName): boolean => clients[name] !== undefined || extraConfigured.includes(name);
  const envName = (name: ProviderName): string => `${name.toUpperCase().replace(/-/g, '_')}_API_KEY`;
  return {
    names: providerNames,
    created,
    isConfigured,
    missingEnv: (name) => (isConfigured(name) ? [] : [envName(name)]),
    defaultModel: (name) => clients[name]?.modelId ?? `${name}-default`,
    createClient(name, modelId) {
      created.push({ provider: name, model: modelId });
      const client = clients[name];
      if (client === undefined) throw new ConfigurationError(`set ${envName(name)}`, name);
      return client;
    },
  };
}
