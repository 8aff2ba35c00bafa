import { readCallControls, type CallControls } from './call-controls.js';
import type { CallAttribution } from './llm-call-record.js';
import type { DeprecationNotice } from './deprecation-notice.js';
import { InvalidRequestError } from './errors/provider-errors.js';
import type { GenerateOptions, StreamOptions } from './generate-options.js';
import type { ChatMessage, DeclaredTool, MessagePart, PromptCacheMark } from './language-model-client.js';
import { type DocumentInput, readFiles } from './documents/document-input.js';
import { prepareSchema, type PreparedSchema } from './output-schema.js';
import { parseTimeout } from './parse-timeout.js';
import { normalizeProviderName, type ProviderName } from './provider-name.js';
import type { ToolDefinition } from './tool-definition.js';

export const DEFAULT_TEMPERATURE = 0.7;
export const DEFAULT_MAX_TOKENS = 1000;
/** The largest output any supported model accepts today (reference §1.6 validateOptions). */
export const MAX_MAX_TOKENS = 200_000;
export const DEFAULT_MAX_STEPS = 5;
export const MAX_MAX_STEPS = 20;
/** 1,000,000 characters: NeuroLink's prompt cap; longer text is a mistake, not a prompt. */
export const MAX_INPUT_LENGTH = 1_000_000;
/** 1 MiB: the largest `output.streaming.chunkSize`/`bufferSize` that still means "a chunk", not "the whole answer". */
export const MAX_STREAM_CHUNK = 1_048_576;
export const outputFormats = ['text', 'structured', 'json'] as const;
/** Added to the system prompt for `output.format` `json`/`structured` without a schema. */
export const JSON_ANSWER_INSTRUCTION = 'Answer with one valid JSON value and nothing else: no prose, no code fences.';
export type OutputFormat = (typeof outputFormats)[number];

/** A generate/stream call after validation and defaulting: every field is known-good. */
export interface NormalizedRequest {
  readonly text: string;
  readonly provider: ProviderName | 'auto' | undefined;
  readonly model: string | undefined;
  /** Undefined when the caller gave `topP` and no temperature (the provider's default then). */
  readonly temperature: number | undefined;
  /** Sampling and tool-use controls and per-provider headers, as given (validated). */
  readonly controls: CallControls;
  readonly maxTokens: number;
  readonly maxSteps: number;
  readonly system: string | undefined;
  /** A prompt-cache breakpoint after the system prompt (`promptCache.system`). */
  readonly systemCacheControl: PromptCacheMark | undefined;
  readonly schema: PreparedSchema | undefined;
  readonly timeoutMs: number | undefined;
  readonly disableTools: boolean;
  /** `output.format` (default `text`); with `schema` the answer is validated against it. */
  readonly outputFormat: OutputFormat;
  /**
   * `output.format` `json` or `structured` without a `schema`: the model is told to answer with
   * JSON only and the answer is parsed into `object` (not JSON: a non-retryable error).
   */
  readonly jsonAnswer: boolean;
  /** `output.streaming.chunkSize`: stream chunks longer than this many characters are split. */
  readonly streamChunkSize: number | undefined;
  readonly enableAnalytics: boolean;
  readonly enableEvaluation: boolean;
  readonly context: Readonly<Record<string, unknown>> | undefined;
  /** History turns followed by the user message (text plus images). */
  readonly messages: readonly ChatMessage[];
  /** PDF and CSV `files`, validated and decoded; their text is read by `attachDocuments`. */
  readonly documents: readonly DocumentInput[];
  readonly hasHistory: boolean;
  readonly extraTools: readonly ToolDefinition[];
  /** Tools the caller runs itself (declared, never executed here). */
  readonly clientTools: readonly DeclaredTool[];
  readonly confirmedTools: ReadonlySet<string>;
  /**
   * `context.permissions`: when given, the model is offered only the tools it names (the rule of
   * `executeTool`'s ExecutionContext, see tool-permissions.ts); absent, every tool of the call.
   */
  readonly toolPermissions: readonly string[] | undefined;
  /** `toolGuard`: wraps each tool the call runs (the guard pipeline over its arguments and results). */
  readonly toolGuard: ((tool: ToolDefinition) => ToolDefinition) | undefined;
  readonly abortSignal: AbortSignal | undefined;
  readonly evaluation: { readonly provider?: ProviderName; readonly model?: string; readonly timeoutMs?: number; readonly threshold?: number };
  readonly evaluationDomain: string | undefined;
  /** Who the call is for; `surface: 'library'` when the caller said nothing. */
  readonly attribution: CallAttribution;
}

