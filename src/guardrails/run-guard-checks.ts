import type { CompiledJudge, CompiledModeration } from './guard-policy.js';
import type { CheckedInput, GuardSession } from './guard-session.js';

/** One input's verdict from a moderation endpoint: flagged or not, per category, with scores. */
export interface ModerationVerdict {
  readonly flagged: boolean;
  readonly categories: Readonly<Record<string, boolean | null>>;
  readonly scores: Readonly<Record<string, number>>;
}

/** Whose call the checks run for: their provider calls use the merchant's credentials and are attributed to its key and request. */
export interface GuardCheckScope {
  readonly merchantId?: string | undefined;
  readonly apiKeyId?: string | undefined;
  readonly requestId?: string | undefined;
  /** The surface the call came through (its `llm.call` records say it); absent: the checks' own default. */
  readonly surface?: string | undefined;
}

/**
 * The provider calls behind the asynchronous guards, given by the composition (the provider layer):
 * `moderate` sends texts to a moderation endpoint, one verdict per text in order; `judge` asks a judge
 * model how likely one text carries a prompt injection (0–1) and records the call as an `llm.call`.
 * Either throws when its provider fails, is not configured or answers something unreadable.
 */
export interface GuardChecks {
  readonly moderate: (texts: readonly string[], model: string, scope: GuardCheckScope) => Promise<readonly ModerationVerdict[]>;
  readonly judge: (text: string, source: 'user' | 'tool', model: string, scope: GuardCheckScope) => Promise<number>;
}

/** At most this many texts go to the judge for one call (each is one paid model call). */
const maxJudgedTexts = 8;

/**
 * Runs a call's asynchronous guards (moderation, the injection judge) over the user and tool texts its input
 * walk collected (from index `from` on), recording their findings on the session (`blocked` is then read by the caller, as after
 * the walk). Front doors call it only when `session.policy.checksAsync`, so the defaults never await here.
 *
 * A check that fails (provider error, timeout, not configured) is fail-open unless its setting says
 * `onError: block`: the call goes on and the failure is evidence (`moderation-unavailable`,
 * `injection-judge-unavailable`, action `log`); fail-closed, the call is refused naming the guard.
 */
export async function runGuardChecks(session: GuardSession, checks: GuardChecks | undefined, scope: GuardCheckScope, from = 0): Promise<void> {
  // `from`: the texts collected before it were checked already (a tool result checked inside the tool loop).
  const inputs = from === 0 ? session.checkedInputs : session.checkedInputs.slice(from);
  const { moderation, judge } = session.policy;
  if (inputs.length === 0) return;
  await Promise.all([
    moderation === undefined ? undefined : moderate(session, checks, moderation, inputs, scope),
    judge === undefined ? undefined : judgeInputs(session, checks, judge, inputs, scope),
  ]);
}

async function moderate(
  session: GuardSession,
  checks: GuardChecks | undefined,
  moderation: CompiledModeration,
  inputs: readonly CheckedInput[],
  scope: GuardCheckScope,
): Promise<void> {
  let verdicts: readonly ModerationVerdict[];
  try {
    if (checks === undefined) throw new Error('no moderation provider on this surface');
    verdicts = await checks.moderate(
      inputs.map((input) => input.text),
      moderation.model,
      scope,
    );
  } catch {
    failed(session, 'moderation', moderation);
    return;
  }
  let count = 0;
  let top = 0;
  for (const verdict of verdicts) {
    const score = countedScore(verdict, moderation);
    if (score === undefined) continue;
    count += 1;
    top = Math.max(top, score);
  }
  if (count > 0) session.recordCheck('moderation', moderation.action, count, Math.round(top * 1000) / 1000);
}

/** The highest score among the categories that count for a verdict, or undefined when none counts. */
function countedScore(verdict: ModerationVerdict, moderation: CompiledModeration): number | undefined {
  const names = moderation.categories ?? Object.keys(verdict.scores);
  let counted: number | undefined;
  for (const name of names) {
    const score = verdict.scores[name] ?? 0;
    const hit = moderation.threshold !== undefined ? score >= moderation.threshold : verdict.categories[name] === true;
    if (hit) counted = Math.max(counted ?? 0, score);
  }
  // No category list and no threshold: the provider's own `flagged` decides.
  if (counted === undefined && moderation.categories === undefined && moderation.threshold === undefined && verdict.flagged) return 0;
  return counted;
}

async function judgeInputs(
  session: GuardSession,
  checks: GuardChecks | undefined,
  judge: CompiledJudge,
  inputs: readonly CheckedInput[],
  scope: GuardCheckScope,
): Promise<void> {
  // Inconclusive: the heuristics saw something, but not enough to reach their threshold.
  const judged = inputs
    .filter((input) => judge.always || (input.heuristicScore > 0 && input.heuristicScore < input.heuristicThreshold))
    .slice(0, maxJudgedTexts);
  if (judged.length === 0) return;
  let scores: number[];
  try {
    if (checks === undefined) throw new Error('no judge provider on this surface');
    scores = await Promise.all(judged.map((input) => checks.judge(input.text, input.source, judge.model, scope)));
  } catch {
    failed(session, 'injection-judge', judge);
    return;
  }
  const over = scores.filter((score) => score >= judge.threshold);
  if (over.length > 0) session.recordCheck('injection-judge', judge.action, over.length, Math.max(...over));
}

function failed(session: GuardSession, guard: 'moderation' | 'injection-judge', setting: { readonly failClosed: boolean }): void {
  if (setting.failClosed) session.recordCheck(guard, 'block', 1);
  else session.recordCheck(`${guard}-unavailable`, 'log', 1);
}
