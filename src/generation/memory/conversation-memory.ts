import type { ConversationKey, ConversationSnapshot, ConversationStore, StoredConversationMessage } from '../../ports/state/conversation-store.js';
import { InvalidRequestError } from '../errors/provider-errors.js';
import type { ChainLink } from '../fallback-chain.js';
import type { ConversationTurn, GenerateOptions, StreamOptions } from '../generate-options.js';
import type { GenerateResult, StreamResult } from '../generate-result.js';
import type { ConversationMemorySettings } from './conversation-memory-settings.js';
import { planMemoryInput, splitForSummary, SUMMARY_INSTRUCTIONS, SUMMARY_PREFIX, summaryCallText, type MemoryInputPlan } from './memory-input-plan.js';

/** The generate/stream calls memory wraps (the toolkit's GenerationService). */
export interface GenerationCalls {
  generate(options: GenerateOptions | string, bound?: ChainLink | readonly ChainLink[]): Promise<GenerateResult>;
  stream(options: StreamOptions | string, bound?: ChainLink | readonly ChainLink[]): Promise<StreamResult>;
}

export interface ConversationMemoryDeps {
  readonly store: ConversationStore;
  readonly settings: ConversationMemorySettings;
  /** Where a summary that could not be made, or an exchange that could not be kept, is reported (the call itself goes on). */
  readonly warn: (message: string) => void;
}

export { SUMMARY_INSTRUCTIONS, SUMMARY_PREFIX };

const maxSessionIdLength = 256;

/** The session a call belongs to, or undefined when it carries no `context.sessionId`. */
export function sessionIdOf(options: GenerateOptions | string): string | undefined {
  if (typeof options === 'string') return undefined;
  const sessionId = options.context?.['sessionId'];
  if (sessionId === undefined) return undefined;
  if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > maxSessionIdLength) {
    throw new InvalidRequestError(`context.sessionId must be a non-empty string of at most ${maxSessionIdLength} characters`, 'toolkit', 'context.sessionId');
  }
  return sessionId;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

/**
 * Conversation memory across calls (issue 26). A call carrying `context.sessionId` gets the
 * session's remembered history put before its own `conversationHistory` (a summary of older
 * messages as a system message, then the recent messages word for word); its prompt and the
 * answer are appended once the answer is complete. Before the call, a history estimated above the
 * token budget has its older messages folded into the summary by one model call (same provider
 * and model unless settings name others), so the call itself carries the summary, not the old text.
 *
 * Sessions are scoped by the call's merchant (`attribution.merchantId`; '' for the library's own
 * calls), so another merchant's same session id is another conversation.
 */
export class ConversationMemory implements GenerationCalls {
  constructor(
    private readonly inner: GenerationCalls,
    private readonly deps: ConversationMemoryDeps,
  ) {}

  async generate(options: GenerateOptions | string, bound?: ChainLink | readonly ChainLink[]): Promise<GenerateResult> {
    const session = this.sessionOf(options);
    const text = typeof options === 'string' ? undefined : (options.input?.text ?? options.prompt);
    if (session === undefined || text === undefined || typeof options === 'string') return this.inner.generate(options, bound);
    const result = await this.inner.generate(await this.withHistory(session, options, bound), bound);
    await this.remember(session, text, result.content);
    return result;
  }

  async stream(options: StreamOptions | string, bound?: ChainLink | readonly ChainLink[]): Promise<StreamResult> {
    const session = this.sessionOf(options);
    const text = typeof options === 'string' ? undefined : (options.input?.text ?? options.prompt);
    if (session === undefined || text === undefined || typeof options === 'string') return this.inner.stream(options, bound);
    const result = await this.inner.stream(await this.withHistory(session, options, bound), bound);
    const remember = (content: string) => this.remember(session, text, content);
    // The exchange is kept when the stream has been read to its end (an abandoned stream has no answer),
    // before the reader's loop ends, so the next call of the session sees it.
    async function* remembered() {
      for await (const chunk of result.stream) yield chunk;
      await remember((await result.final).content);
    }
    return { ...result, stream: remembered() };
  }

