import {
  comparisonTypes,
  ruleRoutingTypes,
  type Comparison,
  type ComparisonType,
  type ConnectorInfo,
  type IfStatement,
  type NumberComparison,
  type Program,
  type RoutingAlgorithm,
  type Rule,
  type RuleOutput,
  type RuleRoutingType,
  type ValueType,
  type VolumeSplit,
} from '../ports/state/routing-algorithm.js';
import { readAbTestData } from './read-ab-test-data.js';
import { issue, type RuleValidationIssue } from './rule-validation-issue.js';

/**
 * The SHAPE half of parsing: turns an unknown JSON value into the typed model, or records an
 * `invalid_shape` issue wherever the body would not deserialize on the reference (missing required
 * field, wrong JSON type, unknown tag, number out of its integer range). Meaning (keys, enum values,
 * split sums) is checked afterwards by validate-routing-algorithm.ts. Unknown extra fields are
 * ignored, as serde does.
 */
export type ReadResult =
  | { readonly ok: true; readonly algorithm: RoutingAlgorithm }
  | { readonly ok: false; readonly unsupported: boolean; readonly issues: readonly RuleValidationIssue[] };

type Json = Readonly<Record<string, unknown>>;

class Reader {
  readonly issues: RuleValidationIssue[] = [];

  fail(path: string, detail: string): undefined {
    this.issues.push(issue('invalid_shape', path, detail));
    return undefined;
  }

  object(value: unknown, path: string): Json | undefined {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Json;
    return this.fail(path, `expected an object, got ${describe(value)}`);
  }

  array(value: unknown, path: string): readonly unknown[] | undefined {
    if (Array.isArray(value)) return value;
    return this.fail(path, `expected an array, got ${describe(value)}`);
  }

  string(value: unknown, path: string): string | undefined {
    if (typeof value === 'string') return value;
    return this.fail(path, `expected a string, got ${describe(value)}`);
  }

