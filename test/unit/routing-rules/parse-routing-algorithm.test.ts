import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRoutingAlgorithm } from '../../../src/routing-rules/parse-routing-algorithm.js';
import { createRoutingKeyTable } from '../../../src/routing-rules/routing-keys.js';

const stripe = { gateway_name: 'stripe', gateway_id: 'mca_stripe' };
const checkout = { gateway_name: 'checkout', gateway_id: null };

function condition(lhs: unknown, comparison: string, value: unknown) {
  return { lhs, comparison, value, metadata: {} };
}

/** An advanced algorithm with one priority rule holding `conditions`, plus overrides of the program. */
function advanced(conditions: unknown[], program: Record<string, unknown> = {}) {
  return {
    type: 'advanced',
    data: {
      globals: {},
      default_selection: { priority: [stripe] },
      rules: [{ name: 'r1', routing_type: 'priority', output: { priority: [checkout] }, statements: [{ condition: conditions }] }],
      metadata: null,
      ...program,
    },
  };
}

function errorsOf(input: unknown): { kind: string; errors: readonly string[]; codes: string[] } {
  const result = parseRoutingAlgorithm(input);
  if (result.ok) throw new Error('expected a rejection');
  return { kind: result.kind, errors: result.errors, codes: result.issues.map((entry) => entry.code) };
}

describe('parseRoutingAlgorithm: static algorithms', () => {
  it('accepts single and fills a missing gateway_id with null', () => {
    expect(parseRoutingAlgorithm({ type: 'single', data: { gateway_name: 'stripe' } })).toEqual({
      ok: true,
      algorithm: { type: 'single', data: { gateway_name: 'stripe', gateway_id: null } },
    });
  });

  it('accepts priority in order', () => {
    const result = parseRoutingAlgorithm({ type: 'priority', data: [stripe, checkout] });
    expect(result).toEqual({ ok: true, algorithm: { type: 'priority', data: [stripe, checkout] } });
  });

  it('accepts volume_split keyed by output with weights adding up to 100', () => {
    const data = [
      { split: 70, output: stripe },
      { split: 30, output: checkout },
    ];
    expect(parseRoutingAlgorithm({ type: 'volume_split', data })).toEqual({ ok: true, algorithm: { type: 'volume_split', data } });
  });

  it('ignores unknown extra fields, as the reference does', () => {
    const result = parseRoutingAlgorithm({ type: 'single', data: { ...stripe, extra: 1 }, other: true });
    expect(result).toEqual({ ok: true, algorithm: { type: 'single', data: stripe } });
  });

  it('rejects an empty priority list as a semantic problem', () => {
    expect(errorsOf({ type: 'priority', data: [] })).toEqual({
      kind: 'semantic',
      errors: ['data: empty_output: priority list is empty'],
      codes: ['empty_output'],
    });
  });

  it('rejects volume splits that do not add up to 100, naming the sum', () => {
    const rejected = errorsOf({
      type: 'volume_split',
      data: [
        { split: 70, output: stripe },
        { split: 20, output: checkout },
      ],
    });
    expect(rejected.kind).toBe('semantic');
    expect(rejected.errors).toEqual(['data: split_sum_not_100: volume split percentages add up to 90, expected 100']);
  });

  it('rejects an empty volume split list and an empty gateway name', () => {
    expect(errorsOf({ type: 'volume_split', data: [] }).codes).toEqual(['empty_output']);
    expect(errorsOf({ type: 'single', data: { gateway_name: '' } }).errors).toEqual(['data.gateway_name: empty_output: gateway_name is empty']);
  });

  it('rejects the 1.4.0 spec example shape (connectors instead of output) as a shape error', () => {
    const rejected = errorsOf({ type: 'volume_split', data: [{ split: 100, connectors: [stripe] }] });
    expect(rejected.kind).toBe('shape');
    expect(rejected.errors[0]).toMatch(/^data\[0\]\.output: invalid_shape: expected an object/);
  });

  it('rejects a split outside u8 as a shape error', () => {
    expect(errorsOf({ type: 'volume_split', data: [{ split: 256, output: stripe }] }).kind).toBe('shape');
    expect(errorsOf({ type: 'volume_split', data: [{ split: -1, output: stripe }] }).kind).toBe('shape');
    expect(errorsOf({ type: 'volume_split', data: [{ split: 50.5, output: stripe }] }).kind).toBe('shape');
  });
});

