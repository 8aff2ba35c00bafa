import type {
  Comparison,
  ConnectorInfo,
  IfStatement,
  Program,
  RoutingAlgorithm,
  RuleOutput,
  ValueType,
  VolumeSplit,
} from '../ports/state/routing-algorithm.js';
import { routingKeyTable, type RoutingKeyDefinition, type RoutingKeyTable } from './routing-keys.js';
import { issue, quote, type RuleValidationIssue } from './rule-validation-issue.js';
import { validateAbTestData } from './validate-ab-test-data.js';

/**
 * The MEANING half of parsing: every condition checked against the routing-key table, every output
 * checked for connectors and split weights. Returns all problems, not the first, so one 400 lists them.
 *
 * Stricter than the reference on purpose: outputs must name at least one connector (with a non-empty
 * gateway_name) and volume split weights must add up to exactly 100; a rule's routing_type must agree
 * with its output. Comparison checks follow the reference's key types: enum keys take equal/not_equal
 * with enum_variant(_array); integer keys take number (all six operators), number_array (equal/
 * not_equal) and number_comparison_array (equal); udf keys take metadata_variant; str keys take
 * str_value with their length and regex limits. A global_ref may stand for the value of any key
 * (equal only), provided the global exists and each of its members is a valid value for that key.
 */
export function validateRoutingAlgorithm(algorithm: RoutingAlgorithm, keys: RoutingKeyTable = routingKeyTable): RuleValidationIssue[] {
  const issues: RuleValidationIssue[] = [];
  switch (algorithm.type) {
    case 'single':
      checkConnector(algorithm.data, 'data', issues);
      break;
    case 'priority':
      checkConnectorList(algorithm.data, 'data', issues);
      break;
    case 'volume_split':
      checkSplits(algorithm.data, 'data', issues, (connector, path) => checkConnector(connector, path, issues));
      break;
    case 'advanced':
      checkProgram(algorithm.data, keys, issues);
      break;
    case 'ab_test':
      issues.push(...validateAbTestData(algorithm.data));
      break;
    case 'volume_contract':
      break; // validated by its reader (src/volume-commitment/read-volume-contract.ts)
  }
  return issues;
}

function checkConnector(connector: ConnectorInfo, path: string, issues: RuleValidationIssue[]): void {
  if (connector.gateway_name.length === 0) issues.push(issue('empty_output', `${path}.gateway_name`, 'gateway_name is empty'));
}

function checkConnectorList(connectors: readonly ConnectorInfo[], path: string, issues: RuleValidationIssue[]): void {
  if (connectors.length === 0) issues.push(issue('empty_output', path, 'priority list is empty'));
  for (const [index, connector] of connectors.entries()) checkConnector(connector, `${path}[${index}]`, issues);
}

function checkSplits<T>(splits: readonly VolumeSplit<T>[], path: string, issues: RuleValidationIssue[], checkOutput: (output: T, path: string) => void): void {
  if (splits.length === 0) {
    issues.push(issue('empty_output', path, 'volume split list is empty'));
    return;
  }
  const total = splits.reduce((sum, entry) => sum + entry.split, 0);
  if (total !== 100) issues.push(issue('split_sum_not_100', path, `volume split percentages add up to ${total}, expected 100`));
  for (const [index, entry] of splits.entries()) checkOutput(entry.output, `${path}[${index}].output`);
}

function checkOutput(output: RuleOutput, path: string, issues: RuleValidationIssue[]): void {
  if ('single' in output) checkConnector(output.single, `${path}.single`, issues);
  else if ('priority' in output) checkConnectorList(output.priority, `${path}.priority`, issues);
  else if ('volume_split' in output) checkSplits(output.volume_split, `${path}.volume_split`, issues, (connector, at) => checkConnector(connector, at, issues));
  else checkSplits(output.volume_split_priority, `${path}.volume_split_priority`, issues, (connectors, at) => checkConnectorList(connectors, at, issues));
}

function outputKind(output: RuleOutput): string {
  return Object.keys(output)[0] as string;
}

