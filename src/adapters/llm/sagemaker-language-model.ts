import {
  InvokeEndpointCommand,
  InvokeEndpointWithResponseStreamCommand,
  type ResponseStream,
  type SageMakerRuntimeClient,
} from '@aws-sdk/client-sagemaker-runtime';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { SageMakerResponseFormatError, type SageMakerBodyCodec, type SageMakerStreamEvent, type SageMakerUsage } from './sagemaker-body-codec.js';
import type { SageMakerConfig } from './sagemaker-config.js';

function toV4Usage(usage: SageMakerUsage): LanguageModelV4Usage {
  return {
    inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: usage.outputTokens, text: usage.outputTokens, reasoning: undefined },
  };
}

/**
 * Splits a container's streamed bytes into events: SSE `data:` lines (TGI, OpenAI-style) or bare
 * JSON lines (some LMI containers). PayloadPart boundaries fall anywhere, even inside a UTF-8
 * sequence, so bytes are decoded in streaming mode and partial lines are kept for the next part.
 */
class LineEventSplitter {
  private readonly decoder = new TextDecoder();
  private buffer = '';

  push(bytes: Uint8Array): unknown[] {
    this.buffer += this.decoder.decode(bytes, { stream: true });
    const lines = this.buffer.split('\n');
    this.buffer = lines.pop() ?? '';
    return lines.flatMap((line) => this.parse(line));
  }

  end(): unknown[] {
    this.buffer += this.decoder.decode();
    const rest = this.buffer;
    this.buffer = '';
    return this.parse(rest);
  }

  private parse(rawLine: string): unknown[] {
    const line = rawLine.trim();
    let payload: string;
    if (line.startsWith('data:')) payload = line.slice(5).trim();
    else if (line.startsWith('{')) payload = line;
    else return [];
    if (payload === '' || payload === '[DONE]') return [];
    try {
      return [JSON.parse(payload) as unknown];
    } catch {
      throw new SageMakerResponseFormatError(`the endpoint streamed a line that is not JSON: ${payload.slice(0, 200)}`);
    }
  }
}

/** A mid-stream failure the container reported inside its own event payloads. */
export class SageMakerStreamEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SageMakerStreamEventError';
  }
}

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
  started: boolean;
}

/** Turns codec events into AI SDK stream parts, keeping text-block and tool-call bookkeeping. */
class StreamPartAssembler {
  private textOpen = false;
  private readonly tools = new Map<number, PendingToolCall>();
  private finishReason: LanguageModelV4FinishReason = { unified: 'stop', raw: undefined };
  private usage: SageMakerUsage = { inputTokens: undefined, outputTokens: undefined };
  private sawToolCall = false;

  constructor(private readonly emit: (part: LanguageModelV4StreamPart) => void) {}

  handle(event: SageMakerStreamEvent): void {
    switch (event.type) {
      case 'text':
        if (!this.textOpen) {
          this.emit({ type: 'text-start', id: 'text-0' });
          this.textOpen = true;
        }
        this.emit({ type: 'text-delta', id: 'text-0', delta: event.delta });
        break;
      case 'tool-delta': {
        let call = this.tools.get(event.index);
        if (!call) {
          call = { id: event.id ?? `call_${event.index}`, name: event.name ?? '', arguments: '', started: false };
          this.tools.set(event.index, call);
        }
        if (event.id) call.id = event.id;
        if (event.name) call.name = event.name;
        if (!call.started && call.name !== '') {
          this.emit({ type: 'tool-input-start', id: call.id, toolName: call.name });
          call.started = true;
          if (call.arguments !== '') this.emit({ type: 'tool-input-delta', id: call.id, delta: call.arguments });
        }
        call.arguments += event.argumentsDelta;
        if (call.started && event.argumentsDelta !== '') this.emit({ type: 'tool-input-delta', id: call.id, delta: event.argumentsDelta });
        break;
      }
      case 'finish':
        this.finishReason = event.finishReason;
        break;
      case 'usage':
        this.usage = {
          inputTokens: event.usage.inputTokens ?? this.usage.inputTokens,
          outputTokens: event.usage.outputTokens ?? this.usage.outputTokens,
        };
        break;
      case 'error':
        throw new SageMakerStreamEventError(event.message);
    }
  }