const dataUrlPattern = /^data:image\/(png|jpe?g|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;
const label = 'toolkit';

function fail(option: string, message: string): never {
  throw new InvalidRequestError(`${option} ${message}`, label, option);
}

function optionalBoolean(options: Record<string, unknown>, key: string): boolean {
  const value = options[key];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') fail(key, 'must be a boolean');
  return value;
}

function optionalString(options: Record<string, unknown>, key: string): string | undefined {
  const value = options[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') fail(key, 'must be a string');
  return value;
}

function readText(options: GenerateOptions, notice: DeprecationNotice): string {
  const input: unknown = options.input;
  let text: unknown;
  if (input !== undefined) {
    if (typeof input !== 'object' || input === null) fail('input', 'must be an object { text: string }');
    text = (input as { text?: unknown }).text;
    if (typeof text !== 'string' || text.trim() === '') fail('input.text', 'is required and must be a non-empty string');
  } else if (options.prompt !== undefined) {
    text = options.prompt;
    if (typeof text !== 'string' || text.trim() === '') fail('prompt', 'must be a non-empty string');
    notice.warn(
      'prompt',
      'DeprecationWarning: the `prompt` option is deprecated; pass `input: { text }` instead (set SWITCHYARD_SUPPRESS_DEPRECATION=1 to silence).',
    );
  } else {
    fail('input.text', 'is required and must be a non-empty string');
  }
  return readInputText(text);
}

/** The text of a call's user message: a non-empty string of at most `MAX_INPUT_LENGTH` characters. */
export function readInputText(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') fail('input.text', 'is required and must be a non-empty string');
  if (text.length > MAX_INPUT_LENGTH) fail('input.text', `must be at most ${MAX_INPUT_LENGTH} characters`);
  return text;
}

function readNumber(options: Record<string, unknown>, key: string, min: number, max: number, integer: boolean, fallback: number, option = key): number {
  const value = options[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    fail(option, `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}; got ${JSON.stringify(value)}`);
  }
  return value;
}

function readProvider(value: unknown, option: string): ProviderName | 'auto' | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') fail(option, 'must be a string');
  const name = normalizeProviderName(value);
  if (name === undefined) fail(option, `names no known provider: "${value}"`);
  return name;
}

/** A prompt-cache mark (`{}` or `{ ttl: '5m' | '1h' }`), or undefined when absent. */
function readCacheMark(value: unknown, option: string): PromptCacheMark | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(option, 'must be { ttl?: "5m" | "1h" }');
  const ttl = (value as { ttl?: unknown }).ttl;
  if (ttl === undefined) return {};
  if (ttl === '5m' || ttl === '1h') return { ttl };
  return fail(`${option}.ttl`, `must be "5m" or "1h"; got ${JSON.stringify(ttl)}`);
}