  /** An unsigned integer up to `max` (u8 splits: 255; u64 numbers: the largest safe integer). */
  unsigned(value: unknown, path: string, max: number): number | undefined {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max) return value;
    // The u64 bound is the largest safe integer: a 16-digit limit tells an operator nothing, so it goes unsaid.
    const wanted = max === Number.MAX_SAFE_INTEGER ? 'a whole number of 0 or more' : `a whole number from 0 to ${max}`;
    return this.fail(path, `expected ${wanted}, got ${describe(value)}`);
  }

  oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T | undefined {
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    return this.fail(path, `expected one of ${allowed.join(', ')}, got ${describe(value)}`);
  }

  /** Each element read with `read`; undefined if any element failed (the failures are recorded). */
  each<T>(values: readonly unknown[], path: string, read: (value: unknown, path: string) => T | undefined): T[] | undefined {
    const out: T[] = [];
    let failed = false;
    values.forEach((value, index) => {
      const item = read(value, `${path}[${index}]`);
      if (item === undefined) failed = true;
      else out.push(item);
    });
    return failed ? undefined : out;
  }

  connector = (value: unknown, path: string): ConnectorInfo | undefined => {
    const object = this.object(value, path);
    if (!object) return undefined;
    const name = this.string(object['gateway_name'], `${path}.gateway_name`);
    const rawId = object['gateway_id'];
    const id = rawId === undefined || rawId === null ? null : this.string(rawId, `${path}.gateway_id`);
    if (name === undefined || id === undefined) return undefined;
    return { gateway_name: name, gateway_id: id };
  };

  connectors = (value: unknown, path: string): ConnectorInfo[] | undefined => {
    const list = this.array(value, path);
    return list && this.each(list, path, this.connector);
  };

  split<T>(read: (value: unknown, path: string) => T | undefined) {
    return (value: unknown, path: string): VolumeSplit<T> | undefined => {
      const object = this.object(value, path);
      if (!object) return undefined;
      const split = this.unsigned(object['split'], `${path}.split`, 255);
      const output = read(object['output'], `${path}.output`);
      if (split === undefined || output === undefined) return undefined;
      return { split, output };
    };
  }

  splits<T>(value: unknown, path: string, read: (value: unknown, path: string) => T | undefined): VolumeSplit<T>[] | undefined {
    const list = this.array(value, path);
    return list && this.each(list, path, this.split(read));
  }

  output = (value: unknown, path: string): RuleOutput | undefined => {
    const object = this.object(value, path);
    if (!object) return undefined;
    const tags = Object.keys(object);
    if (tags.length !== 1) {
      return this.fail(path, `expected exactly one of single, priority, volume_split, volume_split_priority, got ${tags.length} keys`);
    }
    const tag = tags[0] as string;
    const inner = object[tag];
    switch (tag) {
      case 'single': {
        const single = this.connector(inner, `${path}.single`);
        return single && { single };
      }
      case 'priority': {
        const priority = this.connectors(inner, `${path}.priority`);
        return priority && { priority };
      }
      case 'volume_split': {
        const splits = this.splits(inner, `${path}.volume_split`, this.connector);
        return splits && { volume_split: splits };
      }
      case 'volume_split_priority': {
        const splits = this.splits(inner, `${path}.volume_split_priority`, this.connectors);
        return splits && { volume_split_priority: splits };
      }
      default:
        return this.fail(path, `unknown output kind ${describe(tag)}`);
    }
  };

  numberComparison = (value: unknown, path: string): NumberComparison | undefined => {
    const object = this.object(value, path);
    if (!object) return undefined;
    const comparisonType = this.oneOf(object['comparison_type'], comparisonTypes, `${path}.comparison_type`);
    const number = this.unsigned(object['number'], `${path}.number`, Number.MAX_SAFE_INTEGER);
    if (comparisonType === undefined || number === undefined) return undefined;
    return { comparison_type: comparisonType, number };
  };

  value = (raw: unknown, path: string): ValueType | undefined => {
    const object = this.object(raw, path);
    if (!object) return undefined;
    const type = object['type'];
    const value = object['value'];
    const at = `${path}.value`;
    switch (type) {
      case 'number': {
        const number = this.unsigned(value, at, Number.MAX_SAFE_INTEGER);
        return number === undefined ? undefined : { type, value: number };
      }
      case 'enum_variant':
      case 'str_value':
      case 'global_ref': {
        const text = this.string(value, at);
        return text === undefined ? undefined : { type, value: text };
      }
      case 'metadata_variant': {
        const pair = this.object(value, at);
        if (!pair) return undefined;
        const key = this.string(pair['key'], `${at}.key`);
        const text = this.string(pair['value'], `${at}.value`);
        return key === undefined || text === undefined ? undefined : { type, value: { key, value: text } };
      }
      case 'number_array': {
        const list = this.array(value, at);
        const numbers = list && this.each(list, at, (item, p) => this.unsigned(item, p, Number.MAX_SAFE_INTEGER));
        return numbers && { type, value: numbers };
      }
      case 'enum_variant_array': {
        const list = this.array(value, at);
        const texts = list && this.each(list, at, (item, p) => this.string(item, p));
        return texts && { type, value: texts };
      }
      case 'number_comparison_array': {
        const list = this.array(value, at);
        const comparisons = list && this.each(list, at, this.numberComparison);
        return comparisons && { type, value: comparisons };
      }
      default:
        return this.fail(`${path}.type`, `unknown value type ${describe(type)}`);
    }
  };

  comparison = (raw: unknown, path: string): Comparison | undefined => {
    const object = this.object(raw, path);
    if (!object) return undefined;
    const lhs = this.string(object['lhs'], `${path}.lhs`);
    const comparison = this.oneOf<ComparisonType>(object['comparison'], comparisonTypes, `${path}.comparison`);
    const value = this.value(object['value'], `${path}.value`);
    const rawMetadata = object['metadata'];
    const metadata = rawMetadata === undefined ? {} : this.object(rawMetadata, `${path}.metadata`);
    if (lhs === undefined || comparison === undefined || value === undefined || metadata === undefined) return undefined;
    return { lhs, comparison, value, metadata };
  };

  statement = (raw: unknown, path: string): IfStatement | undefined => {
    const object = this.object(raw, path);
    if (!object) return undefined;
    const list = this.array(object['condition'], `${path}.condition`);
    const condition = list && this.each(list, `${path}.condition`, this.comparison);
    const rawNested = object['nested'];
    if (rawNested === undefined || rawNested === null) return condition && { condition };
    const nestedList = this.array(rawNested, `${path}.nested`);
    const nested = nestedList && this.each(nestedList, `${path}.nested`, this.statement);
    if (condition === undefined || nested === undefined) return undefined;
    return { condition, nested };
  };

  /** A field that may arrive under its alias (`routingType`, `routingOutput`); both at once is an error, as in serde. */
  aliased(object: Json, name: string, alias: string, path: string): { present: boolean; value: unknown } {
    const hasName = object[name] !== undefined;
    const hasAlias = object[alias] !== undefined;
    if (hasName && hasAlias) {
      this.fail(`${path}.${name}`, `duplicate field: both '${name}' and '${alias}' given`);
      return { present: false, value: undefined };
    }
    if (!hasName && !hasAlias) {
      this.fail(`${path}.${name}`, 'missing field');
      return { present: false, value: undefined };
    }
    return { present: true, value: hasName ? object[name] : object[alias] };
  }

  rule = (raw: unknown, path: string): Rule | undefined => {
    const object = this.object(raw, path);
    if (!object) return undefined;
    const name = this.string(object['name'], `${path}.name`);
    const type = this.aliased(object, 'routing_type', 'routingType', path);
    const routingType = type.present ? this.oneOf<RuleRoutingType>(type.value, ruleRoutingTypes, `${path}.routing_type`) : undefined;
    const rawOutput = this.aliased(object, 'output', 'routingOutput', path);
    const output = rawOutput.present ? this.output(rawOutput.value, `${path}.output`) : undefined;
    const list = this.array(object['statements'], `${path}.statements`);
    const statements = list && this.each(list, `${path}.statements`, this.statement);
    if (name === undefined || routingType === undefined || output === undefined || statements === undefined) return undefined;
    return { name, routing_type: routingType, output, statements };
  };

  program = (raw: unknown, path: string): Program | undefined => {
    const object = this.object(raw, path);
    if (!object) return undefined;
    const rawGlobals = this.object(object['globals'], `${path}.globals`);
    let globals: Record<string, readonly ValueType[]> | undefined;
    if (rawGlobals) {
      // Null prototype: global names are user input and must not collide with Object.prototype.
      const built: Record<string, readonly ValueType[]> = Object.create(null) as Record<string, readonly ValueType[]>;
      let failed = false;
      for (const [name, members] of Object.entries(rawGlobals)) {
        const at = `${path}.globals.${name}`;
        const list = this.array(members, at);
        const values = list && this.each(list, at, this.value);
        if (values === undefined) failed = true;
        else built[name] = values;
      }
      globals = failed ? undefined : built;
    }
    const defaultSelection = this.output(object['default_selection'], `${path}.default_selection`);
    const ruleList = this.array(object['rules'], `${path}.rules`);
    const rules = ruleList && this.each(ruleList, `${path}.rules`, this.rule);
    if (globals === undefined || defaultSelection === undefined || rules === undefined) return undefined;
    return { globals, default_selection: defaultSelection, rules, metadata: object['metadata'] ?? null };
  };
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (missing field)';
  if (value === null) return 'null (no value)';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

