import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import {
  generateText,
  jsonSchema,
  Output,
  RetryError,
  stepCountIs,
  streamText,
  tool,
  type JSONSchema7,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
  type UserContent,
} from 'ai';
import { AIProviderError } from '../../generation/errors/ai-provider-error.js';
import { InvalidRequestError } from '../../generation/errors/provider-errors.js';
import type {
  ChatMessage,
  DeclaredTool,
  LanguageModelClient,
  ModelCallRequest,
  ModelCallResult,
  ModelStream,
  TokenUsage,
  ToolCallRecord,
  ToolResultRecord,
} from '../../generation/language-model-client.js';
import type { ProviderName } from '../../generation/provider-name.js';
import type { JsonSchema, ToolDefinition } from '../../generation/tool-definition.js';
import { queuedModelStream } from './delta-queue.js';
import { mapProviderError } from './map-provider-error.js';

export interface AiSdkLanguageModelClientOptions {
  readonly provider: ProviderName;
  readonly modelId: string;
  readonly model: LanguageModel;
  readonly supportsTools: boolean;
  /** Provider-specific error bodies; `undefined` falls back to `mapProviderError`. */
  readonly mapError?: (error: unknown) => AIProviderError | undefined;
}

const ajv = new Ajv2020({ strict: false, allErrors: false });

/**
 * The `LanguageModelClient` port over one AI SDK language model. Every provider kind except
 * SageMaker is this plus its own model factory.
 *
 * @remarks AI SDK retries are off (`maxRetries: 0`): retry and fallback belong to the domain,
 * which needs each failure as it happened to decide.
 */
export function createAiSdkLanguageModelClient(options: AiSdkLanguageModelClientOptions): LanguageModelClient {
  const { provider, modelId, model, supportsTools } = options;
  const toError = (error: unknown): AIProviderError =>
    error instanceof AIProviderError ? error : (options.mapError?.(unwrapRetry(error)) ?? mapProviderError(provider, error));

  return {
    provider,
    modelId,
    supportsTools,

    async generate(request: ModelCallRequest): Promise<ModelCallResult> {
      const recorder = new ToolRecorder();
      const schema = request.schema === undefined ? undefined : compileSchema(provider, request.schema);
      try {
        const result = await generateText({
          ...callSettings(provider, model, request, supportsTools, recorder),
          ...(schema === undefined ? {} : { output: Output.object({ schema: schema.aiSchema }) }),
        });
        const object = schema === undefined ? undefined : (result.output as unknown);
        return {
          text: result.text,
          ...(schema === undefined ? {} : { object }),
          usage: toUsage(result.usage),
          finishReason: result.finishReason,
          toolCalls: toToolCalls(result.toolCalls),
          toolResults: recorder.results(),
          modelId: result.finalStep.response.modelId || modelId,
        };
      } catch (error) {
        throw toError(error);
      }
    },

    stream(request: ModelCallRequest): ModelStream {
      const recorder = new ToolRecorder();
      return queuedModelStream(async (queue) => {
        const schema = request.schema === undefined ? undefined : compileSchema(provider, request.schema);
        const streamed = streamText({
          ...callSettings(provider, model, request, supportsTools, recorder),
          ...(schema === undefined ? {} : { output: Output.object({ schema: schema.aiSchema }) }),
          // Errors arrive as `error` parts of the full stream below; this only silences the default console log.
          onError: () => undefined,
        });
        // One reader drives the stream, so `result` settles even when nobody iterates `textStream`.
        for await (const part of streamed.fullStream) {
          if (part.type === 'text-delta') queue.push(part.text);
          else if (part.type === 'error') throw part.error;
          else if (part.type === 'abort') throw abortErrorFrom(request.abortSignal);
        }
        const [text, usage, finishReason, toolCalls, response] = await Promise.all([
          streamed.text,
          streamed.usage,
          streamed.finishReason,
          streamed.toolCalls,
          streamed.response,
        ]);
        const object = schema === undefined ? undefined : ((await streamed.output) as unknown);
        return {
          text,
          ...(schema === undefined ? {} : { object }),
          usage: toUsage(usage),
          finishReason,
          toolCalls: toToolCalls(toolCalls),
          toolResults: recorder.results(),
          modelId: response.modelId || modelId,
        };
      }, toError);
    },
  };
}