describe('parseRoutingAlgorithm: algorithm type', () => {
  it('reads an incomplete ab_test as a shape error naming each missing field', () => {
    const rejected = errorsOf({ type: 'ab_test', data: { control_algorithm_id: 'a' } });
    expect(rejected.kind).toBe('shape');
    expect(rejected.errors).toEqual([
      'data.variant_algorithm_id: invalid_shape: expected a string, got nothing (missing field)',
      'data.variant_split_pct: invalid_shape: expected an integer, got nothing (missing field)',
      'data.min_sample_size: invalid_shape: expected an integer, got nothing (missing field)',
      'data.guardrail_threshold_pp: invalid_shape: expected a number, got nothing (missing field)',
    ]);
  });

  it('accepts a complete ab_test and checks its ranges as meaning', () => {
    const data = {
      control_algorithm_id: 'sr_routing',
      variant_algorithm_id: 'sr_routing',
      variant_split_pct: 50,
      min_sample_size: 100,
      guardrail_threshold_pp: 3,
    };
    expect(errorsOf({ type: 'ab_test', data })).toEqual({
      kind: 'semantic',
      errors: ['data.variant_split_pct: value_out_of_range: 50 is outside 1–49 (the variant must be the minority arm)'],
      codes: ['value_out_of_range'],
    });
    expect(parseRoutingAlgorithm({ type: 'ab_test', data: { ...data, variant_split_pct: 20, variant_sr_config: { hedging_percent: 0 } } }).ok).toBe(true);
    // Two arms that route alike on every endpoint measure nothing (decision-engine #434 refuses them too).
    expect(errorsOf({ type: 'ab_test', data: { ...data, variant_split_pct: 20 } }).errors).toEqual([
      'data.variant: empty_output: control and variant apply the same layers on every selected endpoint',
    ]);
  });

  it('reads layered arms and endpoints, and names a layer-less arm or an unknown endpoint', () => {
    const data = { variant_split_pct: 20, min_sample_size: 100, guardrail_threshold_pp: 3 };
    const layered = parseRoutingAlgorithm({
      type: 'ab_test',
      data: {
        ...data,
        control: { rule_algorithm_id: 'rule_1' },
        variant: { rule_algorithm_id: 'rule_2', sr: { use_autopilot: true } },
        endpoints: ['evaluate'],
      },
    });
    expect(layered).toMatchObject({
      ok: true,
      algorithm: {
        data: { control: { rule_algorithm_id: 'rule_1' }, variant: { rule_algorithm_id: 'rule_2', sr: { use_autopilot: true } }, endpoints: ['evaluate'] },
      },
    });
    expect(errorsOf({ type: 'ab_test', data: { ...data, control: {}, variant: { sr: {} } } }).errors).toEqual([
      'data.control: empty_output: the control arm needs a rule layer, an SR layer, or both',
    ]);
    expect(errorsOf({ type: 'ab_test', data: { ...data, control: { sr: {} }, variant: { rule_algorithm_id: 'r' }, endpoints: ['payouts'] } }).kind).toBe(
      'shape',
    );
  });

  it('refuses volume_split_priority at the top level as a shape error', () => {
    const rejected = errorsOf({ type: 'volume_split_priority', data: [] });
    expect(rejected.kind).toBe('shape');
    expect(rejected.errors[0]).toContain('only an advanced rule output');
  });

  it('refuses anything that is not an algorithm object as a shape error', () => {
    for (const input of [null, 'single', 42, [], {}, { type: 'single' }, { type: 'nope', data: {} }]) {
      expect(errorsOf(input).kind).toBe('shape');
    }
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const result = parseRoutingAlgorithm(input);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (data) => {
        for (const type of ['single', 'priority', 'volume_split', 'advanced']) parseRoutingAlgorithm({ type, data });
      }),
      { numRuns: 200 },
    );
  });
});

