import type { ComparisonType, ConnectorInfo, IfStatement, Rule, RoutingAlgorithm, RoutingKeyView, RuleOutput, ValueType } from '../api/server-types';

/**
 * The rule builder's editable form of a euclid algorithm: strings as typed, turned into the wire
 * shape by `toAlgorithm`. Checks that need the rules engine (key types, split sums, empty outputs)
 * are left to the API, whose messages the builder shows as they are.
 */
export interface SplitDraft {
  readonly split: string;
  /** One gateway (volume_split) or a comma-separated priority list (volume_split_priority). */
  readonly gateways: string;
}

export interface ConditionDraft {
  readonly lhs: string;
  readonly comparison: ComparisonType;
  readonly value: string;
  /** The metadata key of a udf condition (metadata_variant). */
  readonly metadataKey: string;
}

/** All `conditions` hold, and, when there are nested groups, at least one of them holds. */
export interface StatementDraft {
  readonly conditions: readonly ConditionDraft[];
  readonly nested: readonly StatementDraft[];
}

export type RuleRoutingType = Rule['routing_type'];

export interface RuleDraft {
  readonly name: string;
  readonly routingType: RuleRoutingType;
  /** Comma-separated gateways (priority output). */
  readonly priority: string;
  readonly splits: readonly SplitDraft[];
  /** Any one statement holding selects the rule (OR). */
  readonly statements: readonly StatementDraft[];
}

/** What the rule builder makes; experiments (`ab_test`) and volume contracts (`volume_contract`) are not rules it builds. */
export type AlgorithmType = Exclude<RoutingAlgorithm['type'], 'ab_test' | 'volume_contract'>;

export interface AlgorithmDraft {
  readonly type: AlgorithmType;
  readonly single: string;
  readonly priority: string;
  readonly splits: readonly SplitDraft[];
  readonly defaultSelection: string;
  readonly rules: readonly RuleDraft[];
}

export const emptyCondition = (lhs = 'amount'): ConditionDraft => ({ lhs, comparison: 'greater_than', value: '', metadataKey: '' });
export const emptyStatement = (): StatementDraft => ({ conditions: [emptyCondition()], nested: [] });
export const emptyRule = (index: number): RuleDraft => ({
  name: `Rule ${index + 1}`,
  routingType: 'priority',
  priority: '',
  splits: [{ split: '100', gateways: '' }],
  statements: [emptyStatement()],
});
export const emptyDraft = (): AlgorithmDraft => ({
  type: 'single',
  single: '',
  priority: '',
  splits: [
    { split: '50', gateways: '' },
    { split: '50', gateways: '' },
  ],
  defaultSelection: '',
  rules: [emptyRule(0)],
});

const connector = (name: string): ConnectorInfo => ({ gateway_name: name.trim(), gateway_id: null });
const connectors = (list: string): ConnectorInfo[] =>
  list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map(connector);
/** Not-a-number stays NaN on purpose: the API names the field and the problem. */
const number = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

/** The value a condition compares with, typed by its key (GET /config/routing-keys). */
export function valueOf(condition: ConditionDraft, key: RoutingKeyView | undefined): ValueType {
  switch (key?.type) {
    case 'integer':
      return { type: 'number', value: number(condition.value) };
    case 'enum':
      return { type: 'enum_variant', value: condition.value };
    case 'udf':
      return { type: 'metadata_variant', value: { key: condition.metadataKey, value: condition.value } };
    case 'global_ref':
      return { type: 'global_ref', value: condition.value };
    default:
      return { type: 'str_value', value: condition.value };
  }
}

function statementOf(draft: StatementDraft, keys: Readonly<Record<string, RoutingKeyView>>): IfStatement {
  return {
    condition: draft.conditions.map((condition) => ({
      lhs: condition.lhs,
      comparison: condition.comparison,
      value: valueOf(condition, keys[condition.lhs]),
      metadata: {},
    })),
    ...(draft.nested.length > 0 ? { nested: draft.nested.map((nested) => statementOf(nested, keys)) } : {}),
  };
}

function outputOf(rule: Pick<RuleDraft, 'routingType' | 'priority' | 'splits'>): RuleOutput {
  switch (rule.routingType) {
    case 'priority':
      return { priority: connectors(rule.priority) };
    case 'volume_split':
      return { volume_split: rule.splits.map((split) => ({ split: number(split.split), output: connector(split.gateways) })) };
    case 'volume_split_priority':
      return { volume_split_priority: rule.splits.map((split) => ({ split: number(split.split), output: connectors(split.gateways) })) };
  }
}

/** The algorithm body of POST /routing/create. */
export function toAlgorithm(draft: AlgorithmDraft, keys: Readonly<Record<string, RoutingKeyView>>): RoutingAlgorithm {
  switch (draft.type) {
    case 'single':
      return { type: 'single', data: connector(draft.single) };
    case 'priority':
      return { type: 'priority', data: connectors(draft.priority) };
    case 'volume_split':
      return { type: 'volume_split', data: draft.splits.map((split) => ({ split: number(split.split), output: connector(split.gateways) })) };
    case 'advanced':
      return {
        type: 'advanced',
        data: {
          globals: {},
          default_selection: { priority: connectors(draft.defaultSelection) },
          rules: draft.rules.map((rule) => ({
            name: rule.name,
            routing_type: rule.routingType,
            output: outputOf(rule),
            statements: rule.statements.map((statement) => statementOf(statement, keys)),
          })),
          metadata: null,
        },
      };
  }
}

/** Comparisons a key's type admits (the rules engine's table: enum, string and udf keys compare for equality only). */
export function comparisonsFor(key: RoutingKeyView | undefined): readonly ComparisonType[] {
  return key?.type === 'integer' ? ['equal', 'not_equal', 'less_than', 'less_than_equal', 'greater_than', 'greater_than_equal'] : ['equal', 'not_equal'];
}

export const comparisonLabels: Readonly<Record<ComparisonType, string>> = {
  equal: 'equals',
  not_equal: 'does not equal',
  less_than: 'is less than',
  less_than_equal: 'is at most',
  greater_than: 'is greater than',
  greater_than_equal: 'is at least',
};

/** Enum values of a key, as /config/routing-keys lists them ("a, b, c"). */
export const enumValues = (key: RoutingKeyView | undefined): string[] =>
  (key?.values ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
