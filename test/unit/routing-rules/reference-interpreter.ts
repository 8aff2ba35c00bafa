import type { RandomSource } from '../../../src/decision/random-source.js';
import type {
  Comparison,
  ConnectorInfo,
  EvaluationParameters,
  IfStatement,
  Program,
  RoutingAlgorithm,
  RuleOutput,
  ValueType,
} from '../../../src/ports/state/routing-algorithm.js';

/**
 * A deliberately naive tree-walking interpreter written straight from the reference's description
 * (decision-engine §2.7), used as the oracle for the compiled closures. It throws on an invalid
 * comparison (the compiled evaluator returns a value), and returns the same plain shape the property
 * test compares: the rule name, status and connector order, or 'InvalidComparison'.
 */
export type OracleResult = { ruleName: string | null; status: string; evaluated: ConnectorInfo[]; outputType: string } | 'InvalidComparison';

class Invalid extends Error {}

function sameValue(left: ValueType, right: ValueType): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

function compare(op: string, a: number, b: number): boolean {
  return op === 'equal'
    ? a === b
    : op === 'not_equal'
      ? a !== b
      : op === 'less_than'
        ? a < b
        : op === 'less_than_equal'
          ? a <= b
          : op === 'greater_than'
            ? a > b
            : a >= b;
}

function condition(c: Comparison, parameters: EvaluationParameters, program: Program): boolean {
  let actual = parameters[c.lhs];
  if (c.value.type === 'metadata_variant') {
    const byKey = Object.hasOwn(parameters, c.value.value.key) ? parameters[c.value.value.key] : undefined;
    if (byKey && byKey.type === 'metadata_variant') actual = byKey;
  }
  if (actual === undefined || actual === null) return false;
  const v = c.value;
  const op = c.comparison;
  if (actual.type === 'enum_variant' && v.type === 'enum_variant' && (op === 'equal' || op === 'not_equal'))
    return op === 'equal' ? actual.value === v.value : actual.value !== v.value;
  if (actual.type === 'enum_variant' && v.type === 'enum_variant_array' && (op === 'equal' || op === 'not_equal'))
    return op === 'equal' ? v.value.includes(actual.value) : !v.value.includes(actual.value);
  if (actual.type === 'number' && v.type === 'number') return compare(op, actual.value, v.value);
  if (actual.type === 'number' && v.type === 'number_array' && (op === 'equal' || op === 'not_equal'))
    return op === 'equal' ? v.value.includes(actual.value) : !v.value.includes(actual.value);
  if (actual.type === 'number' && v.type === 'number_comparison_array' && op === 'equal')
    return v.value.every((entry) => compare(entry.comparison_type, actual.value, entry.number));
  if (actual.type === 'metadata_variant' && v.type === 'metadata_variant' && (op === 'equal' || op === 'not_equal')) {
    const same = actual.value.key === v.value.key && actual.value.value === v.value.value;
    return op === 'equal' ? same : !same;
  }
  if (actual.type === 'str_value' && v.type === 'str_value' && (op === 'equal' || op === 'not_equal'))
    return op === 'equal' ? actual.value === v.value : actual.value !== v.value;
  if (v.type === 'global_ref' && op === 'equal') return (program.globals[v.value] ?? []).some((member) => sameValue(member, actual));
  throw new Invalid();
}

function statement(s: IfStatement, parameters: EvaluationParameters, program: Program): boolean {
  if (!s.condition.every((c) => condition(c, parameters, program))) return false;
  if (!s.nested) return true;
  return s.nested.some((inner) => statement(inner, parameters, program));
}

function pick(weights: number[], random: RandomSource): number {
  const total = weights.reduce((a, b) => a + b, 0);
  const target = random.next() * total;
  let running = 0;
  for (const [index, weight] of weights.entries()) {
    running += weight;
    if (target < running) return index;
  }
  return 0;
}

function outputOf(output: RuleOutput, random: RandomSource): { type: string; evaluated: ConnectorInfo[] } {
  if ('single' in output) return { type: 'straight_through', evaluated: [output.single] };
  if ('priority' in output) return { type: 'priority', evaluated: [...output.priority] };
  if ('volume_split' in output) {
    const winner = pick(
      output.volume_split.map((s) => s.split),
      random,
    );
    const items = output.volume_split.map((s) => s.output);
    return { type: 'volume_split', evaluated: [items[winner] as ConnectorInfo, ...items.filter((_, i) => i !== winner)] };
  }
  const winner = pick(
    output.volume_split_priority.map((s) => s.split),
    random,
  );
  const lists = output.volume_split_priority.map((s) => s.output);
  const flat = [lists[winner] ?? [], ...lists.filter((_, i) => i !== winner)].flat();
  const evaluated = flat.filter((c, i) => flat.findIndex((d) => d.gateway_name === c.gateway_name && (d.gateway_id ?? null) === (c.gateway_id ?? null)) === i);
  return { type: 'volume_split_priority', evaluated };
}

export function interpret(algorithm: RoutingAlgorithm, parameters: EvaluationParameters, random: RandomSource): OracleResult {
  const norm = (list: ConnectorInfo[]) => list.map((c) => ({ gateway_name: c.gateway_name, gateway_id: c.gateway_id ?? null }));
  if (algorithm.type === 'single')
    return { ruleName: 'straight_through_rule', status: 'success', outputType: 'straight_through', evaluated: norm([algorithm.data]) };
  if (algorithm.type === 'priority') return { ruleName: 'priority_rule', status: 'success', outputType: 'priority', evaluated: norm([...algorithm.data]) };
  if (algorithm.type === 'volume_split') {
    const out = outputOf({ volume_split: algorithm.data }, random);
    return { ruleName: 'volume_split_rule', status: 'success', outputType: out.type, evaluated: norm(out.evaluated) };
  }
  if (algorithm.type === 'ab_test' || algorithm.type === 'volume_contract') return 'InvalidComparison';
  const program = algorithm.data;
  try {
    for (const rule of program.rules) {
      if (rule.statements.some((s) => statement(s, parameters, program))) {
        const out = outputOf(rule.output, random);
        return { ruleName: rule.name, status: 'success', outputType: out.type, evaluated: norm(out.evaluated) };
      }
    }
  } catch (error) {
    if (error instanceof Invalid) return 'InvalidComparison';
    throw error;
  }
  const out = outputOf(program.default_selection, random);
  return { ruleName: null, status: 'default_selection', outputType: out.type, evaluated: norm(out.evaluated) };
}