function checkProgram(program: Program, keys: RoutingKeyTable, issues: RuleValidationIssue[]): void {
  checkOutput(program.default_selection, 'data.default_selection', issues);
  program.rules.forEach((rule, index) => {
    const path = `data.rules[${index}]`;
    const kind = outputKind(rule.output);
    const agrees = rule.routing_type === 'priority' ? kind === 'priority' || kind === 'single' : kind === rule.routing_type;
    if (!agrees) {
      issues.push(issue('routing_type_mismatch', `${path}.routing_type`, `routing_type '${rule.routing_type}' does not match a '${kind}' output`));
    }
    checkOutput(rule.output, `${path}.output`, issues);
    for (const [at, statement] of rule.statements.entries()) checkStatement(statement, `${path}.statements[${at}]`, program, keys, issues);
  });
}

function checkStatement(statement: IfStatement, path: string, program: Program, keys: RoutingKeyTable, issues: RuleValidationIssue[]): void {
  for (const [index, comparison] of statement.condition.entries()) checkComparison(comparison, `${path}.condition[${index}]`, program, keys, issues);
  for (const [index, nested] of (statement.nested ?? []).entries()) checkStatement(nested, `${path}.nested[${index}]`, program, keys, issues);
}

const equalityOnly = new Set(['equal', 'not_equal']);

function checkComparison(comparison: Comparison, path: string, program: Program, keys: RoutingKeyTable, issues: RuleValidationIssue[]): void {
  const { lhs, value } = comparison;
  const definition = keys.definition(lhs);
  if (definition === undefined) {
    issues.push(issue('unknown_key', `${path}.lhs`, `unknown key ${quote(lhs)}`));
    return;
  }
  if (value.type === 'global_ref') {
    if (comparison.comparison !== 'equal') {
      issues.push(issue('invalid_comparison', `${path}.comparison`, `'${comparison.comparison}' is not allowed with a global_ref (only equal)`));
    }
    const members = Object.hasOwn(program.globals, value.value) ? program.globals[value.value] : undefined;
    if (members === undefined) {
      issues.push(issue('unknown_global', `${path}.value`, `global ${quote(value.value)} is not defined in globals`));
      return;
    }
    if (definition.type === 'global_ref') return;
    for (const [index, member] of members.entries()) checkMember(lhs, definition, member, `data.globals.${value.value}[${index}]`, keys, issues);
    return;
  }
  if (definition.type === 'global_ref') {
    issues.push(issue('type_mismatch', `${path}.value`, `key ${quote(lhs)} is global_ref but the value is ${value.type}`));
    return;
  }
  const allowedComparison = (() => {
    switch (value.type) {
      case 'number':
        return true; // all six operators; a number on a non-integer key is reported as a type mismatch
      case 'number_comparison_array':
        return comparison.comparison === 'equal';
      default:
        return equalityOnly.has(comparison.comparison);
    }
  })();
  const typeOk = checkValueForKey(lhs, definition, value, `${path}.value`, keys, issues);
  if (typeOk && !allowedComparison) {
    issues.push(
      issue(
        'invalid_comparison',
        `${path}.comparison`,
        `'${comparison.comparison}' is not allowed for ${definition.type} key ${quote(lhs)} with a ${value.type} value (allowed: ${
          value.type === 'number_comparison_array' ? 'equal' : 'equal, not_equal'
        })`,
      ),
    );
  }
}

/** A global's member must be a plain value of the key's type (arrays make no sense in a membership set). */
function checkMember(
  lhs: string,
  definition: Exclude<RoutingKeyDefinition, { type: 'global_ref' }>,
  member: ValueType,
  path: string,
  keys: RoutingKeyTable,
  issues: RuleValidationIssue[],
): void {
  const scalar = member.type === 'number' || member.type === 'enum_variant' || member.type === 'metadata_variant' || member.type === 'str_value';
  if (!scalar) {
    issues.push(issue('type_mismatch', path, `global member for key ${quote(lhs)} must be a single value, got ${member.type}`));
    return;
  }
  checkValueForKey(lhs, definition, member, path, keys, issues);
}

