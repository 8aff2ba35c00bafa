import { createHash } from 'node:crypto';
import { minimumCachedTokens } from './cache-affinity.js';
import { canonicalJson } from './response-cache-key.js';
import { estimatePromptTokens } from './route-rules.js';

/**
 * The gateway wires whose requests carry a cacheable prompt, by their short names or by the
 * native pass-through's (`anthropic-messages`, `openai-responses`, `openai-chat`), so either
 * path hands its wire name over as it is.
 */
export type AffinityWire = 'messages' | 'responses' | 'chat' | 'anthropic-messages' | 'openai-responses' | 'openai-chat';

const shortWire = {
  messages: 'messages',
  'anthropic-messages': 'messages',
  responses: 'responses',
  'openai-responses': 'responses',
  chat: 'chat',
  'openai-chat': 'chat',
} as const satisfies Record<AffinityWire, string>;

/**
 * What ties a request to the route-group candidate holding its provider-side prompt cache
 * (issue 34 point 4). Made from the client's own cache key when it sends one, else from the
 * conversation's cached root (see {@link cacheAffinityOf}).
 */
export interface CacheAffinity {
  /** SHA-256 (hex) of where the key came from and its value: the store never holds client text. */
  readonly key: string;
  readonly source: 'prompt_cache_key' | 'user_id' | 'prefix';
  /**
   * How long the holder is remembered after a call: a provider keeps a cache 5 minutes after its
   * last use, an hour when the request asked for `ttl: "1h"`, a day for OpenAI's
   * `prompt_cache_retention: "24h"`.
   */
  readonly ttlS: number;
  /**
   * Estimated tokens this request leaves cached where it is served: its prompt up to its last
   * `cache_control` breakpoint, or the whole prompt where caching is automatic (no breakpoint:
   * OpenAI caches every prompt prefix of 1,024 tokens and more).
   */
  readonly cacheableTokens: number;
  /** Estimated tokens of the whole prompt (4 characters a token, as route rules count). */
  readonly promptTokens: number;
}

/** 5 min: Anthropic's default cache lifetime and OpenAI's in-memory retention, each refreshed by a use. */
export const defaultAffinityTtlS = 300;
/** 1 h: Anthropic's `ttl: "1h"` cache. */
const extendedAffinityTtlS = 3600;
/** 24 h: OpenAI's `prompt_cache_retention: "24h"`. */
const retainedAffinityTtlS = 86_400;

