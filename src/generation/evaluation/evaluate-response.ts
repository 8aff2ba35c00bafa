import { CallDeadline } from '../call-deadline.js';
import type { EvaluationData } from '../generate-result.js';
import type { LanguageModelClient } from '../language-model-client.js';
import { alertLevelFor } from './alert-level.js';
import { buildJudgePrompt, type JudgeQuestion } from './judge-prompt.js';
import { parseJudgeReply, type JudgeVerdict } from './parse-judge-reply.js';

/** 10 s: NeuroLink's `NEUROLINK_EVALUATION_TIMEOUT` default. */
export const DEFAULT_EVALUATION_TIMEOUT_MS = 10_000;
/** The minimum passing overall score when none is configured (`NEUROLINK_EVALUATION_THRESHOLD`). */
export const DEFAULT_EVALUATION_THRESHOLD = 7;

export interface EvaluationRequest extends JudgeQuestion {
  /** Makes the judge's client; may throw (e.g. the judge provider is not configured). */
  readonly judge: () => LanguageModelClient;
  readonly timeoutMs: number;
  /** Minimum passing overall score, 1–10 (default 7). */
  readonly threshold?: number;
  readonly clock: () => number;
}

function toEvaluation(
  verdict: JudgeVerdict,
  extra: { evaluationModel: string; evaluationProvider?: string; evaluationTime: number; request: EvaluationRequest },
): EvaluationData {
  const alert = alertLevelFor(verdict.overall, verdict.isOffTopic);
  return {
    relevanceScore: verdict.relevance,
    accuracyScore: verdict.accuracy,
    completenessScore: verdict.completeness,
    overallScore: verdict.overall,
    relevance: verdict.relevance,
    accuracy: verdict.accuracy,
    completeness: verdict.completeness,
    overall: verdict.overall,
    ...(verdict.domainAlignment !== undefined ? { domainAlignment: verdict.domainAlignment } : {}),
    ...(verdict.terminologyAccuracy !== undefined ? { terminologyAccuracy: verdict.terminologyAccuracy } : {}),
    ...(verdict.toolEffectiveness !== undefined ? { toolEffectiveness: verdict.toolEffectiveness } : {}),
    ...(verdict.suggestedImprovements !== undefined ? { suggestedImprovements: verdict.suggestedImprovements } : {}),
    alertLevel: alert,
    alertSeverity: alert,
    isOffTopic: verdict.isOffTopic,
    reasoning: verdict.reasoning,
    contextUtilization: {
      conversationUsed: extra.request.hasHistory,
      toolsUsed: extra.request.toolsUsed.length > 0,
      domainKnowledgeUsed: extra.request.domain !== undefined,
    },
    evaluationModel: extra.evaluationModel,
    ...(extra.evaluationProvider !== undefined ? { evaluationProvider: extra.evaluationProvider } : {}),
    evaluationTime: extra.evaluationTime,
    ...(extra.request.domain !== undefined ? { evaluationDomain: extra.request.domain } : {}),
    threshold: extra.request.threshold ?? DEFAULT_EVALUATION_THRESHOLD,
    passed: extra.evaluationModel !== 'default' && verdict.overall >= (extra.request.threshold ?? DEFAULT_EVALUATION_THRESHOLD),
  };
}

/**
 * Asks a judge model to score a response. Never throws: a judge that cannot be created, fails,
 * times out or answers unparseably yields a degraded result (every score 1, alert `low`,
 * `evaluationModel: 'default'`, `reasoning` naming the cause), so evaluation can never fail the
 * generate call it is attached to.
 */
export async function evaluateResponse(request: EvaluationRequest): Promise<EvaluationData> {
  const started = request.clock();
  const degraded = (cause: string): EvaluationData =>
    toEvaluation(
      { relevance: 1, accuracy: 1, completeness: 1, overall: 1, isOffTopic: false, reasoning: `Default evaluation used due to: ${cause}` },
      { evaluationModel: 'default', evaluationTime: Math.round(request.clock() - started), request },
    );
  const withLowAlert = (data: EvaluationData): EvaluationData => ({ ...data, alertLevel: 'low', alertSeverity: 'low' });

  let judge: LanguageModelClient;
  try {
    judge = request.judge();
  } catch (error) {
    return withLowAlert(degraded(`the judge could not be created: ${error instanceof Error ? error.message : String(error)}`));
  }
  const deadline = new CallDeadline(request.timeoutMs, undefined, judge.provider, 'generate');
  try {
    const reply = await deadline.race(
      judge.generate({
        messages: [{ role: 'user', content: buildJudgePrompt(request) }],
        // 0.1: scores should not vary between identical calls.
        temperature: 0.1,
        maxTokens: 500,
        maxSteps: 1,
        abortSignal: deadline.signal,
      }),
    );
    const verdict = parseJudgeReply(reply.text);
    if (verdict === undefined) return withLowAlert(degraded(`the judge (${judge.provider}/${judge.modelId}) answered without scores`));
    return toEvaluation(verdict, {
      evaluationModel: `${judge.provider}/${reply.modelId || judge.modelId}`,
      evaluationProvider: judge.provider,
      evaluationTime: Math.round(request.clock() - started),
      request,
    });
  } catch (error) {
    const mapped = deadline.mapError(error);
    return withLowAlert(degraded(`the judge (${judge.provider}/${judge.modelId}) failed: ${mapped instanceof Error ? mapped.message : String(mapped)}`));
  } finally {
    deadline.dispose();
  }
}