/** `mapError` sees the provider's own failure, not the AI SDK's retry wrapper around it. */
function unwrapRetry(error: unknown): unknown {
  return RetryError.isInstance(error) ? error.lastError : error;
}

function callSettings(provider: ProviderName, model: LanguageModel, request: ModelCallRequest, supportsTools: boolean, recorder: ToolRecorder) {
  const executable = supportsTools && request.tools !== undefined && request.tools.length > 0 ? toToolSet(request.tools, request, recorder) : undefined;
  const declared = supportsTools && request.clientTools !== undefined && request.clientTools.length > 0 ? toDeclaredToolSet(request.clientTools) : undefined;
  const tools = executable === undefined && declared === undefined ? undefined : { ...declared, ...executable };
  return {
    model,
    messages: toModelMessages(provider, request.messages),
    ...(request.system === undefined ? {} : { instructions: request.system }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
    maxRetries: 0,
    ...(request.abortSignal === undefined ? {} : { abortSignal: request.abortSignal }),
    ...(request.headers === undefined ? {} : { headers: { ...request.headers } }),
    ...samplingSettings(request),
    ...(tools === undefined ? {} : { tools, stopWhen: stepCountIs(Math.max(1, request.maxSteps)), ...toolUseSettings(request) }),
  };
}

/** topP, topK, stop sequences and reasoning as the AI SDK takes them; each provider maps them or warns and leaves them out. */
function samplingSettings(request: ModelCallRequest) {
  return {
    ...(request.topP === undefined ? {} : { topP: request.topP }),
    ...(request.topK === undefined ? {} : { topK: request.topK }),
    ...(request.stopSequences === undefined ? {} : { stopSequences: [...request.stopSequences] }),
    ...(request.reasoning === undefined ? {} : { reasoning: request.reasoning }),
  };
}

/**
 * `toolChoice` and `parallelToolCalls` (only with tools): the choice in the AI SDK's terms, the
 * parallel switch as OpenAI's (`parallel_tool_calls`) and Anthropic's (`disable_parallel_tool_use`)
 * provider options; other providers ignore options not under their name.
 */
function toolUseSettings(request: ModelCallRequest) {
  const choice = request.toolChoice;
  const toolChoice = choice === undefined ? undefined : typeof choice === 'string' ? choice : { type: 'tool' as const, toolName: choice.toolName };
  const parallel = request.parallelToolCalls;
  return {
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(parallel === undefined
      ? {}
      : {
          providerOptions: {
            openai: { parallelToolCalls: parallel },
            azure: { parallelToolCalls: parallel },
            anthropic: { disableParallelToolUse: !parallel },
          },
        }),
  };
}

/** Times each tool execution and keeps its outcome in completion order. */
class ToolRecorder {
  private readonly records: ToolResultRecord[] = [];
  add(record: ToolResultRecord): void {
    this.records.push(record);
  }
  results(): readonly ToolResultRecord[] {
    return [...this.records];
  }
}

function toToolSet(definitions: readonly ToolDefinition[], request: ModelCallRequest, recorder: ToolRecorder): ToolSet {
  const set: ToolSet = {};
  for (const definition of definitions) {
    set[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema<unknown>(definition.inputSchema as JSONSchema7),
      execute: async (input: unknown, execution: { toolCallId: string; abortSignal?: AbortSignal }) => {
        const started = performance.now();
        const record = (output: unknown, success: boolean): unknown => {
          recorder.add({ toolCallId: execution.toolCallId, toolName: definition.name, output, durationMs: performance.now() - started, success });
          return output;
        };
        if (definition.requiresConfirmation === true && request.confirmedTools?.has(definition.name) !== true) {
          return record({ error: 'USER_CONFIRMATION_REQUIRED' }, false);
        }
        try {
          const output = await definition.execute(input, {
            toolCallId: execution.toolCallId,
            ...(execution.abortSignal === undefined ? {} : { abortSignal: execution.abortSignal }),
            ...(request.confirmedTools === undefined ? {} : { confirmedTools: request.confirmedTools }),
          });
          return record(output, !isFailure(output));
        } catch (error) {
          // A tool that throws is reported to the model as a failed result instead of ending the call.
          return record({ success: false, error: error instanceof Error ? error.message : String(error) }, false);
        }
      },
    });
  }
  return set;
}

