/**
 * Admission check for a merchant's own regular expressions, run before one is accepted: a pattern that can
 * backtrack catastrophically would let one prompt stall the event loop for every tenant.
 *
 * The check is structural (the approach of the `safe-regex` family): it refuses nested quantifiers (star
 * height above one, `(a+)+`, `(a|b*)*`), a quantified group whose alternatives can match the same text
 * (`(a|a)*`, `(a|ab)*`), backreferences, and huge repetition bounds. It errs on the side of refusing: a
 * refused pattern can nearly always be written without the nesting.
 */

export type PatternVerdict = { readonly ok: true; readonly regex: RegExp } | { readonly ok: false; readonly reason: string };

/** Longest pattern accepted, in characters. */
const maxPatternLength = 512;
/** Largest `{n,m}` bound accepted. */
const maxRepeat = 1000;

export function checkPattern(source: string, flags = ''): PatternVerdict {
  if (source.length === 0) return { ok: false, reason: 'the pattern is empty' };
  if (source.length > maxPatternLength) return { ok: false, reason: `the pattern is longer than ${maxPatternLength} characters` };
  if (!/^[imsu]*$/.test(flags)) return { ok: false, reason: 'flags may only be i, m, s and u' };
  let regex: RegExp;
  try {
    regex = new RegExp(source, `${flags.replace(/[gy]/g, '')}g`);
  } catch (error) {
    return { ok: false, reason: `the pattern does not compile: ${error instanceof Error ? error.message : 'syntax error'}` };
  }
  if (/\\[1-9]|\\k</.test(source)) return { ok: false, reason: 'backreferences are not accepted' };
  const structure = analyse(source);
  if (structure !== undefined) return { ok: false, reason: structure };
  if (regex.test('')) return { ok: false, reason: 'the pattern matches the empty string' };
  regex.lastIndex = 0;
  return { ok: true, regex };
}

interface Group {
  /** Whether something inside this group is quantified. */
  quantifiedInside: boolean;
  alternatives: string[];
  current: string;
}

/** Walks the pattern once, tracking groups; answers the reason to refuse, or undefined. */
function analyse(source: string): string | undefined {
  const stack: Group[] = [{ quantifiedInside: false, alternatives: [], current: '' }];
  let index = 0;
  while (index < source.length) {
    const char = source.charAt(index);
    const top = stack[stack.length - 1]!;
    if (char === '\\') {
      top.current += source.slice(index, index + 2);
      index += 2;
      continue;
    }
    if (char === '[') {
      const end = classEnd(source, index);
      top.current += source.slice(index, end);
      index = end;
      continue;
    }
    if (char === '(') {
      stack.push({ quantifiedInside: false, alternatives: [], current: '' });
      index += source.startsWith('(?', index) ? groupPrefixLength(source, index) : 1;
      continue;
    }
    if (char === '|') {
      top.alternatives.push(top.current);
      top.current = '';
      index += 1;
      continue;
    }
    if (char === ')') {
      const closed = stack.pop()!;
      closed.alternatives.push(closed.current);
      const parent = stack[stack.length - 1]!;
      const quantifier = quantifierAt(source, index + 1);
      if (quantifier.bad !== undefined) return quantifier.bad;
      if (quantifier.length > 0 && quantifier.unbounded) {
        if (closed.quantifiedInside) return 'a quantified group holds another quantifier (nested quantifiers backtrack catastrophically)';
        if (overlapping(closed.alternatives)) return 'a quantified group has alternatives that can match the same text';
      }
      parent.quantifiedInside ||= closed.quantifiedInside || quantifier.length > 0;
      parent.current += `(${closed.alternatives.join('|')})`;
      index += 1 + quantifier.length;
      continue;
    }
    const quantifier = quantifierAt(source, index);
    if (quantifier.bad !== undefined) return quantifier.bad;
    if (quantifier.length > 0) {
      top.quantifiedInside = true;
      top.current += source.slice(index, index + quantifier.length);
      index += quantifier.length;
      continue;
    }
    top.current += char;
    index += 1;
  }
  return undefined;
}

function quantifierAt(source: string, index: number): { length: number; unbounded: boolean; bad?: string } {
  const char = source.charAt(index);
  if (char === '*' || char === '+') return { length: source.charAt(index + 1) === '?' ? 2 : 1, unbounded: true };
  if (char === '?') return { length: 1, unbounded: false };
  if (char === '{') {
    const bound = /^\{(\d+)(,(\d*))?\}\??/.exec(source.slice(index));
    if (bound === null) return { length: 0, unbounded: false };
    const upper = bound[2] === undefined ? Number(bound[1]) : bound[3] === '' ? Number.POSITIVE_INFINITY : Number(bound[3]);
    if (Number(bound[1]) > maxRepeat || (Number.isFinite(upper) && upper > maxRepeat))
      return { length: 0, unbounded: false, bad: `a repetition bound exceeds ${maxRepeat}` };
    return { length: bound[0].length, unbounded: upper > 1 };
  }
  return { length: 0, unbounded: false };
}

function classEnd(source: string, start: number): number {
  let index = start + 1;
  if (source.charAt(index) === '^') index += 1;
  if (source.charAt(index) === ']') index += 1;
  while (index < source.length && source.charAt(index) !== ']') index += source.charAt(index) === '\\' ? 2 : 1;
  return index + 1;
}

function groupPrefixLength(source: string, index: number): number {
  const prefix = /^\(\?(?::|=|!|<=|<!|<[A-Za-z_][A-Za-z0-9_]*>)/.exec(source.slice(index));
  return prefix === null ? 2 : prefix[0].length;
}

/** Alternatives that could match the same text: equal, or one a prefix of another, or one free (a class or escape) start each. */
function overlapping(alternatives: readonly string[]): boolean {
  if (alternatives.length < 2) return false;
  for (let left = 0; left < alternatives.length; left += 1) {
    for (let right = left + 1; right < alternatives.length; right += 1) {
      const a = alternatives[left] ?? '';
      const b = alternatives[right] ?? '';
      if (a === '' || b === '' || a.startsWith(b) || b.startsWith(a)) return true;
      if (/^[[\\.]/.test(a) || /^[[\\.]/.test(b)) return true;
    }
  }
  return false;
}
