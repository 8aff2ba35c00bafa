import { ConfigurationError } from '../errors/provider-errors.js';
import { normalizeProviderName, type ProviderName } from '../provider-name.js';

/**
 * How the toolkit remembers conversations (issue 26). A call takes part when it carries a session
 * id (`context.sessionId`); "turn" here is one exchange (the user's message and the answer), as in
 * NeuroLink's `maxTurnsPerSession`.
 */
export interface ConversationMemorySettings {
  /** False: session ids are only echoed into analytics, nothing is remembered (default true). */
  readonly enabled: boolean;
  /** Exchanges kept per session at most; the oldest go first (default 50). */
  readonly maxTurnsPerSession: number;
  /** Bytes (UTF-8) of remembered messages per session at most; the oldest go first (default 256 KiB). */
  readonly maxBytesPerSession: number;
  /** A session is forgotten this long after its last call (default 24 h). */
  readonly ttlSeconds: number;
  /**
   * When the remembered history (summary and messages) is estimated above this many tokens
   * (~4 characters a token), the older messages are summarised by one model call before the next
   * call is sent (default 4000).
   */
  readonly tokenBudget: number;
  /** Exchanges kept word for word beside the summary when summarising (default 3). */
  readonly keepRecentTurns: number;
  /** `maxTokens` of the summarising call (default 500). */
  readonly summaryMaxTokens: number;
  /** Provider and model of the summarising call; default: those of the call that needed it. */
  readonly summaryProvider?: ProviderName;
  readonly summaryModel?: string;
  /** Sessions the embedded (in-memory) store keeps at most (default 10,000); Redis bounds by TTL. */
  readonly maxSessions: number;
}

export const defaultConversationMemorySettings: ConversationMemorySettings = {
  enabled: true,
  maxTurnsPerSession: 50,
  maxBytesPerSession: 256 * 1024,
  ttlSeconds: 86_400,
  tokenBudget: 4000,
  keepRecentTurns: 3,
  summaryMaxTokens: 500,
  maxSessions: 10_000,
};

/** What `new NeuroLink({ conversationMemory })` takes: any setting, the rest from the environment or defaults. */
export type ConversationMemoryOptions = Partial<ConversationMemorySettings>;

const falsy = new Set(['0', 'false', 'no', 'off']);
const durationPattern = /^(\d+)(s|m|h|d)?$/;
const unitSeconds = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

function positiveInteger(env: Readonly<Record<string, string | undefined>>, name: string, min = 1): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) throw new ConfigurationError(`${name}="${text}" must be an integer of at least ${min}`, 'toolkit');
  return value;
}

function duration(env: Readonly<Record<string, string | undefined>>, name: string): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const match = durationPattern.exec(text);
  const seconds = match === null ? Number.NaN : Number(match[1]) * unitSeconds[(match[2] ?? 's') as keyof typeof unitSeconds];
  if (!Number.isSafeInteger(seconds) || seconds < 1) throw new ConfigurationError(`${name}="${text}" must be seconds or text like 30m, 24h, 7d`, 'toolkit');
  return seconds;
}

/**
 * The settings from `NEUROLINK_MEMORY_*` variables (an environment record, never `process.env`),
 * then `options` over them. A bad value fails naming the variable or option.
 */
export function readConversationMemorySettings(
  env: Readonly<Record<string, string | undefined>>,
  options: ConversationMemoryOptions = {},
): ConversationMemorySettings {
  const enabledText = env['NEUROLINK_MEMORY_ENABLED']?.trim().toLowerCase();
  const providerText = env['NEUROLINK_MEMORY_SUMMARY_PROVIDER']?.trim();
  const provider = providerText ? normalizeProviderName(providerText) : undefined;
  if (providerText && (provider === undefined || provider === 'auto')) {
    throw new ConfigurationError(`NEUROLINK_MEMORY_SUMMARY_PROVIDER="${providerText}" names no provider`, 'toolkit');
  }
  const fromEnv: ConversationMemoryOptions = {
    ...(enabledText ? { enabled: !falsy.has(enabledText) } : {}),
    ...definedOnly({
      maxTurnsPerSession: positiveInteger(env, 'NEUROLINK_MEMORY_MAX_TURNS_PER_SESSION'),
      maxBytesPerSession: positiveInteger(env, 'NEUROLINK_MEMORY_MAX_BYTES_PER_SESSION'),
      ttlSeconds: duration(env, 'NEUROLINK_MEMORY_TTL'),
      tokenBudget: positiveInteger(env, 'NEUROLINK_MEMORY_TOKEN_BUDGET'),
      keepRecentTurns: positiveInteger(env, 'NEUROLINK_MEMORY_KEEP_RECENT_TURNS', 0),
      summaryMaxTokens: positiveInteger(env, 'NEUROLINK_MEMORY_SUMMARY_MAX_TOKENS'),
      summaryProvider: provider === 'auto' ? undefined : provider,
      summaryModel: env['NEUROLINK_MEMORY_SUMMARY_MODEL']?.trim() || undefined,
      maxSessions: positiveInteger(env, 'NEUROLINK_MEMORY_MAX_SESSIONS'),
    }),
  };
  const settings = { ...defaultConversationMemorySettings, ...fromEnv, ...definedOnly(options) };
  for (const name of ['maxTurnsPerSession', 'maxBytesPerSession', 'ttlSeconds', 'tokenBudget', 'summaryMaxTokens', 'maxSessions'] as const) {
    if (!Number.isSafeInteger(settings[name]) || settings[name] < 1) {
      throw new ConfigurationError(`conversationMemory.${name} must be an integer of at least 1`, 'toolkit');
    }
  }
  if (!Number.isSafeInteger(settings.keepRecentTurns) || settings.keepRecentTurns < 0) {
    throw new ConfigurationError('conversationMemory.keepRecentTurns must be an integer of at least 0', 'toolkit');
  }
  return settings;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
