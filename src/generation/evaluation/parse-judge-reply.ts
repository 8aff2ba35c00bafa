/** What the judge said, with every score clamped to 1..10 and rounded. */
export interface JudgeVerdict {
  readonly relevance: number;
  readonly accuracy: number;
  readonly completeness: number;
  readonly overall: number;
  readonly domainAlignment?: number;
  readonly terminologyAccuracy?: number;
  readonly toolEffectiveness?: number;
  readonly isOffTopic: boolean;
  readonly reasoning: string;
  readonly suggestedImprovements?: string;
}

const coreKeys = ['relevance', 'accuracy', 'completeness'] as const;
const enhancedKeys = ['domainAlignment', 'terminologyAccuracy', 'toolEffectiveness'] as const;

function clampScore(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return undefined;
  return Math.min(10, Math.max(1, Math.round(number)));
}

/** Finds the first balanced `{…}` in the text and parses it; `undefined` when there is none or it is not JSON. */
function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) {
        try {
          const parsed: unknown = JSON.parse(text.slice(start, index + 1));
          return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}

/** Reads a score from JSON under its short or `*Score` name. */
function fromJson(json: Record<string, unknown>, key: string): number | undefined {
  return clampScore(json[key] ?? json[`${key}Score`]);
}

function fromText(text: string, key: string): number | undefined {
  const match = new RegExp(`${key}\\s*(?:score)?["']?\\s*[:=]?\\s*(\\d+(?:\\.\\d+)?)`, 'i').exec(text);
  return match ? clampScore(match[1]) : undefined;
}

/**
 * Parses a judge's reply: the JSON object it was asked for, else the "Relevance: 8" text layout
 * (regexes). Returns `undefined` when no core score can be found at all, so the caller degrades
 * instead of inventing numbers. A missing `overall` is the rounded mean of the other scores.
 */
export function parseJudgeReply(text: string): JudgeVerdict | undefined {
  const json = extractJsonObject(text);
  const read = (key: string): number | undefined => (json !== undefined ? fromJson(json, key) : undefined) ?? fromText(text, key);
  const core = coreKeys.map((key) => read(key));
  if (core.every((score) => score === undefined)) return undefined;
  const [relevance = 1, accuracy = 1, completeness = 1] = core;
  const enhanced: Partial<Record<(typeof enhancedKeys)[number], number>> = {};
  for (const key of enhancedKeys) {
    const score = read(key);
    if (score !== undefined) enhanced[key] = score;
  }
  const present = [relevance, accuracy, completeness, ...Object.values(enhanced)];
  const overall = read('overall') ?? Math.round(present.reduce((sum, score) => sum + score, 0) / present.length);
  const offTopicRaw = json?.['isOffTopic'];
  const isOffTopic = offTopicRaw === true || offTopicRaw === 'true' || (json === undefined && /off[- ]?topic\s*[:=]\s*(true|yes)/i.test(text));
  const reasoningRaw = json?.['reasoning'] ?? /reasoning\s*[:=]\s*([\s\S]+)/i.exec(text)?.[1];
  const suggestions = json?.['suggestedImprovements'];
  return {
    relevance,
    accuracy,
    completeness,
    overall,
    ...enhanced,
    isOffTopic,
    reasoning: typeof reasoningRaw === 'string' && reasoningRaw.trim() !== '' ? reasoningRaw.trim() : 'No detailed reasoning provided',
    ...(typeof suggestions === 'string' && suggestions.trim() !== '' ? { suggestedImprovements: suggestions.trim() } : {}),
  };
}