  /**
   * What memory will add to this call (its history, and the summarising call made first when the
   * history is over budget), read without changing the session; nothing for a call without a session.
   */
  async plannedInput(options: GenerateOptions): Promise<MemoryInputPlan> {
    const session = this.sessionOf(options);
    if (session === undefined) return { historyCharacters: 0 };
    const plan = planMemoryInput(await this.deps.store.read(session), this.deps.settings);
    const { summaryProvider, summaryModel } = this.deps.settings;
    const model = summaryModel ?? (summaryProvider === undefined ? options.model : undefined);
    return plan.summaryCall === undefined || model === undefined ? plan : { ...plan, summaryCall: { ...plan.summaryCall, model } };
  }

  /** The session's remembered history as the library sees it (merchant scope ''). */
  read(key: ConversationKey): Promise<ConversationSnapshot> {
    return this.deps.store.read(key);
  }

  clear(key: ConversationKey): Promise<boolean> {
    return this.deps.store.clear(key);
  }

  private sessionOf(options: GenerateOptions | string): ConversationKey | undefined {
    const sessionId = sessionIdOf(options);
    if (sessionId === undefined || typeof options === 'string') return undefined;
    return { merchantId: options.attribution?.merchantId ?? '', sessionId };
  }

  private async withHistory<T extends GenerateOptions>(session: ConversationKey, options: T, bound: ChainLink | readonly ChainLink[] | undefined): Promise<T> {
    const snapshot = await this.compactIfOverBudget(session, await this.deps.store.read(session), options, bound);
    if (snapshot.summary === undefined && snapshot.turns.length === 0) return options;
    const remembered: ConversationTurn[] = [
      ...(snapshot.summary !== undefined ? [{ role: 'system' as const, content: `${SUMMARY_PREFIX}${snapshot.summary}` }] : []),
      ...snapshot.turns.map((turn) => ({ role: turn.role, content: turn.content })),
    ];
    return { ...options, conversationHistory: [...remembered, ...(options.conversationHistory ?? [])] };
  }

  private async compactIfOverBudget(
    session: ConversationKey,
    snapshot: ConversationSnapshot,
    options: GenerateOptions,
    bound: ChainLink | readonly ChainLink[] | undefined,
  ): Promise<ConversationSnapshot> {
    const { settings } = this.deps;
    const split = splitForSummary(snapshot, settings);
    if (split === undefined) return snapshot;
    const { older, recent } = split;
    let summary: string;
    try {
      // A pinned provider (or a route's candidates) answers the summary too, unless settings name a summariser.
      const summaryBound = this.deps.settings.summaryProvider === undefined ? bound : undefined;
      summary = (await this.inner.generate(this.summaryCall(snapshot.summary, older, options), summaryBound)).content.trim();
    } catch (error) {
      if (isAbort(error, options.abortSignal)) throw error;
      this.deps.warn(
        `conversation memory: the session's history could not be summarised, sent whole: ${error instanceof Error ? error.message : String(error)}`,
      );
      return snapshot;
    }
    if (summary === '') return snapshot;
    await this.deps.store.compact(session, summary, older.at(-1)!.seq, settings.ttlSeconds);
    return { summary, turns: recent };
  }

  /** One model call, tools off: the earlier summary and the older messages in, the new summary out. */
  private summaryCall(previous: string | undefined, older: readonly StoredConversationMessage[], options: GenerateOptions): GenerateOptions {
    const { settings } = this.deps;
    const text = summaryCallText(previous, older);
    const provider = settings.summaryProvider ?? options.provider;
    const model = settings.summaryModel ?? (settings.summaryProvider === undefined ? options.model : undefined);
    return {
      input: { text },
      systemPrompt: SUMMARY_INSTRUCTIONS,
      disableTools: true,
      temperature: 0.2,
      maxTokens: settings.summaryMaxTokens,
      ...(provider !== undefined ? { provider } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      ...(options.attribution !== undefined ? { attribution: options.attribution } : {}),
      ...(options.abortSignal !== undefined ? { abortSignal: options.abortSignal } : {}),
    };
  }

  private async remember(session: ConversationKey, text: string, answer: string): Promise<void> {
    const { settings } = this.deps;
    const bounds = { maxTurns: settings.maxTurnsPerSession * 2, maxBytes: settings.maxBytesPerSession, ttlS: settings.ttlSeconds };
    try {
      await this.deps.store.append(
        session,
        [
          { role: 'user', content: text },
          { role: 'assistant', content: answer },
        ],
        bounds,
      );
    } catch (error) {
      this.deps.warn(`conversation memory: the exchange could not be kept: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