  finish(): void {
    if (this.textOpen) this.emit({ type: 'text-end', id: 'text-0' });
    for (const call of this.tools.values()) {
      if (call.name === '') continue;
      if (!call.started) this.emit({ type: 'tool-input-start', id: call.id, toolName: call.name });
      this.emit({ type: 'tool-input-end', id: call.id });
      this.emit({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments === '' ? '{}' : call.arguments });
      this.sawToolCall = true;
    }
    const finishReason =
      this.sawToolCall && this.finishReason.unified === 'stop' ? { unified: 'tool-calls' as const, raw: this.finishReason.raw } : this.finishReason;
    this.emit({ type: 'finish', finishReason, usage: toV4Usage(this.usage) });
  }
}

/**
 * The AI SDK language-model spec (v4) over a SageMaker real-time endpoint: `InvokeEndpoint` for
 * whole answers and `InvokeEndpointWithResponseStream` for real token streaming. The container's
 * body format comes from the codec (see `bodyFormatOf`). AWS errors are thrown as the SDK raised
 * them; `mapSageMakerError` translates them at the client edge.
 */
export class SageMakerLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4' as const;
  readonly provider = 'sagemaker';
  readonly supportedUrls: Record<string, RegExp[]> = {};
  private readonly encoder = new TextEncoder();

  constructor(
    readonly modelId: string,
    private readonly config: SageMakerConfig,
    private readonly client: SageMakerRuntimeClient,
    private readonly codec: SageMakerBodyCodec,
  ) {}

  private commandInput(body: Record<string, unknown>) {
    return {
      EndpointName: this.config.endpointName,
      Body: this.encoder.encode(JSON.stringify(body)),
      ContentType: this.config.contentType,
      Accept: this.config.accept,
      ...(this.config.customAttributes ? { CustomAttributes: this.config.customAttributes } : {}),
    };
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { body, warnings } = this.codec.requestBody(options, false);
    const output = await this.client.send(new InvokeEndpointCommand(this.commandInput(body)), options.abortSignal ? { abortSignal: options.abortSignal } : {});
    const text = new TextDecoder().decode(output.Body);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new SageMakerResponseFormatError(`the endpoint answered with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    const parsed = this.codec.parseResponse(json);
    return {
      content: parsed.content,
      finishReason: parsed.finishReason,
      usage: toV4Usage(parsed.usage),
      warnings,
      request: { body },
      response: { ...(parsed.modelId ? { modelId: parsed.modelId } : {}), body: json },
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { body, warnings } = this.codec.requestBody(options, true);
    const output = await this.client.send(
      new InvokeEndpointWithResponseStreamCommand(this.commandInput(body)),
      options.abortSignal ? { abortSignal: options.abortSignal } : {},
    );
    const events = output.Body;
    if (events === undefined) throw new SageMakerResponseFormatError('the endpoint answered a streaming call without a response stream');
    const iterator: AsyncIterator<ResponseStream> = events[Symbol.asyncIterator]();
    const codec = this.codec;
    const splitter = new LineEventSplitter();
    let assembler: StreamPartAssembler | undefined;
    let done = false;

    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        assembler = new StreamPartAssembler((part) => controller.enqueue(part));
        controller.enqueue({ type: 'stream-start', warnings });
      },
      async pull(controller) {
        if (done || assembler === undefined) return;
        // A pull must enqueue something (or end the stream), or the reader waits forever.
        const before = controller.desiredSize;
        try {
          while (!done && controller.desiredSize === before) {
            const next = await iterator.next();
            if (next.done) {
              for (const event of splitter.end()) for (const decoded of codec.parseStreamEvent(event)) assembler.handle(decoded);
              assembler.finish();
              done = true;
              controller.close();
              return;
            }
            // Exceptions in the stream (ModelStreamError, InternalStreamFailure) are thrown by the SDK.
            const bytes = next.value.PayloadPart?.Bytes;
            if (bytes === undefined) continue;
            for (const event of splitter.push(bytes)) for (const decoded of codec.parseStreamEvent(event)) assembler.handle(decoded);
          }
        } catch (error) {
          done = true;
          controller.error(error);
        }
      },
      async cancel() {
        done = true;
        await iterator.return?.();
      },
    });
    return { stream, request: { body } };
  }
}
