import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4ToolResultOutput,
  SharedV4Warning,
} from '@ai-sdk/provider';

/** Token counts a container reported; either may be missing (TGI does not count the prompt). */
export interface SageMakerUsage {
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
}

export interface SageMakerParsedResponse {
  readonly content: LanguageModelV4Content[];
  readonly finishReason: LanguageModelV4FinishReason;
  readonly usage: SageMakerUsage;
  readonly modelId?: string;
}

/** What one streamed event of a container means, independent of its body format. */
export type SageMakerStreamEvent =
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'tool-delta'; readonly index: number; readonly id?: string; readonly name?: string; readonly argumentsDelta: string }
  | { readonly type: 'finish'; readonly finishReason: LanguageModelV4FinishReason }
  | { readonly type: 'usage'; readonly usage: SageMakerUsage }
  | { readonly type: 'error'; readonly message: string };

/** One container body format: how a call becomes a request body and how answers are read back. */
export interface SageMakerBodyCodec {
  /** Whether the format carries tool definitions and tool calls. */
  readonly supportsTools: boolean;
  requestBody(options: LanguageModelV4CallOptions, stream: boolean): { readonly body: Record<string, unknown>; readonly warnings: SharedV4Warning[] };
  /** Reads a whole (non-streamed) answer; throws `SageMakerResponseFormatError` when it has another shape. */
  parseResponse(body: unknown): SageMakerParsedResponse;
  /** Reads one event (one `data:` JSON payload) of a streamed answer. */
  parseStreamEvent(event: unknown): SageMakerStreamEvent[];
}

/** The container answered with a body the configured format cannot read (wrong SAGEMAKER_MODEL_TYPE?). */
export class SageMakerResponseFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SageMakerResponseFormatError';
  }
}

/** A tool's output as the text a chat template or a `tool` message carries. */
export function toolOutputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return `Tool execution denied${output.reason ? `: ${output.reason}` : ''}`;
    case 'content':
      return output.value.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