/** Reads the `algorithm` object of `/routing/create` (`{"type": …, "data": …}`). */
export function readRoutingAlgorithm(input: unknown): ReadResult {
  const reader = new Reader();
  const object = reader.object(input, 'algorithm');
  if (!object) return { ok: false, unsupported: false, issues: reader.issues };
  const type = object['type'];
  const data = object['data'];
  let algorithm: RoutingAlgorithm | undefined;
  switch (type) {
    case 'single': {
      const connector = reader.connector(data, 'data');
      algorithm = connector && { type, data: connector };
      break;
    }
    case 'priority': {
      const connectors = reader.connectors(data, 'data');
      algorithm = connectors && { type, data: connectors };
      break;
    }
    case 'volume_split': {
      const splits = reader.splits(data, 'data', reader.connector);
      algorithm = splits && { type, data: splits };
      break;
    }
    case 'advanced': {
      const program = reader.program(data, 'data');
      algorithm = program && { type, data: program };
      break;
    }
    case 'ab_test': {
      const abTest = readAbTestData(data, reader.issues);
      algorithm = abTest && { type, data: abTest };
      break;
    }
    default:
      reader.fail(
        'type',
        type === 'volume_split_priority'
          ? "'volume_split_priority' is only an advanced rule output, not an algorithm type"
          : `expected one of single, priority, volume_split, advanced, ab_test, volume_contract, got ${describe(type)}`,
      );
  }
  if (algorithm === undefined || reader.issues.length > 0) return { ok: false, unsupported: false, issues: reader.issues };
  return { ok: true, algorithm };
}

/** Reads one `{"type","value"}` value (an evaluation parameter, for instance). */
export function readValueType(
  input: unknown,
  path: string,
): { readonly ok: true; readonly value: ValueType } | { readonly ok: false; readonly issues: readonly RuleValidationIssue[] } {
  const reader = new Reader();
  const value = reader.value(input, path);
  return value === undefined ? { ok: false, issues: reader.issues } : { ok: true, value };
}
