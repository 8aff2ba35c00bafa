import type { AlgorithmDraft } from './algorithm-draft';

/**
 * The routing API's refusal of a rule body, read back into the builder's words. The API answers
 * decision-engine's envelope with one message, `Field validation failed: <issue>; <issue>` (or
 * `Invalid routing rule configuration: …` for a body of the wrong shape), each issue being
 * `<path in the algorithm>: <code>: <detail>` (src/routing-rules/rule-validation-issue.ts). The path
 * names a field of the builder: this module finds that field's id and says what is wrong with it
 * the way the form labels it ("Rule 1 “Big amounts”, group 1, condition 1 (amount)"), so the message
 * can sit under the field it is about.
 */
export interface FieldIssue {
  /** The builder control the issue is about (its element id), when the path names one. */
  readonly fieldId: string | undefined;
  /** The problem in words, starting with where it is. */
  readonly message: string;
}

const prefixes = ['Field validation failed: ', 'Invalid routing rule configuration: '];

/** The issues of a rule refusal, or undefined when the message is not one (shown as sent then). */
export function ruleIssuesOf(message: string, draft: AlgorithmDraft): FieldIssue[] | undefined {
  const prefix = prefixes.find((candidate) => message.startsWith(candidate));
  if (prefix === undefined) return undefined;
  const issues = message
    .slice(prefix.length)
    .split('; ')
    .map((part) => /^([\w.[\]]+): (\w+): (.*)$/s.exec(part));
  if (issues.some((match) => match === null)) return undefined;
  return issues.map((match) => {
    const [, path = '', code = '', detail = ''] = match as RegExpExecArray;
    const field = fieldOf(path, draft);
    const problem = problemText(code, detail);
    return { fieldId: field?.id, message: field === undefined ? `${path}: ${problem}` : `${field.label}: ${problem}` };
  });
}

interface Field {
  readonly id: string;
  readonly label: string;
}

/** `data.rules[0].statements[1].nested[0].condition[2].value.value` → the condition's value field, and how the form names it. */
function fieldOf(path: string, draft: AlgorithmDraft): Field | undefined {
  const steps = [...path.matchAll(/(\w+)(?:\[(\d+)\])?/g)].map(([, name = '', index]) => ({ name, index: index === undefined ? undefined : Number(index) }));
  if (steps[0]?.name !== 'data') return undefined;
  const rest = steps.slice(1);
  if (draft.type === 'single') return { id: 'single-gateway', label: 'Gateway' };
  if (draft.type === 'priority') return { id: 'priority-gateways', label: 'Gateways in order' };
  if (draft.type === 'volume_split') {
    const share = steps[0].index;
    if (share === undefined) return { id: 'split-s0-pct', label: 'Shares' };
    const onSplit = rest[0]?.name === 'split';
    return { id: `split-s${share}-${onSplit ? 'pct' : 'gw'}`, label: `Share ${share + 1}${onSplit ? ' (%)' : ', gateway'}` };
  }
  if (rest[0]?.name === 'default_selection') return { id: 'default-selection', label: 'Default gateways' };
  if (rest[0]?.name !== 'rules' || rest[0].index === undefined) return undefined;
  const ruleIndex = rest[0].index;
  const rule = draft.rules[ruleIndex];
  const ruleLabel = `Rule ${ruleIndex + 1}${rule === undefined || rule.name.trim() === '' ? '' : ` “${rule.name}”`}`;
  const id = `rule${ruleIndex}`;
  const inRule = rest.slice(1);
  if (inRule[0]?.name === 'name') return { id: `${id}-name`, label: `${ruleLabel}, name` };
  if (inRule[0]?.name === 'output' || inRule[0]?.name === 'routing_type') {
    const share = inRule.find((step) => step.name === 'volume_split' || step.name === 'volume_split_priority')?.index;
    if (share !== undefined) return { id: `${id}-s${share}-gw`, label: `${ruleLabel}, share ${share + 1}` };
    return { id: rule?.routingType === 'priority' ? `${id}-priority` : `${id}-output`, label: `${ruleLabel}, output` };
  }
  if (inRule[0]?.name !== 'statements' || inRule[0].index === undefined) return { id: `${id}-name`, label: ruleLabel };
  let groupId = `${id}-g${inRule[0].index}`;
  let groupLabel = `group ${inRule[0].index + 1}`;
  let statement = rule?.statements[inRule[0].index];
  for (const step of inRule.slice(1)) {
    if (step.name === 'nested' && step.index !== undefined) {
      groupId += `-n${step.index}`;
      groupLabel += `.${step.index + 1}`;
      statement = statement?.nested[step.index];
    } else if (step.name === 'condition' && step.index !== undefined) {
      const condition = statement?.conditions[step.index];
      const part = path.endsWith('.lhs') ? 'key' : path.includes('.comparison') ? 'comparison' : 'value';
      return {
        id: `${groupId}-c${step.index}-${part}`,
        label: `${ruleLabel}, ${groupLabel}, condition ${step.index + 1}${condition === undefined ? '' : ` (${condition.lhs})`}`,
      };
    }
  }
  return { id: `${groupId}-c0-key`, label: `${ruleLabel}, ${groupLabel}` };
}

/** What is wrong, in words: the API's detail keeps its facts, the shape jargon goes. */
function problemText(code: string, detail: string): string {
  const expected = /^expected (.+), got (.+)$/s.exec(detail);
  if (code === 'invalid_shape' && expected !== null) {
    const [, wanted = '', got = ''] = expected;
    // An empty number field is sent as null ("null (no value)"); a missing field reads "nothing (missing field)".
    const empty = got.startsWith('null') || got.startsWith('nothing');
    const want = wanted.startsWith('an integer') || wanted.startsWith('a whole number') ? 'a whole number, 0 or more' : wanted;
    return empty ? `enter ${want}; it is empty.` : `enter ${want}, not ${got}.`;
  }
  const sentence = detail.trim();
  return sentence === '' ? code.replaceAll('_', ' ') : `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}${/[.!?]$/.test(sentence) ? '' : '.'}`;
}
