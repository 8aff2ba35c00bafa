import type { ConversationSnapshot, StoredConversationMessage } from '../../ports/state/conversation-store.js';
import { estimatePromptTokens } from '../gateway/route-rules.js';
import type { ConversationMemorySettings } from './conversation-memory-settings.js';

/** The instructions of the summarising call (exported so a test's fake provider can tell that call apart). */
export const SUMMARY_INSTRUCTIONS =
  'You keep the memory of a conversation between a user and an AI assistant. Write a concise summary of the conversation below ' +
  '(and of the earlier summary, when there is one) that keeps every name, fact, number, preference, decision and open question ' +
  'the assistant may need later. Answer with the summary only.';

/** How the summary is shown to the model: a system message before the remembered messages. */
export const SUMMARY_PREFIX = 'Summary of the earlier conversation in this session:\n';

/**
 * The older messages to fold into a summary before the call and the recent ones kept word for
 * word, or undefined when the remembered history is within the token budget (or too short to split).
 */
export function splitForSummary(
  snapshot: ConversationSnapshot,
  settings: Pick<ConversationMemorySettings, 'tokenBudget' | 'keepRecentTurns'>,
): { readonly older: readonly StoredConversationMessage[]; readonly recent: readonly StoredConversationMessage[] } | undefined {
  const remembered = (snapshot.summary ?? '') + snapshot.turns.map((turn) => turn.content).join('');
  const keep = settings.keepRecentTurns * 2;
  if (estimatePromptTokens(remembered) <= settings.tokenBudget || snapshot.turns.length <= keep) return undefined;
  const older = snapshot.turns.slice(0, snapshot.turns.length - keep);
  return { older, recent: snapshot.turns.slice(older.length) };
}

/** The user text of the summarising call: the earlier summary, then the older messages as a transcript. */
export function summaryCallText(previous: string | undefined, older: readonly StoredConversationMessage[]): string {
  const transcript = older.map((turn) => `${turn.role === 'user' ? 'User' : 'Assistant'}: ${turn.content}`).join('\n\n');
  return `${previous !== undefined ? `Earlier summary:\n${previous}\n\n` : ''}Conversation:\n${transcript}`;
}

/** What conversation memory adds to one call, before it is made (for its budget reservation). */
export interface MemoryInputPlan {
  /** Characters of remembered history the call carries (the summary, or at most its `maxTokens` worth, and the kept messages). */
  readonly historyCharacters: number;
  /** The summarising call made first when the history is over its budget: its input characters and output bound. */
  readonly summaryCall?: { readonly characters: number; readonly maxTokens: number; readonly model?: string };
}

/**
 * What a call of this session will be sent from memory, worked out from the snapshot exactly as
 * `ConversationMemory` builds it, without calling anything: a summary not yet written is counted
 * at its `summaryMaxTokens` bound (3 characters a token, the reservation's own rate).
 */
export function planMemoryInput(snapshot: ConversationSnapshot, settings: ConversationMemorySettings): MemoryInputPlan {
  const split = splitForSummary(snapshot, settings);
  const characters = (turns: readonly StoredConversationMessage[]) => turns.reduce((sum, turn) => sum + turn.content.length, 0);
  if (split === undefined) {
    const summary = snapshot.summary === undefined ? 0 : SUMMARY_PREFIX.length + snapshot.summary.length;
    return { historyCharacters: summary + characters(snapshot.turns) };
  }
  return {
    historyCharacters: SUMMARY_PREFIX.length + settings.summaryMaxTokens * 3 + characters(split.recent),
    summaryCall: {
      characters: SUMMARY_INSTRUCTIONS.length + summaryCallText(snapshot.summary, split.older).length,
      maxTokens: settings.summaryMaxTokens,
    },
  };
}
