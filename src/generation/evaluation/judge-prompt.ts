export interface JudgeQuestion {
  readonly query: string;
  readonly response: string;
  readonly domain?: string | undefined;
  readonly toolsUsed: readonly string[];
  readonly hasHistory: boolean;
}

/**
 * The instruction sent to the judge model. It asks for one JSON object so the answer parses
 * reliably; `parseJudgeReply` still accepts the older "Relevance: 8" text layout.
 */
export function buildJudgePrompt(question: JudgeQuestion): string {
  const enhanced = [
    question.domain !== undefined
      ? `- domainAlignment: how well it fits the domain "${question.domain}"\n- terminologyAccuracy: correct use of that domain's terms`
      : undefined,
    question.toolsUsed.length > 0 ? `- toolEffectiveness: how well the tools used (${question.toolsUsed.join(', ')}) served the answer` : undefined,
  ].filter((line): line is string => line !== undefined);
  return [
    "You are grading an AI assistant's answer. Score each criterion from 1 (worst) to 10 (best).",
    '',
    `User query:\n"""\n${question.query}\n"""`,
    '',
    `AI response:\n"""\n${question.response}\n"""`,
    '',
    'Criteria:',
    '- relevance: does it address the question?',
    '- accuracy: is the information correct and precise?',
    '- completeness: does it cover what was asked?',
    '- overall: general quality',
    ...enhanced,
    '- isOffTopic: true when the response does not address the query at all',
    '',
    'An answer that evades or refuses a question it could answer is a serious failure; score it low.',
    'Reply with ONLY one JSON object, no prose around it, like:',
    '{"relevance": 8, "accuracy": 7, "completeness": 9, "overall": 8, "isOffTopic": false, "reasoning": "at most 150 words", "suggestedImprovements": "optional"}',
  ].join('\n');
}
