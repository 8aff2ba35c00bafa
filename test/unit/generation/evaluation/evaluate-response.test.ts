import { describe, expect, it } from 'vitest';
import { AIProviderError } from '../../../../src/generation/errors/ai-provider-error.js';
import { alertLevelFor } from '../../../../src/generation/evaluation/alert-level.js';
import { evaluateResponse } from '../../../../src/generation/evaluation/evaluate-response.js';
import { parseJudgeReply } from '../../../../src/generation/evaluation/parse-judge-reply.js';
import { ScriptedLanguageModel } from '../../../helpers/scripted-language-model.js';

const base = { query: 'What is 2+2?', response: '4', toolsUsed: [] as string[], hasHistory: false, timeoutMs: 1000, clock: () => performance.now() };

describe('parseJudgeReply', () => {
  it('reads the JSON object, clamping scores to 1..10', () => {
    const verdict = parseJudgeReply(
      'Sure! {"relevance": 12, "accuracy": 0, "completeness": 7.6, "overall": 8, "isOffTopic": false, "reasoning": "fine {really}"} done',
    );
    expect(verdict).toEqual({ relevance: 10, accuracy: 1, completeness: 8, overall: 8, isOffTopic: false, reasoning: 'fine {really}' });
  });

  it('accepts the *Score spelling and computes a missing overall as the mean', () => {
    expect(parseJudgeReply('{"relevanceScore": 9, "accuracyScore": 6, "completenessScore": 6}')?.overall).toBe(7);
  });

  it('falls back to the "Relevance: 8" text layout', () => {
    const verdict = parseJudgeReply('Relevance: 8\nAccuracy: 9\nCompleteness: 7\nOverall: 8\nReasoning: solid answer');
    expect(verdict).toMatchObject({ relevance: 8, accuracy: 9, completeness: 7, overall: 8, reasoning: 'solid answer' });
  });

  it('keeps optional enhanced scores when present', () => {
    expect(parseJudgeReply('{"relevance":8,"accuracy":8,"completeness":8,"toolEffectiveness":3}')).toMatchObject({ toolEffectiveness: 3, overall: 7 });
  });

  it('returns undefined when there are no scores at all', () => {
    expect(parseJudgeReply('I cannot grade this.')).toBeUndefined();
  });
});

describe('alertLevelFor', () => {
  it.each([
    [1, false, 'high'],
    [3, false, 'high'],
    [4, false, 'medium'],
    [5, false, 'medium'],
    [6, false, 'low'],
    [7, false, 'low'],
    [8, false, 'none'],
    [10, true, 'medium'],
    [7, true, 'medium'],
    [2, true, 'high'],
  ] as const)('overall %d, off-topic %s → %s', (overall, offTopic, level) => {
    expect(alertLevelFor(overall, offTopic)).toBe(level);
  });
});

describe('evaluateResponse', () => {
  it('scores with the judge and reports both spellings', async () => {
    const judge = new ScriptedLanguageModel('openai', 'gpt-judge', [
      { text: '{"relevance":9,"accuracy":9,"completeness":8,"overall":9,"isOffTopic":false,"reasoning":"correct"}' },
    ]);
    const evaluation = await evaluateResponse({ ...base, judge: () => judge, domain: 'math', toolsUsed: ['calculateMath'] });
    expect(evaluation).toMatchObject({
      relevanceScore: 9,
      relevance: 9,
      accuracyScore: 9,
      completenessScore: 8,
      overallScore: 9,
      overall: 9,
      alertLevel: 'none',
      alertSeverity: 'none',
      isOffTopic: false,
      reasoning: 'correct',
      evaluationModel: 'openai/gpt-judge',
      evaluationProvider: 'openai',
      evaluationDomain: 'math',
      contextUtilization: { conversationUsed: false, toolsUsed: true, domainKnowledgeUsed: true },
    });
    const prompt = judge.calls[0]?.messages[0]?.content as string;
    expect(prompt).toContain('What is 2+2?');
    expect(prompt).toContain('toolEffectiveness');
    expect(judge.calls[0]?.tools).toBeUndefined();
  });

  it('raises the alert for an off-topic answer', async () => {
    const judge = new ScriptedLanguageModel('openai', 'j', [
      { text: '{"relevance":9,"accuracy":9,"completeness":9,"overall":9,"isOffTopic":true,"reasoning":"about cats"}' },
    ]);
    expect((await evaluateResponse({ ...base, judge: () => judge })).alertLevel).toBe('medium');
  });

  it('degrades, naming the cause, when the judge fails', async () => {
    const judge = new ScriptedLanguageModel('openai', 'j', [{ error: new AIProviderError('judge exploded', 'openai', { statusCode: 500 }) }]);
    const evaluation = await evaluateResponse({ ...base, judge: () => judge });
    expect(evaluation).toMatchObject({ evaluationModel: 'default', overallScore: 1, alertLevel: 'low' });
    expect(evaluation.reasoning).toMatch(/Default evaluation used due to: the judge \(openai\/j\) failed: judge exploded/);
  });

  it('degrades when the judge times out, even if it ignores the abort signal', async () => {
    const judge = new ScriptedLanguageModel('openai', 'j', [{ hang: true, ignoreAbort: true }]);
    const evaluation = await evaluateResponse({ ...base, timeoutMs: 20, judge: () => judge });
    expect(evaluation.evaluationModel).toBe('default');
    expect(evaluation.reasoning).toMatch(/timed out after 20 ms/);
  });

  it('degrades when the judge cannot be created', async () => {
    const evaluation = await evaluateResponse({
      ...base,
      judge: () => {
        throw new Error('set GOOGLE_AI_API_KEY');
      },
    });
    expect(evaluation.reasoning).toMatch(/could not be created: set GOOGLE_AI_API_KEY/);
  });

  it('degrades when the judge answers without scores', async () => {
    const judge = new ScriptedLanguageModel('openai', 'j', [{ text: 'looks good to me' }]);
    expect((await evaluateResponse({ ...base, judge: () => judge })).reasoning).toMatch(/answered without scores/);
  });
});
