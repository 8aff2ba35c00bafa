import type { EmbeddingClient } from '../generation/embeddings/embedding-client.js';
import type { LanguageModelClient, ModelCallResult } from '../generation/language-model-client.js';
import type { ModerationClient } from '../generation/moderation/moderation-client.js';
import { forwardsNatively, type NativeWireEvent, type NativeWireRequest, type NativeWireResponse } from '../generation/native-wire.js';
import type { ProviderEnv } from '../generation/provider-definition.js';

/** Variables whose values are credentials (`OPENAI_API_KEY`, `HF_TOKEN`, `AWS_SECRET_ACCESS_KEY`, …). */
const credentialName = /KEY|TOKEN|SECRET|PASSWORD/i;
/** Shorter values are not keys (and replacing them would mangle ordinary words). */
const minimumSecretLength = 8;
const mask = '[REDACTED]';

/** The credential values of a toolkit environment, longest first (so a key containing another is masked whole). */
export function providerSecretsOf(env: ProviderEnv): readonly string[] {
  const values = Object.entries(env)
    .filter(([name, value]) => credentialName.test(name) && typeof value === 'string' && value.trim().length >= minimumSecretLength)
    .map(([, value]) => (value as string).trim());
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

/**
 * Masks the credentials in a provider error's message and stack, in place: some providers quote the
 * key they refused in their error body ("Incorrect API key provided: sk-…"), and that message
 * reaches the caller's error answer and the logs. The operator's provider key must reach neither.
 */
export function scrubSecrets<T>(error: T, secrets: readonly string[]): T {
  if (!(error instanceof Error) || secrets.length === 0) return error;
  const scrub = (text: string) => scrubText(text, secrets);
  error.message = scrub(error.message);
  if (error.stack !== undefined) error.stack = scrub(error.stack);
  return error;
}

/** `text` with every credential masked. */
function scrubText(text: string, secrets: readonly string[]): string {
  return secrets.reduce((masked, secret) => masked.split(secret).join(mask), text);
}

async function* scrubbedStream(stream: AsyncIterable<string>, secrets: readonly string[]): AsyncIterable<string> {
  try {
    yield* stream;
  } catch (error) {
    throw scrubSecrets(error, secrets);
  }
}

/** The client, its failures (calls, streams, token counts) carrying no credential of `secrets`. */
export function withScrubbedErrors(client: LanguageModelClient, secrets: readonly string[]): LanguageModelClient {
  if (secrets.length === 0) return client;
  const rethrow = (error: unknown): never => {
    throw scrubSecrets(error, secrets);
  };
  const countInputTokens = client.countInputTokens?.bind(client);
  const native = forwardsNatively(client) ? client : undefined;
  return {
    provider: client.provider,
    modelId: client.modelId,
    supportsTools: client.supportsTools,
    generate: (request) => client.generate(request).catch(rethrow),
    stream(request) {
      const stream = client.stream(request);
      const result: Promise<ModelCallResult> = stream.result.catch(rethrow);
      return { textStream: scrubbedStream(stream.textStream, secrets), result };
    },
    ...(countInputTokens !== undefined ? { countInputTokens: (request) => countInputTokens(request).catch(rethrow) } : {}),
    ...(native !== undefined
      ? {
          nativeWires: native.nativeWires,
          forward: (request: NativeWireRequest) => native.forward(request).then((response) => scrubbedAnswer(response, secrets), rethrow),
        }
      : {}),
  };
}

/** A native answer whose errors (a refusal's mapped error, a stream that breaks) carry no secret. */
function scrubbedAnswer(response: NativeWireResponse, secrets: readonly string[]): NativeWireResponse {
  // A provider may quote the key it refused in its error body, which goes to the client as it is.
  if (response.kind === 'error') return { ...response, body: scrubText(response.body, secrets), error: scrubSecrets(response.error, secrets) };
  if (response.kind === 'json') return response;
  const events = async function* (): AsyncGenerator<NativeWireEvent> {
    try {
      yield* response.events;
    } catch (error) {
      throw scrubSecrets(error, secrets);
    }
  };
  const summary = response.summary.catch((error: unknown) => {
    throw scrubSecrets(error, secrets);
  });
  summary.catch(() => undefined);
  return { kind: 'stream', events: events(), summary };
}

/** `withScrubbedErrors` for embedding clients. */
export function withScrubbedEmbeddingErrors(client: EmbeddingClient, secrets: readonly string[]): EmbeddingClient {
  if (secrets.length === 0) return client;
  return {
    provider: client.provider,
    modelId: client.modelId,
    embed: (request) =>
      client.embed(request).catch((error: unknown) => {
        throw scrubSecrets(error, secrets);
      }),
  };
}

/** A moderation client whose errors never quote the provider keys of `secrets`. */
export function withScrubbedModerationErrors(client: ModerationClient, secrets: readonly string[]): ModerationClient {
  if (secrets.length === 0) return client;
  return {
    provider: client.provider,
    modelId: client.modelId,
    moderate: (texts, options) =>
      client.moderate(texts, options).catch((error: unknown) => {
        throw scrubSecrets(error, secrets);
      }),
  };
}