/**
 * Tools the caller runs: declared without `execute`, so a call to one ends the generation with
 * its tool calls (the AI SDK cannot continue a step whose tools have no results).
 */
function toDeclaredToolSet(definitions: readonly DeclaredTool[]): ToolSet {
  const set: ToolSet = {};
  for (const definition of definitions) {
    set[definition.name] = tool({ description: definition.description, inputSchema: jsonSchema<unknown>(definition.inputSchema as JSONSchema7) });
  }
  return set;
}

function isFailure(output: unknown): boolean {
  return typeof output === 'object' && output !== null && (output as { success?: unknown }).success === false;
}

function toModelMessages(provider: ProviderName, messages: readonly ChatMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    if (message.role === 'tool') {
      return {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: message.toolCallId, toolName: message.toolName, output: { type: 'text', value: message.content } }],
      };
    }
    if (message.role === 'assistant') {
      const text = typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      if (message.toolCalls === undefined || message.toolCalls.length === 0) return { role: 'assistant', content: text };
      return {
        role: 'assistant',
        content: [
          ...(text === '' ? [] : [{ type: 'text' as const, text }]),
          ...message.toolCalls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.toolCallId, toolName: call.toolName, input: call.args })),
        ],
      };
    }
    if (typeof message.content === 'string') return { role: 'user', content: message.content };
    const content: UserContent = message.content.map((part) => {
      if (part.type === 'text') return { type: 'text' as const, text: part.text };
      // A URL goes to the provider as a URL where its API takes one (the AI SDK downloads it otherwise).
      if (part.type === 'image-url') return { type: 'file' as const, data: new URL(part.url), mediaType: 'image/*' };
      const { mediaType, data } = parseDataUrl(provider, part.dataUrl);
      return { type: 'file' as const, data, mediaType };
    });
    return { role: 'user', content };
  });
}

/** `data:<media type>;base64,<payload>` → its parts; anything else is a caller mistake caught upstream. */
function parseDataUrl(provider: ProviderName, dataUrl: string): { mediaType: string; data: string } {
  const match = /^data:([^;,]+)((?:;[^;,]+)*);base64,(.*)$/s.exec(dataUrl);
  if (match === null) throw new InvalidRequestError(`${provider}: an image must be a base64 data URL (data:<media type>;base64,...)`, provider, 'messages');
  return { mediaType: match[1] ?? 'application/octet-stream', data: match[3] ?? '' };
}

function compileSchema(provider: ProviderName, schema: JsonSchema) {
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema as Record<string, unknown>);
  } catch (error) {
    throw new InvalidRequestError(
      `${provider}: schema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
      provider,
      'schema',
      { originalError: error },
    );
  }
  const aiSchema = jsonSchema<unknown>(schema as JSONSchema7, {
    validate: (value: unknown) => {
      if (validate(value)) return { success: true, value };
      const first = validate.errors?.[0];
      const detail = first ? `${first.instancePath || '(root)'} ${first.message ?? 'is invalid'}` : 'does not match the schema';
      return { success: false, error: new Error(`structured output ${detail}`) };
    },
  });
  return { aiSchema };
}

function toUsage(usage: LanguageModelUsage): TokenUsage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: usage.totalTokens ?? inputTokens + outputTokens };
}

function toToolCalls(calls: readonly { toolCallId: string; toolName: string; input: unknown }[]): ToolCallRecord[] {
  return calls.map((call) => ({
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    args: typeof call.input === 'object' && call.input !== null && !Array.isArray(call.input) ? (call.input as Record<string, unknown>) : {},
  }));
}

function abortErrorFrom(signal: AbortSignal | undefined): unknown {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException('The operation was aborted', 'AbortError');
}
