import type { Comparison, ComparisonType, EvaluationParameters, IfStatement, ValueType } from '../ports/state/routing-algorithm.js';

/**
 * Conditions compiled into closures. A verdict is a small integer instead of a boolean so the one
 * expected failure (an incomparable parameter) travels up without throwing or allocating:
 * FALSE, TRUE, or INVALID (the reference's `InterpreterError::InvalidComparison`).
 */
export const FALSE = 0;
export const TRUE = 1;
export const INVALID = 2;
export type Verdict = typeof FALSE | typeof TRUE | typeof INVALID;

export type CompiledCondition = (parameters: EvaluationParameters) => Verdict;

/** Where an INVALID verdict came from; written by the failing closure, read by the evaluator. */
export interface InvalidSlot {
  lhs: string;
}

const verdict = (holds: boolean): Verdict => (holds ? TRUE : FALSE);

function compareNumbers(comparison: ComparisonType, left: number, right: number): boolean {
  switch (comparison) {
    case 'equal':
      return left === right;
    case 'not_equal':
      return left !== right;
    case 'less_than':
      return left < right;
    case 'less_than_equal':
      return left <= right;
    case 'greater_than':
      return left > right;
    case 'greater_than_equal':
      return left >= right;
  }
}

/** A canonical string for ValueType equality (tag and value), used for global_ref membership. */
export function valueIdentity(value: ValueType): string {
  switch (value.type) {
    case 'number':
    case 'enum_variant':
    case 'str_value':
    case 'global_ref':
      return `${value.type}:${value.value}`;
    default:
      return `${value.type}:${JSON.stringify(value.value)}`;
  }
}

/**
 * Compiles one condition. The comparison table is the reference interpreter's: enum vs enum
 * (equal/not_equal), enum vs enum array (equal = any, not_equal = none), number vs number (six
 * operators), number vs number array (equal = any, not_equal = none), number vs comparison array
 * (equal = every comparison holds), metadata vs metadata and str vs str (equal/not_equal), any value
 * vs global_ref (equal = membership). Every other pairing of parameter and rule value is INVALID. An
 * absent or null parameter makes the condition FALSE before any type is looked at.
 *
 * For a metadata_variant rule value the parameter is looked up under the metadata's own key first
 * (when that parameter is itself a metadata_variant), then under lhs, as decision-engine does; this
 * lets `{"lhs":"metadata","value":{"key":"tier",…}}` match a parameter sent as `"tier"` or as `"metadata"`.
 */
export function compileCondition(comparison: Comparison, globals: Readonly<Record<string, readonly ValueType[]>>, slot: InvalidSlot): CompiledCondition {
  const { lhs, value } = comparison;
  const op = comparison.comparison;
  const invalid = (): Verdict => {
    slot.lhs = lhs;
    return INVALID;
  };
  const isEqual = op === 'equal';
  const isNotEqual = op === 'not_equal';
  const equality = isEqual || isNotEqual;

  switch (value.type) {
    case 'enum_variant': {
      const expected = value.value;
      if (!equality) return (parameters) => (parameters[lhs] == null ? FALSE : invalid());
      return (parameters) => {
        const actual = parameters[lhs];
        if (actual == null) return FALSE;
        if (actual.type !== 'enum_variant') return invalid();
        return verdict((actual.value === expected) === isEqual);
      };
    }
    case 'enum_variant_array': {
      const members = new Set(value.value);
      if (!equality) return (parameters) => (parameters[lhs] == null ? FALSE : invalid());
      return (parameters) => {
        const actual = parameters[lhs];
        if (actual == null) return FALSE;
        if (actual.type !== 'enum_variant') return invalid();
        return verdict(members.has(actual.value) === isEqual);
      };
    }
    case 'number': {
      const expected = value.value;
      return (parameters) => {
        const actual = parameters[lhs];
        if (actual == null) return FALSE;
        if (actual.type !== 'number') return invalid();
        return verdict(compareNumbers(op, actual.value, expected));
      };
    }
    case 'number_array': {
      const members = new Set(value.value);
      if (!equality) return (parameters) => (parameters[lhs] == null ? FALSE : invalid());
      return (parameters) => {
        const actual = parameters[lhs];
        if (actual == null) return FALSE;
        if (actual.type !== 'number') return invalid();
        return verdict(members.has(actual.value) === isEqual);
      };
    }
    case 'number_comparison_array': {
      const checks = value.value.map((entry) => ({ comparison: entry.comparison_type, number: entry.number }));
      if (!isEqual) return (parameters) => (parameters[lhs] == null ? FALSE : invalid());
      return (parameters) => {
        const actual = parameters[lhs];
        if (actual == null) return FALSE;
        if (actual.type !== 'number') return invalid();
        for (const check of checks) if (!compareNumbers(check.comparison, actual.value, check.number)) return FALSE;
        return TRUE;
      };
    }
    case 'metadata_variant': {
      const { key, value: expected } = value.value;
      const lookup = (parameters: EvaluationParameters): ValueType | null | undefined => {
        if (key !== lhs && Object.hasOwn(parameters, key)) {
          const byKey = parameters[key];
          if (byKey != null && byKey.type === 'metadata_variant') return byKey;
        }
        return parameters[lhs];
      };
      if (!equality) return (parameters) => (lookup(parameters) == null ? FALSE : invalid());
      return (parameters) => {
        const actual = lookup(parameters);
        if (actual == null) return FALSE;
        if (actual.type !== 'metadata_variant') return invalid();
        return verdict((actual.value.key === key && actual.value.value === expected) === isEqual);
      };
    }
    case 'str_value': {
      const expected = value.value;
      if (!equality) return (parameters) => (parameters[lhs] == null ? FALSE : invalid());
      return (parameters) => {
        const actual = parameters[lhs];
        if (actual == null) return FALSE;
        if (actual.type !== 'str_value') return invalid();
        return verdict((actual.value === expected) === isEqual);
      };
    }
    case 'global_ref': {
      const members = Object.hasOwn(globals, value.value) ? (globals[value.value] ?? []) : [];
      const identities = new Set(members.map(valueIdentity));
      if (!isEqual) return (parameters) => (parameters[lhs] == null ? FALSE : invalid());
      return (parameters) => {
        const actual = parameters[lhs];
        if (actual == null) return FALSE;
        return verdict(identities.has(valueIdentity(actual)));
      };
    }
  }
}

export type CompiledStatement = (parameters: EvaluationParameters) => Verdict;

/** ALL conditions, then (if nested is present) ANY nested statement, recursively; INVALID short-circuits. */
export function compileStatement(statement: IfStatement, globals: Readonly<Record<string, readonly ValueType[]>>, slot: InvalidSlot): CompiledStatement {
  const conditions = statement.condition.map((comparison) => compileCondition(comparison, globals, slot));
  const nested = statement.nested?.map((inner) => compileStatement(inner, globals, slot));
  const count = conditions.length;
  return (parameters) => {
    for (let index = 0; index < count; index++) {
      const result = (conditions[index] as CompiledCondition)(parameters);
      if (result !== TRUE) return result;
    }
    if (nested === undefined) return TRUE;
    return anyOf(nested, parameters);
  };
}

/** ANY of `statements` holds (a rule's statements, or a statement's nested list); INVALID short-circuits. */
export function anyOf(statements: readonly CompiledStatement[], parameters: EvaluationParameters): Verdict {
  for (let index = 0; index < statements.length; index++) {
    const result = (statements[index] as CompiledStatement)(parameters);
    if (result !== FALSE) return result;
  }
  return FALSE;
}