describe('parseRoutingAlgorithm: advanced shape', () => {
  it('accepts the reference example and normalises the alias keys', () => {
    const result = parseRoutingAlgorithm({
      type: 'advanced',
      data: {
        globals: {},
        default_selection: { priority: [stripe] },
        rules: [
          {
            name: 'Card Rule',
            routingType: 'priority',
            routingOutput: { priority: [{ gateway_name: 'checkout' }] },
            statements: [
              {
                condition: [
                  condition('payment_method', 'equal', { type: 'enum_variant', value: 'card' }),
                  { lhs: 'amount', comparison: 'greater_than', value: { type: 'number', value: 100 } },
                ],
                nested: null,
              },
            ],
          },
        ],
      },
    });
    expect(result).toEqual({
      ok: true,
      algorithm: {
        type: 'advanced',
        data: {
          globals: {},
          default_selection: { priority: [stripe] },
          rules: [
            {
              name: 'Card Rule',
              routing_type: 'priority',
              output: { priority: [checkout] },
              statements: [
                {
                  condition: [
                    condition('payment_method', 'equal', { type: 'enum_variant', value: 'card' }),
                    condition('amount', 'greater_than', { type: 'number', value: 100 }),
                  ],
                },
              ],
            },
          ],
          metadata: null,
        },
      },
    });
  });

  it('treats a missing default_selection, globals or rules as a shape error', () => {
    for (const missing of ['default_selection', 'globals', 'rules']) {
      const body = advanced([]);
      delete (body.data as Record<string, unknown>)[missing];
      const rejected = errorsOf(body);
      expect(rejected.kind).toBe('shape');
      expect(rejected.errors[0]).toContain(`data.${missing}`);
    }
  });

  it('refuses a field given under both its name and its alias', () => {
    const body = advanced([]);
    const rule = body.data.rules[0] as Record<string, unknown>;
    rule['routingType'] = 'priority';
    expect(errorsOf(body).errors).toEqual(["data.rules[0].routing_type: invalid_shape: duplicate field: both 'routing_type' and 'routingType' given"]);
  });

  it('refuses unknown comparisons, value types and output kinds as shape errors', () => {
    expect(errorsOf(advanced([condition('amount', 'gt', { type: 'number', value: 1 })])).errors[0]).toContain(
      'data.rules[0].statements[0].condition[0].comparison: invalid_shape: expected one of equal, not_equal',
    );
    expect(errorsOf(advanced([condition('amount', 'equal', { type: 'float', value: 1 })])).kind).toBe('shape');
    expect(errorsOf(advanced([condition('amount', 'equal', { type: 'number', value: -5 })])).kind).toBe('shape');
    expect(errorsOf(advanced([condition('amount', 'equal', { type: 'number', value: '5' })])).kind).toBe('shape');
    expect(errorsOf(advanced([], { default_selection: { weighted: [] } })).errors[0]).toContain("unknown output kind 'weighted'");
    expect(errorsOf(advanced([], { default_selection: { priority: [stripe], single: stripe } })).kind).toBe('shape');
  });

  it('collects every shape problem, not just the first', () => {
    const rejected = errorsOf(advanced([condition(5, 'equal', { type: 'number', value: 1 }), condition('amount', 'bad', { type: 'number', value: 1 })]));
    expect(rejected.errors).toHaveLength(2);
  });
});

