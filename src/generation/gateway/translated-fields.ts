/**
 * What a translated gateway route leaves behind. A request whose wire the chosen provider does not
 * speak is mapped onto the toolkit's options (src/generation/gateway/*-request.ts); the fields listed
 * here as carried are mapped, every other field the client sent is not sent upstream, and the answer
 * names those in `x-switchyard-dropped-fields` rather than dropping them silently. docs/gateway.md
 * has the same table for people; a test holds the two together.
 */

/** The gateway's inbound wires. */
export type InboundWire = 'anthropic-messages' | 'openai-responses' | 'openai-chat';

/** Top-level fields each wire's translation maps onto the provider call (or acts on itself: `stream`, `store`). */
export const carriedFields: Readonly<Record<InboundWire, ReadonlySet<string>>> = {
  'anthropic-messages': new Set([
    'model',
    'messages',
    'system',
    'max_tokens',
    'tools',
    'tool_choice',
    'stop_sequences',
    'temperature',
    'top_p',
    'top_k',
    'stream',
    // Mapped to a reasoning effort the target takes (OpenAI's reasoning_effort, Bedrock's reasoning config).
    'thinking',
  ]),
  'openai-chat': new Set([
    'model',
    'messages',
    'stream',
    'stream_options',
    'temperature',
    'top_p',
    'max_tokens',
    'max_completion_tokens',
    'stop',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'response_format',
    'reasoning_effort',
    // Acted on here (attribution of the call), never a generation setting.
    'user',
  ]),
  'openai-responses': new Set([
    'model',
    'input',
    'instructions',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'text',
    'max_output_tokens',
    'temperature',
    'top_p',
    'reasoning',
    'stream',
    // Kept by the gateway's own response store, echoed in the answer.
    'store',
    'previous_response_id',
    'metadata',
    'user',
  ]),
};

/** True when `value` (a request or any part of it) carries a `cache_control` marker anywhere. */
function hasCacheControl(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasCacheControl);
  if (typeof value !== 'object' || value === null) return false;
  for (const [key, inner] of Object.entries(value)) if (key === 'cache_control' || hasCacheControl(inner)) return true;
  return false;
}

/** Block or item types a translation cannot carry, found in the request's history. */
function droppedHistoryTypes(wire: InboundWire, body: Readonly<Record<string, unknown>>): string[] {
  const types = new Set<string>();
  if (wire === 'anthropic-messages' && Array.isArray(body['messages'])) {
    for (const message of body['messages'] as { content?: unknown }[])
      if (Array.isArray(message.content))
        for (const block of message.content as { type?: unknown }[])
          if (block.type === 'thinking' || block.type === 'redacted_thinking') types.add(`messages[].content[].${block.type}`);
  }
  if (wire === 'openai-responses' && Array.isArray(body['input'])) {
    for (const item of body['input'] as { type?: unknown }[]) if (item.type === 'reasoning') types.add('input[].reasoning');
  }
  return [...types];
}

/** Nested settings of carried fields that the translation does not map. */
function droppedSettings(wire: InboundWire, body: Readonly<Record<string, unknown>>): string[] {
  const dropped: string[] = [];
  if (wire === 'openai-responses') {
    const reasoning = body['reasoning'] as Record<string, unknown> | null | undefined;
    if (reasoning?.['summary'] !== undefined && reasoning['summary'] !== null) dropped.push('reasoning.summary');
    const text = body['text'] as Record<string, unknown> | null | undefined;
    if (text?.['verbosity'] !== undefined && text['verbosity'] !== null) dropped.push('text.verbosity');
  }
  return dropped;
}

/**
 * The fields of a request that its translation onto another provider's wire does not carry, in
 * the order found: unknown top-level fields (e.g. `prompt_cache_key`, `include`, `context_management`),
 * prompt-cache markers (`cache_control`) unless the target maps them (`cacheMarkersMapped`), nested
 * settings (`reasoning.summary`, `text.verbosity`) and history items with no equivalent (thinking
 * blocks, reasoning items). Empty when nothing is lost.
 */
export function droppedOnTranslation(
  wire: InboundWire,
  body: Readonly<Record<string, unknown>>,
  options: { readonly cacheMarkersMapped?: boolean } = {},
): readonly string[] {
  const carried = carriedFields[wire];
  const dropped = Object.keys(body).filter((field) => !carried.has(field) && body[field] !== undefined && body[field] !== null);
  if (options.cacheMarkersMapped !== true && hasCacheControl(body)) dropped.push('cache_control');
  dropped.push(...droppedSettings(wire, body), ...droppedHistoryTypes(wire, body));
  return dropped;
}

/** Providers whose translation maps `cache_control` breakpoints (the AI SDK's Anthropic `cacheControl`, Bedrock's `cachePoint`). */
const cacheMarkerProviders: ReadonlySet<string> = new Set(['anthropic', 'bedrock', 'vertex']);

/** What the translation of `body` for `provider` leaves out (see droppedOnTranslation). */
export function droppedFor(wire: InboundWire, body: Readonly<Record<string, unknown>>, provider: string): readonly string[] {
  return droppedOnTranslation(wire, body, { cacheMarkersMapped: cacheMarkerProviders.has(provider) });
}

/** The response header naming what a translated route left out (absent when nothing was). */
export const droppedFieldsHeader = 'x-switchyard-dropped-fields';