function readHistory(value: unknown): { turns: ChatMessage[]; system: string[] } {
  const turns: ChatMessage[] = [];
  const system: string[] = [];
  if (value === undefined) return { turns, system };
  if (!Array.isArray(value)) fail('conversationHistory', 'must be an array of { role, content }');
  value.forEach((turn: unknown, index) => {
    const entry = turn as Record<string, unknown> | null;
    const at = `conversationHistory[${index}]`;
    if (typeof entry !== 'object' || entry === null || typeof entry['content'] !== 'string') fail(at, 'must be { role, content: string }');
    const content = entry['content'] as string;
    const mark = readCacheMark(entry['cacheControl'], `${at}.cacheControl`);
    // Each turn keeps its prompt-cache mark.
    const add = (message: ChatMessage): void => void turns.push(mark === undefined ? message : { ...message, cacheControl: mark });
    switch (entry['role']) {
      case 'system':
        system.push(content);
        return;
      case 'user':
        add({ role: 'user', content });
        return;
      case 'assistant': {
        const calls = entry['toolCalls'];
        if (calls === undefined) {
          add({ role: 'assistant', content });
          return;
        }
        if (!Array.isArray(calls)) fail(`${at}.toolCalls`, 'must be an array of { toolCallId, toolName, args }');
        const toolCalls = calls.map((call: unknown, callIndex) => {
          const record = call as Record<string, unknown> | null;
          if (
            typeof record !== 'object' ||
            record === null ||
            typeof record['toolCallId'] !== 'string' ||
            typeof record['toolName'] !== 'string' ||
            typeof record['args'] !== 'object' ||
            record['args'] === null
          ) {
            fail(`${at}.toolCalls[${callIndex}]`, 'must be { toolCallId, toolName, args: object }');
          }
          return { toolCallId: record['toolCallId'] as string, toolName: record['toolName'] as string, args: record['args'] as Record<string, unknown> };
        });
        add({ role: 'assistant', content, toolCalls });
        return;
      }
      case 'tool':
        if (typeof entry['toolCallId'] !== 'string' || typeof entry['toolName'] !== 'string') fail(at, 'a tool turn needs toolCallId and toolName');
        add({ role: 'tool', toolCallId: entry['toolCallId'] as string, toolName: entry['toolName'] as string, content });
        return;
      default:
        fail(`${at}.role`, 'must be user, assistant, system or tool');
    }
  });
  return { turns, system };
}

/** `clientTools` validated: names of 1–64 letters, digits, _ or -; parameters a JSON Schema object (default: an empty object schema). */
export function readClientTools(value: unknown): DeclaredTool[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail('clientTools', 'must be an array of { name, description?, parameters? }');
  return value.map((tool: unknown, index) => {
    const record = tool as Record<string, unknown> | null;
    if (typeof record !== 'object' || record === null || typeof record['name'] !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(record['name'])) {
      fail(`clientTools[${index}].name`, 'must be 1–64 letters, digits, _ or -');
    }
    const parameters = record['parameters'] ?? { type: 'object', properties: {} };
    if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
      fail(`clientTools[${index}].parameters`, 'must be a JSON Schema object');
    return {
      name: record['name'] as string,
      description: typeof record['description'] === 'string' ? record['description'] : '',
      inputSchema: parameters as Record<string, unknown>,
    };
  });
}

const httpUrlPattern = /^https?:\/\/\S+$/i;

/** `images` validated: base64 image data URLs, and http(s) URLs when `allowUrls`. */
export function readImages(value: unknown, allowUrls: boolean): MessagePart[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail('images', 'must be an array of base64 data URLs');
  return value.map((image: unknown, index): MessagePart => {
    if (typeof image === 'string' && dataUrlPattern.test(image)) return { type: 'image', dataUrl: image };
    if (allowUrls && typeof image === 'string' && httpUrlPattern.test(image)) return { type: 'image-url', url: image };
    return fail(`images[${index}]`, `must be a base64 data URL like data:image/png;base64,…${allowUrls ? ' or an http(s) URL' : ''}`);
  });
}

function readTools(value: unknown): ToolDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail('tools', 'must be an array of tool definitions');
  return value.map((tool: unknown, index) => {
    const candidate = tool as Partial<ToolDefinition> | null;
    if (typeof candidate !== 'object' || candidate === null || typeof candidate.name !== 'string' || typeof candidate.execute !== 'function') {
      fail(`tools[${index}]`, 'must be a tool definition with name, description, inputSchema and execute');
    }
    return candidate as ToolDefinition;
  });
}