/** One piece of a prompt in the provider's cache order (tools, system, messages). */
interface Segment {
  /** Canonical JSON of the piece with its cache markers removed (the same piece hashes alike on every turn). */
  readonly text: string;
  readonly breakpoint: boolean;
  /** True on the last piece of the conversation's first turn: where its root ends. */
  readonly rootEnd: boolean;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** `cache_control` (and Responses' item `id`, which a stored item gains) left out: they mark a piece, they are not its content. */
function withoutMarkers(value: unknown): unknown {
  if (!isObject(value)) return value;
  const { cache_control: _marker, id: _id, ...rest } = value;
  return rest;
}

/** A message's content as blocks: clients send a string on one turn and the same text as a block (to mark it) on another. */
function blocksOf(content: unknown, textType: string): unknown[] {
  if (typeof content === 'string') return [{ type: textType, text: content }];
  return Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
}

function hasMarker(value: unknown): boolean {
  return isObject(value) && isObject(value['cache_control']);
}

function asksLongTtl(value: unknown): boolean {
  return isObject(value) && isObject(value['cache_control']) && value['cache_control']['ttl'] === '1h';
}

/** The pieces of one message (role kept with each block), the last flagged when it closes the root. */
function messageSegments(message: unknown, textType: string, rootEnd: boolean): { segments: Segment[]; longTtl: boolean } {
  if (!isObject(message)) return { segments: [{ text: canonicalJson(message), breakpoint: false, rootEnd }], longTtl: false };
  const role = message['role'];
  const blocks = blocksOf(message['content'], textType);
  // A marker on the message itself (LiteLLM's chat form) marks its last block.
  const messageMarked = hasMarker(message);
  const segments = blocks.map((block, index) => ({
    text: canonicalJson({ role, block: withoutMarkers(block) }),
    breakpoint: hasMarker(block) || (messageMarked && index === blocks.length - 1),
    rootEnd: rootEnd && index === blocks.length - 1,
  }));
  if (segments.length === 0) segments.push({ text: canonicalJson({ role }), breakpoint: messageMarked, rootEnd });
  return { segments, longTtl: asksLongTtl(message) || blocks.some(asksLongTtl) };
}

interface Pieces {
  readonly segments: Segment[];
  readonly longTtl: boolean;
}

function toolSegments(tools: unknown): Pieces {
  const list = Array.isArray(tools) ? tools : [];
  return {
    segments: list.map((tool) => ({ text: canonicalJson({ tool: withoutMarkers(tool) }), breakpoint: hasMarker(tool), rootEnd: false })),
    longTtl: list.some(asksLongTtl),
  };
}

function joined(parts: readonly Pieces[]): Pieces {
  return { segments: parts.flatMap((part) => part.segments), longTtl: parts.some((part) => part.longTtl) };
}

/** Messages: tools, then `system`, then the messages; the root is the first message. */
function messagesPieces(body: Json): Pieces {
  const system = body['system'];
  const systemBlocks = blocksOf(system, 'text');
  const systemPieces: Pieces = {
    segments: systemBlocks.map((block) => ({ text: canonicalJson({ system: withoutMarkers(block) }), breakpoint: hasMarker(block), rootEnd: false })),
    longTtl: systemBlocks.some(asksLongTtl),
  };
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  return joined([toolSegments(body['tools']), systemPieces, ...messages.map((message, index) => messageSegments(message, 'text', index === 0))]);
}

const instructionRoles: ReadonlySet<unknown> = new Set(['system', 'developer']);

/** Chat completions: tools, then the messages; the root ends with the first message that is not an instruction. */
function chatPieces(body: Json): Pieces {
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  const rootIndex = messages.findIndex((message) => !isObject(message) || !instructionRoles.has(message['role']));
  return joined([toolSegments(body['tools']), ...messages.map((message, index) => messageSegments(message, 'text', index === rootIndex))]);
}

/** Responses: `instructions`, tools, then the input items; the root ends with the first user item. */
function responsesPieces(body: Json): Pieces {
  const input = body['input'];
  const items: unknown[] = typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [];
  const rootIndex = items.findIndex((item) => isObject(item) && item['role'] === 'user');
  const instructions = nonEmptyString(body['instructions']);
  const instructionPieces: Pieces = {
    segments: instructions === undefined ? [] : [{ text: canonicalJson({ instructions }), breakpoint: false, rootEnd: false }],
    longTtl: false,
  };
  // A message item is the same message with or without `type: "message"` (EasyInputMessage omits it).
  const normalized = items.map((item) => (isObject(item) && item['type'] === 'message' ? { role: item['role'], content: item['content'] } : item));
  return joined([instructionPieces, toolSegments(body['tools']), ...normalized.map((item, index) => messageSegments(item, 'input_text', index === rootIndex))]);
}

function sha256(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('hex');
}

function tokensOf(segments: readonly Segment[]): number {
  return estimatePromptTokens(segments.map((segment) => segment.text).join(''));
}

/**
 * The affinity of a request on its wire, or undefined when it leaves nothing cached: no prompt, or
 * less of it cacheable than any provider caches (1,024 tokens), so no candidate is warmer than
 * another and the learning router keeps exploring freely. Keyed, in order, by:
 * - the client's own cache key: `prompt_cache_key` (chat, Responses) or `metadata.user_id`
 *   (Messages; Claude Code puts its session there);
 * - else the conversation's root: the prompt in cache order (tools, system, messages) up to the
 *   end of its first turn, or up to its last `cache_control` breakpoint when that comes earlier.
 *
 * @remarks Why the root and not the whole prefix up to the last breakpoint: agents mark the last
 * user turn, so that prefix grows every turn and its hash would never be seen twice; the root is
 * the same on every turn of a conversation and is a prefix of every cached prefix it will have.
 * Two conversations that share a root share their cacheable start too, so sending them to one
 * candidate is what their caches want. Markers are left out of the hash (a block marked on one
 * turn is unmarked on the next), and a string content hashes as its one text block.
 */
export function cacheAffinityOf(wireName: AffinityWire, body: unknown): CacheAffinity | undefined {
  if (!isObject(body)) return undefined;
  const wire = shortWire[wireName];
  const pieces = wire === 'messages' ? messagesPieces(body) : wire === 'chat' ? chatPieces(body) : responsesPieces(body);
  const { segments } = pieces;
  const lastBreakpoint = segments.findLastIndex((segment) => segment.breakpoint);
  const cacheableTokens = tokensOf(lastBreakpoint === -1 ? segments : segments.slice(0, lastBreakpoint + 1));
  if (segments.length === 0 || cacheableTokens < minimumCachedTokens) return undefined;
  const rootEnd = segments.findIndex((segment) => segment.rootEnd);
  const end = Math.min(lastBreakpoint === -1 ? segments.length - 1 : lastBreakpoint, rootEnd === -1 ? segments.length - 1 : rootEnd);
  const ownKey =
    wire === 'messages' ? nonEmptyString(isObject(body['metadata']) ? body['metadata']['user_id'] : undefined) : nonEmptyString(body['prompt_cache_key']);
  const source = ownKey === undefined ? 'prefix' : wire === 'messages' ? 'user_id' : 'prompt_cache_key';
  const key = ownKey === undefined ? sha256('prefix', wire, ...segments.slice(0, end + 1).map((segment) => segment.text)) : sha256(source, ownKey);
  const ttlS = body['prompt_cache_retention'] === '24h' ? retainedAffinityTtlS : pieces.longTtl ? extendedAffinityTtlS : defaultAffinityTtlS;
  return {
    key,
    source,
    ttlS,
    cacheableTokens,
    promptTokens: tokensOf(segments),
  };
}

/**
 * The affinity of a bare client key (a caller that has no wire body to hand, e.g. a pass-through
 * that read the key itself), its whole prompt counted cacheable; undefined below the minimum cached.
 */
export function cacheAffinityOfKey(clientKey: string, promptTokens: number): CacheAffinity | undefined {
  if (promptTokens < minimumCachedTokens) return undefined;
  return { key: sha256('client_key', clientKey), source: 'prompt_cache_key', ttlS: defaultAffinityTtlS, cacheableTokens: promptTokens, promptTokens };
}