const expectedTypes: Record<Exclude<RoutingKeyDefinition['type'], 'global_ref'>, string> = {
  enum: 'enum_variant or enum_variant_array',
  integer: 'number, number_array or number_comparison_array',
  udf: 'metadata_variant',
  str_value: 'str_value',
};

/** Type and limits of `value` for the key; returns whether the type fitted (limits are reported either way). */
function checkValueForKey(
  lhs: string,
  definition: Exclude<RoutingKeyDefinition, { type: 'global_ref' }>,
  value: ValueType,
  path: string,
  keys: RoutingKeyTable,
  issues: RuleValidationIssue[],
): boolean {
  const mismatch = (): false => {
    issues.push(issue('type_mismatch', path, `key ${quote(lhs)} is ${definition.type} and expects ${expectedTypes[definition.type]}, got ${value.type}`));
    return false;
  };
  switch (definition.type) {
    case 'enum': {
      const variants = value.type === 'enum_variant' ? [value.value] : value.type === 'enum_variant_array' ? value.value : undefined;
      if (variants === undefined) return mismatch();
      for (const variant of variants) {
        if (!keys.allowsEnumValue(lhs, variant)) {
          issues.push(issue('invalid_enum_value', path, `invalid enum value ${quote(variant)} for key ${quote(lhs)}`));
        }
      }
      return true;
    }
    case 'integer': {
      const numbers =
        value.type === 'number'
          ? [value.value]
          : value.type === 'number_array'
            ? value.value
            : value.type === 'number_comparison_array'
              ? value.value.map((entry) => entry.number)
              : undefined;
      if (numbers === undefined) return mismatch();
      for (const number of numbers) {
        if (definition.minValue !== null && number < definition.minValue) {
          issues.push(issue('value_out_of_range', path, `${number} for key ${quote(lhs)} is below min_value ${definition.minValue}`));
        }
        if (definition.maxValue !== null && number > definition.maxValue) {
          issues.push(issue('value_out_of_range', path, `${number} for key ${quote(lhs)} is above max_value ${definition.maxValue}`));
        }
      }
      return true;
    }
    case 'udf':
      return value.type === 'metadata_variant' ? true : mismatch();
    case 'str_value': {
      if (value.type !== 'str_value') return mismatch();
      checkString(lhs, definition, value.value, path, issues);
      return true;
    }
  }
}

const compiledPatterns = new Map<string, RegExp>();

function checkString(
  lhs: string,
  limits: Extract<RoutingKeyDefinition, { type: 'str_value' }>,
  text: string,
  path: string,
  issues: RuleValidationIssue[],
): void {
  // Length in code points (not UTF-16 units), so an emoji in issuer_name counts as one character.
  const length = [...text].length;
  if (limits.exactLength !== null && length !== limits.exactLength) {
    issues.push(issue('invalid_length', path, `${quote(text)} for key ${quote(lhs)} must be exactly ${limits.exactLength} characters, got ${length}`));
  }
  if (limits.minLength !== null && length < limits.minLength) {
    issues.push(issue('invalid_length', path, `${quote(text)} for key ${quote(lhs)} must be at least ${limits.minLength} characters, got ${length}`));
  }
  if (limits.maxLength !== null && length > limits.maxLength) {
    issues.push(issue('invalid_length', path, `${quote(text)} for key ${quote(lhs)} must be at most ${limits.maxLength} characters, got ${length}`));
  }
  if (limits.regex !== null) {
    let pattern = compiledPatterns.get(limits.regex);
    if (pattern === undefined) {
      pattern = new RegExp(limits.regex, 'u');
      compiledPatterns.set(limits.regex, pattern);
    }
    if (!pattern.test(text)) issues.push(issue('pattern_mismatch', path, `${quote(text)} for key ${quote(lhs)} does not match ${limits.regex}`));
  }
}