describe('parseRoutingAlgorithm: advanced semantics', () => {
  const at = 'data.rules[0].statements[0].condition[0]';

  it('names an unknown key', () => {
    expect(errorsOf(advanced([condition('shoe_size', 'equal', { type: 'number', value: 1 })]))).toEqual({
      kind: 'semantic',
      errors: [`${at}.lhs: unknown_key: unknown key 'shoe_size'`],
      codes: ['unknown_key'],
    });
  });

  it('refuses prototype names as keys', () => {
    expect(errorsOf(advanced([condition('constructor', 'equal', { type: 'number', value: 1 })])).codes).toEqual(['unknown_key']);
  });

  it.each([
    ['payment_method', { type: 'number', value: 1 }, 'enum', 'enum_variant or enum_variant_array'],
    ['amount', { type: 'str_value', value: '1' }, 'integer', 'number, number_array or number_comparison_array'],
    ['amount', { type: 'enum_variant', value: 'card' }, 'integer', 'number, number_array or number_comparison_array'],
    ['metadata', { type: 'str_value', value: 'x' }, 'udf', 'metadata_variant'],
    ['card_bin', { type: 'number', value: 424242 }, 'str_value', 'str_value'],
  ])('reports a type mismatch for %s given %j', (lhs, value, keyType, expected) => {
    expect(errorsOf(advanced([condition(lhs, 'equal', value)])).errors).toEqual([
      `${at}.value: type_mismatch: key '${lhs}' is ${keyType} and expects ${expected}, got ${value.type}`,
    ]);
  });

  it('reports enum values the key does not allow, in single values and arrays', () => {
    expect(errorsOf(advanced([condition('payment_method', 'equal', { type: 'enum_variant', value: 'cash' })])).errors).toEqual([
      `${at}.value: invalid_enum_value: invalid enum value 'cash' for key 'payment_method'`,
    ]);
    const array = errorsOf(advanced([condition('card_network', 'equal', { type: 'enum_variant_array', value: ['visa', 'VISA', 'amex'] })]));
    expect(array.errors).toEqual([
      `${at}.value: invalid_enum_value: invalid enum value 'VISA' for key 'card_network'`,
      `${at}.value: invalid_enum_value: invalid enum value 'amex' for key 'card_network'`,
    ]);
  });

  it.each([
    ['payment_method', 'greater_than', { type: 'enum_variant', value: 'card' }],
    ['payment_method', 'less_than', { type: 'enum_variant_array', value: ['card'] }],
    ['amount', 'less_than', { type: 'number_array', value: [1, 2] }],
    ['amount', 'not_equal', { type: 'number_comparison_array', value: [{ comparison_type: 'greater_than', number: 1 }] }],
    ['card_bin', 'greater_than_equal', { type: 'str_value', value: '424242' }],
    ['metadata', 'less_than_equal', { type: 'metadata_variant', value: { key: 'a', value: 'b' } }],
  ])('refuses the comparison for %s %s %j', (lhs, comparison, value) => {
    const rejected = errorsOf(advanced([condition(lhs, comparison, value)]));
    expect(rejected.codes).toEqual(['invalid_comparison']);
    expect(rejected.errors[0]).toContain(`${at}.comparison: invalid_comparison: '${comparison}' is not allowed`);
  });

  it('accepts all six operators on an integer key with a number', () => {
    for (const comparison of ['equal', 'not_equal', 'less_than', 'less_than_equal', 'greater_than', 'greater_than_equal']) {
      expect(parseRoutingAlgorithm(advanced([condition('amount', comparison, { type: 'number', value: 10 })])).ok).toBe(true);
    }
  });

  it('enforces string length and pattern limits', () => {
    expect(errorsOf(advanced([condition('card_bin', 'equal', { type: 'str_value', value: '42424' })])).errors).toEqual([
      `${at}.value: invalid_length: '42424' for key 'card_bin' must be exactly 6 characters, got 5`,
      `${at}.value: pattern_mismatch: '42424' for key 'card_bin' does not match ^[0-9]{6}$`,
    ]);
    expect(errorsOf(advanced([condition('card_bin', 'equal', { type: 'str_value', value: '42424a' })])).errors).toEqual([
      `${at}.value: pattern_mismatch: '42424a' for key 'card_bin' does not match ^[0-9]{6}$`,
    ]);
    expect(errorsOf(advanced([condition('extended_card_bin', 'equal', { type: 'str_value', value: '424242' })])).codes).toEqual([
      'invalid_length',
      'pattern_mismatch',
    ]);
    expect(errorsOf(advanced([condition('issuer_name', 'equal', { type: 'str_value', value: '' })])).errors).toEqual([
      `${at}.value: invalid_length: '' for key 'issuer_name' must be at least 1 characters, got 0`,
    ]);
    expect(parseRoutingAlgorithm(advanced([condition('extended_card_bin', 'equal', { type: 'str_value', value: '42424242' })])).ok).toBe(true);
  });

  it('checks global references: the global must exist, equal only, members valid for the key', () => {
    const ref = { type: 'global_ref', value: 'eu' };
    expect(errorsOf(advanced([condition('currency', 'equal', ref)])).errors).toEqual([`${at}.value: unknown_global: global 'eu' is not defined in globals`]);
    const globals = {
      eu: [
        { type: 'enum_variant', value: 'EUR' },
        { type: 'enum_variant', value: 'EURO' },
      ],
    };
    expect(errorsOf(advanced([condition('currency', 'not_equal', ref)], { globals })).errors).toEqual([
      `${at}.comparison: invalid_comparison: 'not_equal' is not allowed with a global_ref (only equal)`,
      "data.globals.eu[1]: invalid_enum_value: invalid enum value 'EURO' for key 'currency'",
    ]);
    expect(parseRoutingAlgorithm(advanced([condition('currency', 'equal', ref)], { globals: { eu: [{ type: 'enum_variant', value: 'EUR' }] } })).ok).toBe(true);
    expect(errorsOf(advanced([condition('currency', 'equal', { type: 'global_ref', value: 'toString' })])).codes).toEqual(['unknown_global']);
  });

  it('checks outputs of rules and of the default selection', () => {
    const body = advanced([], {
      default_selection: { volume_split: [{ split: 60, output: stripe }] },
      rules: [
        { name: 'a', routing_type: 'priority', output: { priority: [] }, statements: [] },
        { name: 'b', routing_type: 'volume_split_priority', output: { volume_split_priority: [{ split: 100, output: [] }] }, statements: [] },
        { name: 'c', routing_type: 'volume_split', output: { priority: [stripe] }, statements: [] },
        { name: 'd', routing_type: 'priority', output: { single: stripe }, statements: [] },
      ],
    });
    expect(errorsOf(body).errors).toEqual([
      'data.default_selection.volume_split: split_sum_not_100: volume split percentages add up to 60, expected 100',
      'data.rules[0].output.priority: empty_output: priority list is empty',
      'data.rules[1].output.volume_split_priority[0].output: empty_output: priority list is empty',
      "data.rules[2].routing_type: routing_type_mismatch: routing_type 'volume_split' does not match a 'priority' output",
    ]);
  });

  it('finds problems in nested statements and lists every problem', () => {
    const body = advanced([], {
      rules: [
        {
          name: 'deep',
          routing_type: 'priority',
          output: { priority: [checkout] },
          statements: [
            {
              condition: [condition('payment_method', 'equal', { type: 'enum_variant', value: 'card' })],
              nested: [
                { condition: [] },
                {
                  condition: [condition('nope', 'equal', { type: 'number', value: 1 })],
                  nested: [{ condition: [condition('amount', 'equal', { type: 'str_value', value: 'x' })] }],
                },
              ],
            },
          ],
        },
      ],
    });
    const rejected = errorsOf(body);
    expect(rejected.errors).toEqual([
      "data.rules[0].statements[0].nested[1].condition[0].lhs: unknown_key: unknown key 'nope'",
      "data.rules[0].statements[0].nested[1].nested[0].condition[0].value: type_mismatch: key 'amount' is integer and expects number, number_array or number_comparison_array, got str_value",
    ]);
  });
});

