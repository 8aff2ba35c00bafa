import { describe, expect, it } from 'vitest';
import { createSequenceRandom } from '../../../src/decision/random-source.js';
import { compileRoutingAlgorithm } from '../../../src/routing-rules/compile-routing-algorithm.js';
import { parseRoutingAlgorithm } from '../../../src/routing-rules/parse-routing-algorithm.js';
import type { ValueType } from '../../../src/ports/state/routing-algorithm.js';
import { routingKeyDefinitions, routingKeysView, type RoutingKeyDefinition } from '../../../src/routing-rules/routing-keys.js';
import { validateEvaluationParameters } from '../../../src/routing-rules/validate-evaluation-parameters.js';

/**
 * Walks EVERY key of the table that `GET /config/routing-keys` shows through create-time validation,
 * parameter validation and evaluation, so the keys view, the validator and the evaluator cannot drift.
 */

/** A value the key accepts, built from the key's own limits (a rule value and a matching parameter). */
function sampleFor(definition: RoutingKeyDefinition, variant: 'match' | 'other'): ValueType[] {
  switch (definition.type) {
    case 'integer': {
      const base = definition.minValue ?? 42;
      return [{ type: 'number', value: variant === 'match' ? base : base + 1 }];
    }
    case 'enum':
      // Every allowed value, so a value the view lists but the validator refuses would fail here.
      return definition.values.map((value) => ({ type: 'enum_variant', value }));
    case 'udf':
      return [{ type: 'metadata_variant', value: { key: 'segment', value: variant === 'match' ? 'vip' : 'new' } }];
    case 'str_value': {
      const length = definition.exactLength ?? Math.max(definition.minLength ?? 1, 4);
      const text = (variant === 'match' ? '4' : '5').repeat(length);
      if (definition.regex !== null) expect(new RegExp(definition.regex, 'u').test(text)).toBe(true);
      return [{ type: 'str_value', value: text }];
    }
    case 'global_ref':
      return [{ type: 'global_ref', value: 'anything' }];
  }
}

const algorithmFor = (lhs: string, value: ValueType, globals: Record<string, ValueType[]> = {}) => ({
  type: 'advanced',
  data: {
    globals,
    default_selection: { priority: [{ gateway_name: 'fallback_gateway', gateway_id: null }] },
    rules: [
      {
        name: `rule on ${lhs}`,
        routing_type: 'priority',
        output: { priority: [{ gateway_name: 'keyed_gateway', gateway_id: null }] },
        statements: [{ condition: [{ lhs, comparison: 'equal', value, metadata: {} }] }],
      },
    ],
    metadata: null,
  },
});

function evaluate(algorithmInput: unknown, parametersInput: unknown): string | null {
  const parsed = parseRoutingAlgorithm(algorithmInput);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const parameters = validateEvaluationParameters(parametersInput);
  if (!parameters.ok) throw new Error(parameters.message);
  const result = compileRoutingAlgorithm(parsed.algorithm).evaluate(parameters.parameters, createSequenceRandom([]));
  if (!result.ok) throw new Error(result.error.message);
  return result.evaluation.ruleName;
}

const keys = Object.entries(routingKeyDefinitions);

describe('every routing key', () => {
  it('is shown by the keys view with the same type', () => {
    const view = routingKeysView().keys;
    expect(Object.keys(view).sort()).toEqual(keys.map(([name]) => name).sort());
    for (const [name, definition] of keys) expect(view[name]?.type).toBe(definition.type);
  });

  it.each(keys)('%s: a rule on it is accepted, matches a suitable parameter and misses another', (name, definition) => {
    if (definition.type === 'global_ref') {
      const globals = { anything: [{ type: 'str_value', value: 'x' } as ValueType] };
      expect(evaluate(algorithmFor(name, { type: 'global_ref', value: 'anything' }, globals), { [name]: { type: 'str_value', value: 'x' } })).toBe(
        `rule on ${name}`,
      );
      return;
    }
    const matching = sampleFor(definition, 'match');
    for (const value of matching) {
      expect(evaluate(algorithmFor(name, value), { [name]: value })).toBe(`rule on ${name}`);
    }
    if (definition.type === 'enum') {
      // Every value in one array rule: each allowed parameter value matches it.
      const array: ValueType = { type: 'enum_variant_array', value: definition.values };
      for (const value of matching) expect(evaluate(algorithmFor(name, array), { [name]: value })).toBe(`rule on ${name}`);
      if (definition.values.length > 1) {
        expect(evaluate(algorithmFor(name, matching[0] as ValueType), { [name]: matching[1] })).toBeNull();
      }
      return;
    }
    const other = sampleFor(definition, 'other')[0];
    expect(evaluate(algorithmFor(name, matching[0] as ValueType), { [name]: other })).toBeNull();
    expect(evaluate(algorithmFor(name, matching[0] as ValueType), {})).toBeNull();
  });
});