function readOutput(value: unknown): { format: OutputFormat; chunkSize: number | undefined } {
  if (value === undefined) return { format: 'text', chunkSize: undefined };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('output', 'must be an object { format?, streaming? }');
  const output = value as Record<string, unknown>;
  const format = output['format'];
  if (format !== undefined && !(outputFormats as readonly unknown[]).includes(format))
    fail('output.format', `must be one of ${outputFormats.join(', ')}; got ${JSON.stringify(format)}`);
  const streaming = output['streaming'];
  let chunkSize: number | undefined;
  if (streaming !== undefined) {
    if (typeof streaming !== 'object' || streaming === null || Array.isArray(streaming))
      fail('output.streaming', 'must be an object { chunkSize?, bufferSize?, enableProgress? }');
    const settings = streaming as Record<string, unknown>;
    for (const key of ['chunkSize', 'bufferSize'] as const) {
      const size = settings[key];
      if (size !== undefined && (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > MAX_STREAM_CHUNK)) {
        fail(`output.streaming.${key}`, `must be an integer from 1 to ${MAX_STREAM_CHUNK}; got ${JSON.stringify(size)}`);
      }
    }
    if (settings['enableProgress'] !== undefined && typeof settings['enableProgress'] !== 'boolean')
      fail('output.streaming.enableProgress', 'must be a boolean');
    chunkSize = settings['chunkSize'] as number | undefined;
  }
  return { format: (format as OutputFormat | undefined) ?? 'text', chunkSize };
}

/**
 * Validates and defaults a generate/stream call before any network call. Every rejection is an
 * `InvalidRequestError` whose `option` names the field at fault. A bare string is shorthand for
 * `{ input: { text } }`; the legacy `prompt` field works and is warned about once per process.
 */