describe('parseRoutingAlgorithm with a custom key table', () => {
  const keys = createRoutingKeyTable({
    amount: { type: 'integer', minValue: 10, maxValue: 1000 },
    order_udf1: { type: 'global_ref' },
    login_date: { type: 'str_value', minLength: null, maxLength: 10, exactLength: null, regex: null },
  });
  const at = 'data.rules[0].statements[0].condition[0]';

  it('enforces integer min_value and max_value on numbers, arrays and comparison arrays', () => {
    const rejected = (value: unknown) => {
      const result = parseRoutingAlgorithm(advanced([condition('amount', 'equal', value)]), keys);
      return result.ok ? [] : result.errors;
    };
    expect(rejected({ type: 'number', value: 9 })).toEqual([`${at}.value: value_out_of_range: 9 for key 'amount' is below min_value 10`]);
    expect(rejected({ type: 'number', value: 1001 })).toEqual([`${at}.value: value_out_of_range: 1001 for key 'amount' is above max_value 1000`]);
    expect(rejected({ type: 'number', value: 10 })).toEqual([]);
    expect(rejected({ type: 'number', value: 1000 })).toEqual([]);
    expect(rejected({ type: 'number_array', value: [5, 50, 5000] })).toHaveLength(2);
    expect(rejected({ type: 'number_comparison_array', value: [{ comparison_type: 'greater_than', number: 2000 }] })).toHaveLength(1);
  });

  it('enforces max_length', () => {
    const result = parseRoutingAlgorithm(advanced([condition('login_date', 'equal', { type: 'str_value', value: '2026-11-22T10' })]), keys);
    expect(result.ok ? [] : result.errors).toEqual([`${at}.value: invalid_length: '2026-11-22T10' for key 'login_date' must be at most 10 characters, got 13`]);
  });

  it('requires a global_ref value on a global_ref key and accepts any members', () => {
    const globals = {
      vip: [
        { type: 'str_value', value: 'a' },
        { type: 'number', value: 1 },
      ],
    };
    expect(parseRoutingAlgorithm(advanced([condition('order_udf1', 'equal', { type: 'global_ref', value: 'vip' })], { globals }), keys).ok).toBe(true);
    const result = parseRoutingAlgorithm(advanced([condition('order_udf1', 'equal', { type: 'str_value', value: 'a' })]), keys);
    expect(result.ok ? [] : result.errors).toEqual([`${at}.value: type_mismatch: key 'order_udf1' is global_ref but the value is str_value`]);
  });

  it('does not know the default keys', () => {
    const result = parseRoutingAlgorithm(advanced([condition('payment_method', 'equal', { type: 'enum_variant', value: 'card' })]), keys);
    expect(result.ok ? [] : result.errors).toEqual([`${at}.lhs: unknown_key: unknown key 'payment_method'`]);
  });

  it('cuts long user text in messages', () => {
    const long = 'k'.repeat(500);
    const result = parseRoutingAlgorithm(advanced([condition(long, 'equal', { type: 'number', value: 1 })]));
    expect(result.ok ? [] : result.errors).toEqual([`${at}.lhs: unknown_key: unknown key '${'k'.repeat(64)}…'`]);
  });
});
