/**
 * Prompt-injection heuristics: a score in [0, 1] for a piece of text, from weighted signals that injected
 * instructions share (telling the model to ignore its instructions, to reveal its system prompt, to take a
 * new persona, chat-template control tokens, instructions addressed to "the AI" inside a document).
 *
 * Signals combine as independent evidence (1 − Π(1 − wᵢ)), so one strong signal or several weak ones cross
 * the threshold. This is a heuristic, not a classifier: it catches the common phrasings (OWASP LLM01), and
 * docs/guardrails.md says what it misses. The same score runs over user input (direct injection) and,
 * separately, over tool results and fetched documents (indirect injection), where text addressed to the
 * model is more suspicious, so a few signals weigh more there.
 */

interface Signal {
  readonly pattern: RegExp;
  readonly weight: number;
  /** Weight in tool results and documents, when it differs. */
  readonly indirectWeight?: number;
}

const signals: readonly Signal[] = [
  {
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}?\b(?:previous|prior|above|earlier|preceding|all|any|your|the|system)\b[^.\n]{0,30}?\b(?:instructions?|prompts?|rules|directions|guidelines|context|messages?)\b/i,
    weight: 0.7,
  },
  {
    pattern:
      /\b(?:reveal|print|show|repeat|output|leak|tell me)\b[^.\n]{0,30}?\b(?:system prompt|initial prompt|hidden (?:prompt|instructions)|your (?:instructions|prompt|rules))\b/i,
    weight: 0.6,
  },
  { pattern: /\byou are (?:now|no longer)\b|\bfrom now on,? you\b|\bact as (?:an? )?(?:unrestricted|unfiltered|jailbroken|evil)\b/i, weight: 0.45 },
  { pattern: /\b(?:DAN|do anything now|developer mode|jailbreak(?:ed)?|god mode)\b/i, weight: 0.45 },
  {
    pattern: /\bnew (?:instructions|rules|task)\s*:|\b(?:system|admin(?:istrator)?)\s*(?:override|instruction|message)\s*:/i,
    weight: 0.5,
    indirectWeight: 0.65,
  },
  { pattern: /<\|(?:im_start|im_end|system|endoftext)\|>|\[\/?INST\]|<<\/?SYS>>|^\s*#{2,}\s*(?:system|instruction)/im, weight: 0.55 },
  {
    pattern:
      /\b(?:AI|assistant|language model|LLM|chatbot)\b[^.\n]{0,20}?\b(?:must|should|needs? to)\b[^.\n]{0,40}?\b(?:ignore|instead|send|forward|email|call|execute|reveal)\b/i,
    weight: 0.3,
    indirectWeight: 0.6,
  },
  {
    pattern:
      /\b(?:send|forward|exfiltrate|upload|post)\b[^.\n]{0,40}?\b(?:api keys?|passwords?|credentials|secrets?|conversation|chat history)\b[^.\n]{0,30}?\b(?:to|at)\b/i,
    weight: 0.35,
    indirectWeight: 0.6,
  },
  { pattern: /!\[[^\]]*\]\(https?:\/\/[^)]*\?[^)]*=/i, weight: 0.1, indirectWeight: 0.4 },
  { pattern: /\bdo not (?:tell|inform|mention (?:this )?to) the user\b|\bwithout (?:telling|informing) the user\b/i, weight: 0.3, indirectWeight: 0.55 },
];

/** The injection score of `text`: 0 when no signal fires; `indirect` for tool results and documents. */
export function injectionScore(text: string, indirect: boolean): number {
  let remaining = 1;
  for (const signal of signals) {
    if (signal.pattern.test(text)) remaining *= 1 - (indirect ? (signal.indirectWeight ?? signal.weight) : signal.weight);
  }
  return Math.round((1 - remaining) * 1000) / 1000;
}