export function normalizeOptions(optionsOrText: GenerateOptions | StreamOptions | string, notice: DeprecationNotice): NormalizedRequest {
  const options: GenerateOptions = typeof optionsOrText === 'string' ? { input: { text: optionsOrText } } : optionsOrText;
  if (typeof options !== 'object' || options === null) fail('options', 'must be an object or a string');
  const record = options as unknown as Record<string, unknown>;
  const history = readHistory(options.conversationHistory);
  // A conversation that ends with tool results continues from them: no new user text is needed.
  const continuesFromTools = history.turns.at(-1)?.role === 'tool' && options.input === undefined && options.prompt === undefined;
  const text = continuesFromTools ? '' : readText(options, notice);
  const provider = readProvider(options.provider, 'provider');
  const model = optionalString(record, 'model');
  if (model !== undefined && model.trim() === '') fail('model', 'must not be empty');
  const systemPrompt = optionalString(record, 'systemPrompt');
  const images = readImages(options.images, optionalBoolean(record, 'allowImageUrls'));
  const documents = readFiles(record['files']);
  if (documents.length > 0 && continuesFromTools) fail('files', 'need a user message (input.text) to go with them');
  const context = options.context;
  if (context !== undefined && (typeof context !== 'object' || context === null || Array.isArray(context))) fail('context', 'must be an object');
  const toolPermissions = context?.['permissions'];
  if (toolPermissions !== undefined && (!Array.isArray(toolPermissions) || toolPermissions.some((entry) => typeof entry !== 'string')))
    fail('context.permissions', 'must be an array of strings (tool names, tool:<name>, built-in:*, custom:*, mcp:*, mcp:<server>, *)');
  const confirmed = options.confirmedTools;
  if (confirmed !== undefined && (!Array.isArray(confirmed) || confirmed.some((name) => typeof name !== 'string')))
    fail('confirmedTools', 'must be an array of tool names');
  const abortSignal = options.abortSignal;
  if (abortSignal !== undefined && !(abortSignal instanceof AbortSignal)) fail('abortSignal', 'must be an AbortSignal');
  const evaluation = options.evaluation;
  if (evaluation !== undefined && (typeof evaluation !== 'object' || evaluation === null)) fail('evaluation', 'must be an object');
  const judgeProvider = readProvider(evaluation?.provider, 'evaluation.provider');
  const output = readOutput(record['output']);
  const controls = readCallControls(record);
  const promptCache = record['promptCache'] as Record<string, unknown> | undefined;
  if (promptCache !== undefined && (typeof promptCache !== 'object' || promptCache === null || Array.isArray(promptCache)))
    fail('promptCache', 'must be { system?, input? }');
  const systemCacheControl = readCacheMark(promptCache?.['system'], 'promptCache.system');
  const inputCacheControl = readCacheMark(promptCache?.['input'], 'promptCache.input');
  // With topP and no temperature the provider's default temperature applies (providers advise one or the other).
  const temperatureDefault = controls.topP !== undefined && record['temperature'] === undefined ? undefined : DEFAULT_TEMPERATURE;

  const userContent: string | MessagePart[] = images.length === 0 ? text : [{ type: 'text', text }, ...images];
  const jsonAnswer = output.format !== 'text' && options.schema === undefined;
  const system = [systemPrompt, ...history.system, jsonAnswer ? JSON_ANSWER_INSTRUCTION : undefined]
    .filter((part): part is string => part !== undefined && part !== '')
    .join('\n\n');

  return {
    text,
    provider,
    model,
    temperature:
      record['temperature'] === undefined && temperatureDefault === undefined
        ? undefined
        : readNumber(record, 'temperature', 0, 1, false, temperatureDefault ?? DEFAULT_TEMPERATURE),
    controls,
    maxTokens: readNumber(record, 'maxTokens', 1, MAX_MAX_TOKENS, true, DEFAULT_MAX_TOKENS),
    maxSteps: readNumber(record, 'maxSteps', 1, MAX_MAX_STEPS, true, DEFAULT_MAX_STEPS),
    system: system === '' ? undefined : system,
    systemCacheControl,
    schema: options.schema === undefined ? undefined : prepareSchema(options.schema, label),
    timeoutMs: options.timeout === undefined ? undefined : parseTimeout(options.timeout),
    disableTools: optionalBoolean(record, 'disableTools'),
    outputFormat: output.format,
    jsonAnswer,
    streamChunkSize: output.chunkSize,
    enableAnalytics: optionalBoolean(record, 'enableAnalytics'),
    enableEvaluation: optionalBoolean(record, 'enableEvaluation'),
    context,
    messages: continuesFromTools
      ? history.turns
      : [...history.turns, { role: 'user', content: userContent, ...(inputCacheControl !== undefined ? { cacheControl: inputCacheControl } : {}) }],
    documents,
    hasHistory: history.turns.length > 0,
    extraTools: readTools(options.tools),
    clientTools: readClientTools(options.clientTools),
    confirmedTools: new Set(confirmed ?? []),
    toolPermissions: toolPermissions as readonly string[] | undefined,
    toolGuard: options.toolGuard,
    abortSignal,
    evaluation: {
      ...(judgeProvider !== undefined && judgeProvider !== 'auto' ? { provider: judgeProvider } : {}),
      ...(evaluation?.model !== undefined ? { model: evaluation.model } : {}),
      ...(evaluation?.timeout !== undefined ? { timeoutMs: parseTimeout(evaluation.timeout, 'evaluation.timeout') } : {}),
      ...(evaluation?.threshold !== undefined
        ? { threshold: readNumber(evaluation as unknown as Record<string, unknown>, 'threshold', 1, 10, false, 0, 'evaluation.threshold') }
        : {}),
    },
    evaluationDomain: optionalString(record, 'evaluationDomain'),
    attribution: { surface: 'library', ...options.attribution },
  };
}
