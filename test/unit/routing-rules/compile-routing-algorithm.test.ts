import { describe, expect, it } from 'vitest';
import { createSequenceRandom } from '../../../src/decision/random-source.js';
import { compileRoutingAlgorithm } from '../../../src/routing-rules/compile-routing-algorithm.js';
import type {
  Comparison,
  ComparisonType,
  EvaluationParameters,
  IfStatement,
  Program,
  RoutingAlgorithm,
  Rule,
  ValueType,
} from '../../../src/ports/state/routing-algorithm.js';
import { applyFallbackOutput, type RuleEvaluation, type RuleEvaluationResult } from '../../../src/routing-rules/rule-evaluation.js';

const stripe = { gateway_name: 'stripe', gateway_id: 'mca_stripe' };
const adyen = { gateway_name: 'adyen', gateway_id: null };
const checkout = { gateway_name: 'checkout', gateway_id: 'mca_checkout' };
const noDraws = () => createSequenceRandom([]);

const enumValue = (value: string): ValueType => ({ type: 'enum_variant', value });
const numberValue = (value: number): ValueType => ({ type: 'number', value });
const strValue = (value: string): ValueType => ({ type: 'str_value', value });
const metadataValue = (key: string, value: string): ValueType => ({ type: 'metadata_variant', value: { key, value } });

function when(lhs: string, comparison: ComparisonType, value: ValueType): Comparison {
  return { lhs, comparison, value, metadata: {} };
}

function rule(name: string, statements: IfStatement[], output: Rule['output'] = { priority: [checkout] }): Rule {
  return { name, routing_type: 'volume_split' in output ? 'volume_split' : 'priority', output, statements };
}

function program(rules: Rule[], extra: Partial<Program> = {}): RoutingAlgorithm {
  return { type: 'advanced', data: { globals: {}, default_selection: { priority: [stripe] }, rules, metadata: null, ...extra } };
}

function evaluation(result: RuleEvaluationResult): RuleEvaluation {
  if (!result.ok) throw new Error(`unexpected ${result.error.message}`);
  return result.evaluation;
}

/** 'match' when the single rule matched, 'default' when the default selection was used, else the error. */
function outcome(algorithm: RoutingAlgorithm, parameters: EvaluationParameters): string {
  const result = compileRoutingAlgorithm(algorithm).evaluate(parameters, noDraws());
  if (!result.ok) return result.error.message;
  return result.evaluation.status === 'success' ? 'match' : 'default';
}

function single(condition: Comparison, globals: Program['globals'] = {}): RoutingAlgorithm {
  return program([rule('r', [{ condition: [condition] }])], { globals });
}

describe('compileRoutingAlgorithm: static algorithms', () => {
  it('evaluates single as straight_through without drawing randomness', () => {
    const result = compileRoutingAlgorithm({ type: 'single', data: stripe }).evaluate({}, noDraws());
    expect(result).toEqual({
      ok: true,
      evaluation: {
        status: 'success',
        output: { type: 'straight_through', connector: stripe },
        evaluatedOutput: [stripe],
        ruleName: 'straight_through_rule',
      },
    });
  });

  it('evaluates priority in its order', () => {
    const result = evaluation(compileRoutingAlgorithm({ type: 'priority', data: [adyen, stripe] }).evaluate({}, noDraws()));
    expect(result).toEqual({
      status: 'success',
      output: { type: 'priority', connectors: [adyen, stripe] },
      evaluatedOutput: [adyen, stripe],
      ruleName: 'priority_rule',
    });
  });

  it('evaluates volume_split with the drawn winner first and the rest in order', () => {
    const compiled = compileRoutingAlgorithm({
      type: 'volume_split',
      data: [
        { split: 50, output: stripe },
        { split: 30, output: adyen },
        { split: 20, output: checkout },
      ],
    });
    const random = createSequenceRandom([0.1, 0.6, 0.95]);
    const results = [0, 1, 2].map(() => evaluation(compiled.evaluate({}, random)));
    expect(results.map((entry) => entry.evaluatedOutput.map((c) => c.gateway_name))).toEqual([
      ['stripe', 'adyen', 'checkout'],
      ['adyen', 'stripe', 'checkout'],
      ['checkout', 'stripe', 'adyen'],
    ]);
    expect(results[0]?.output).toEqual({
      type: 'volume_split',
      splits: [
        { connector: stripe, split: 50 },
        { connector: adyen, split: 30 },
        { connector: checkout, split: 20 },
      ],
    });
    expect(results[0]?.ruleName).toBe('volume_split_rule');
    expect(random.drawn()).toBe(3);
  });
});

describe('compileRoutingAlgorithm: comparisons', () => {
  it.each([
    // enum vs enum
    ['enum equal, same', when('payment_method', 'equal', enumValue('card')), { payment_method: enumValue('card') }, 'match'],
    ['enum equal, different', when('payment_method', 'equal', enumValue('card')), { payment_method: enumValue('wallet') }, 'default'],
    ['enum not_equal, different', when('payment_method', 'not_equal', enumValue('card')), { payment_method: enumValue('wallet') }, 'match'],
    ['enum not_equal, same', when('payment_method', 'not_equal', enumValue('card')), { payment_method: enumValue('card') }, 'default'],
    // enum vs enum array
    [
      'enum array equal, member',
      when('card_network', 'equal', { type: 'enum_variant_array', value: ['visa', 'rupay'] }),
      { card_network: enumValue('rupay') },
      'match',
    ],
    [
      'enum array equal, not member',
      when('card_network', 'equal', { type: 'enum_variant_array', value: ['visa', 'rupay'] }),
      { card_network: enumValue('jcb') },
      'default',
    ],
    [
      'enum array not_equal, not member',
      when('card_network', 'not_equal', { type: 'enum_variant_array', value: ['visa'] }),
      { card_network: enumValue('jcb') },
      'match',
    ],
    [
      'enum array not_equal, member',
      when('card_network', 'not_equal', { type: 'enum_variant_array', value: ['visa'] }),
      { card_network: enumValue('visa') },
      'default',
    ],
    // number vs number, at the boundary
    ['number equal', when('amount', 'equal', numberValue(100)), { amount: numberValue(100) }, 'match'],
    ['number equal, off by one', when('amount', 'equal', numberValue(100)), { amount: numberValue(101) }, 'default'],
    ['number not_equal', when('amount', 'not_equal', numberValue(100)), { amount: numberValue(101) }, 'match'],
    ['number less_than, below', when('amount', 'less_than', numberValue(100)), { amount: numberValue(99) }, 'match'],
    ['number less_than, equal', when('amount', 'less_than', numberValue(100)), { amount: numberValue(100) }, 'default'],
    ['number less_than_equal, equal', when('amount', 'less_than_equal', numberValue(100)), { amount: numberValue(100) }, 'match'],
    ['number less_than_equal, above', when('amount', 'less_than_equal', numberValue(100)), { amount: numberValue(101) }, 'default'],
    ['number greater_than, above', when('amount', 'greater_than', numberValue(100)), { amount: numberValue(101) }, 'match'],
    ['number greater_than, equal', when('amount', 'greater_than', numberValue(100)), { amount: numberValue(100) }, 'default'],
    ['number greater_than_equal, equal', when('amount', 'greater_than_equal', numberValue(100)), { amount: numberValue(100) }, 'match'],
    ['number greater_than_equal, below', when('amount', 'greater_than_equal', numberValue(100)), { amount: numberValue(99) }, 'default'],
    // number vs number array
    ['number array equal, member', when('amount', 'equal', { type: 'number_array', value: [5, 10] }), { amount: numberValue(10) }, 'match'],
    ['number array equal, not member', when('amount', 'equal', { type: 'number_array', value: [5, 10] }), { amount: numberValue(7) }, 'default'],
    ['number array not_equal, not member', when('amount', 'not_equal', { type: 'number_array', value: [5, 10] }), { amount: numberValue(7) }, 'match'],
    ['number array not_equal, member', when('amount', 'not_equal', { type: 'number_array', value: [5, 10] }), { amount: numberValue(5) }, 'default'],
    // number vs comparison array: every comparison must hold
    [
      'comparison array, inside the range',
      when('amount', 'equal', {
        type: 'number_comparison_array',
        value: [
          { comparison_type: 'greater_than', number: 100 },
          { comparison_type: 'less_than_equal', number: 500 },
        ],
      }),
      { amount: numberValue(500) },
      'match',
    ],
    [
      'comparison array, outside the range',
      when('amount', 'equal', {
        type: 'number_comparison_array',
        value: [
          { comparison_type: 'greater_than', number: 100 },
          { comparison_type: 'less_than_equal', number: 500 },
        ],
      }),
      { amount: numberValue(501) },
      'default',
    ],
    // metadata: key and value both compared
    ['metadata equal', when('metadata', 'equal', metadataValue('tier', 'gold')), { metadata: metadataValue('tier', 'gold') }, 'match'],
    ['metadata equal, other value', when('metadata', 'equal', metadataValue('tier', 'gold')), { metadata: metadataValue('tier', 'silver') }, 'default'],
    ['metadata equal, other key', when('metadata', 'equal', metadataValue('tier', 'gold')), { metadata: metadataValue('level', 'gold') }, 'default'],
    ['metadata not_equal', when('metadata', 'not_equal', metadataValue('tier', 'gold')), { metadata: metadataValue('tier', 'silver') }, 'match'],
    ['metadata found under its own key', when('metadata', 'equal', metadataValue('tier', 'gold')), { tier: metadataValue('tier', 'gold') }, 'match'],
    // str
    ['str equal', when('card_bin', 'equal', strValue('424242')), { card_bin: strValue('424242') }, 'match'],
    ['str equal, different', when('card_bin', 'equal', strValue('424242')), { card_bin: strValue('424243') }, 'default'],
    ['str not_equal', when('card_bin', 'not_equal', strValue('424242')), { card_bin: strValue('424243') }, 'match'],
    // absent and null parameters make the condition false, even for not_equal
    ['absent parameter', when('payment_method', 'equal', enumValue('card')), {}, 'default'],
    ['absent parameter, not_equal', when('payment_method', 'not_equal', enumValue('card')), {}, 'default'],
    ['null parameter, not_equal', when('amount', 'not_equal', numberValue(5)), { amount: null }, 'default'],
    // incomparable pairs
    [
      'number parameter on an enum rule',
      when('payment_method', 'equal', enumValue('card')),
      { payment_method: numberValue(1) },
      'Interpreter error: InvalidComparison',
    ],
    ['enum parameter on a number rule', when('amount', 'greater_than', numberValue(1)), { amount: enumValue('card') }, 'Interpreter error: InvalidComparison'],
    [
      'str parameter on a number array rule',
      when('amount', 'equal', { type: 'number_array', value: [1] }),
      { amount: strValue('1') },
      'Interpreter error: InvalidComparison',
    ],
    [
      'number parameter on a str rule',
      when('card_bin', 'equal', strValue('424242')),
      { card_bin: numberValue(424242) },
      'Interpreter error: InvalidComparison',
    ],
    [
      'str parameter on a metadata rule',
      when('metadata', 'equal', metadataValue('a', 'b')),
      { metadata: strValue('b') },
      'Interpreter error: InvalidComparison',
    ],
    [
      'enum operator outside equality',
      when('payment_method', 'greater_than', enumValue('card')),
      { payment_method: enumValue('card') },
      'Interpreter error: InvalidComparison',
    ],
    [
      'comparison array with not_equal',
      when('amount', 'not_equal', { type: 'number_comparison_array', value: [] }),
      { amount: numberValue(1) },
      'Interpreter error: InvalidComparison',
    ],
  ] as [string, Comparison, EvaluationParameters, string][])('%s', (_name, condition, parameters, expected) => {
    expect(outcome(single(condition), parameters)).toBe(expected);
  });

  it('treats global_ref as membership of the named global for any value type', () => {
    const globals = { eu: [enumValue('EUR'), enumValue('GBP')], small: [numberValue(1), numberValue(2)] };
    const currency = single(when('currency', 'equal', { type: 'global_ref', value: 'eu' }), globals);
    expect(outcome(currency, { currency: enumValue('GBP') })).toBe('match');
    expect(outcome(currency, { currency: enumValue('USD') })).toBe('default');
    expect(outcome(currency, { currency: strValue('GBP') })).toBe('default');
    const amount = single(when('amount', 'equal', { type: 'global_ref', value: 'small' }), globals);
    expect(outcome(amount, { amount: numberValue(2) })).toBe('match');
    expect(outcome(amount, { amount: numberValue(3) })).toBe('default');
    expect(outcome(single(when('amount', 'not_equal', { type: 'global_ref', value: 'small' }), globals), { amount: numberValue(3) })).toBe(
      'Interpreter error: InvalidComparison',
    );
  });

  it('names the rule and key of an invalid comparison', () => {
    const result = compileRoutingAlgorithm(single(when('amount', 'equal', numberValue(1)))).evaluate({ amount: strValue('x') }, noDraws());
    expect(result).toEqual({
      ok: false,
      error: { type: 'invalid_comparison', message: 'Interpreter error: InvalidComparison', ruleName: 'r', lhs: 'amount' },
    });
  });
});

describe('compileRoutingAlgorithm: rule trees', () => {
  const card = when('payment_method', 'equal', enumValue('card'));
  const big = when('amount', 'greater_than', numberValue(1000));
  const visa = when('card_network', 'equal', enumValue('visa'));
  const mastercard = when('card_network', 'equal', enumValue('mastercard'));
  const usd = when('currency', 'equal', enumValue('USD'));

  const parameters = (pm: string, amount: number, network?: string, currency?: string): EvaluationParameters => ({
    payment_method: enumValue(pm),
    amount: numberValue(amount),
    ...(network ? { card_network: enumValue(network) } : {}),
    ...(currency ? { currency: enumValue(currency) } : {}),
  });

  it('needs ALL conditions of a statement', () => {
    const algorithm = program([rule('r', [{ condition: [card, big] }])]);
    expect(outcome(algorithm, parameters('card', 2000))).toBe('match');
    expect(outcome(algorithm, parameters('card', 10))).toBe('default');
    expect(outcome(algorithm, parameters('wallet', 2000))).toBe('default');
  });

  it('needs ANY statement of a rule', () => {
    const algorithm = program([rule('r', [{ condition: [card] }, { condition: [big] }])]);
    expect(outcome(algorithm, parameters('wallet', 2000))).toBe('match');
    expect(outcome(algorithm, parameters('card', 1))).toBe('match');
    expect(outcome(algorithm, parameters('wallet', 1))).toBe('default');
  });

  it('needs the conditions AND any nested statement, recursively', () => {
    // card AND (visa OR (mastercard AND (usd)))
    const algorithm = program([
      rule('r', [{ condition: [card], nested: [{ condition: [visa] }, { condition: [mastercard], nested: [{ condition: [usd] }] }] }]),
    ]);
    expect(outcome(algorithm, parameters('card', 1, 'visa'))).toBe('match');
    expect(outcome(algorithm, parameters('card', 1, 'mastercard', 'USD'))).toBe('match');
    expect(outcome(algorithm, parameters('card', 1, 'mastercard', 'EUR'))).toBe('default');
    expect(outcome(algorithm, parameters('card', 1, 'jcb', 'USD'))).toBe('default');
    expect(outcome(algorithm, parameters('wallet', 1, 'visa'))).toBe('default');
  });

  it('treats an empty nested list as never holding and an empty condition list as always holding', () => {
    expect(outcome(program([rule('r', [{ condition: [], nested: [] }])]), {})).toBe('default');
    expect(outcome(program([rule('r', [{ condition: [] }])]), {})).toBe('match');
    expect(outcome(program([rule('r', [])]), {})).toBe('default');
  });

  it('picks the first matching rule in order and reports its name', () => {
    const algorithm = program([
      rule('big card', [{ condition: [card, big] }], { priority: [adyen] }),
      rule('any card', [{ condition: [card] }], { priority: [checkout, stripe] }),
    ]);
    const compiled = compileRoutingAlgorithm(algorithm);
    expect(evaluation(compiled.evaluate(parameters('card', 5000), noDraws()))).toEqual({
      status: 'success',
      output: { type: 'priority', connectors: [adyen] },
      evaluatedOutput: [adyen],
      ruleName: 'big card',
    });
    expect(evaluation(compiled.evaluate(parameters('card', 5), noDraws())).ruleName).toBe('any card');
  });

  it('stops at an incomparable condition even if a later rule would match', () => {
    const algorithm = program([rule('first', [{ condition: [big] }]), rule('second', [{ condition: [card] }])]);
    const result = compileRoutingAlgorithm(algorithm).evaluate({ amount: strValue('x'), payment_method: enumValue('card') }, noDraws());
    expect(result.ok).toBe(false);
  });

  it('does not reach an incomparable condition after a false one in the same statement, or after a match', () => {
    const algorithm = program([rule('first', [{ condition: [card, big] }]), rule('second', [{ condition: [big] }])]);
    const compiled = compileRoutingAlgorithm(algorithm);
    // first: card is false, so big (incomparable) is never looked at; second then hits it
    expect(compiled.evaluate({ payment_method: enumValue('wallet'), amount: strValue('x') }, noDraws()).ok).toBe(false);
    const matchedFirst = program([rule('first', [{ condition: [card] }]), rule('second', [{ condition: [big] }])]);
    expect(evaluation(compileRoutingAlgorithm(matchedFirst).evaluate({ payment_method: enumValue('card'), amount: strValue('x') }, noDraws())).ruleName).toBe(
      'first',
    );
  });

  it('evaluates a matched rule volume split with one draw', () => {
    const algorithm = program([
      rule('split', [{ condition: [card] }], {
        volume_split: [
          { split: 70, output: stripe },
          { split: 30, output: adyen },
        ],
      }),
    ]);
    const random = createSequenceRandom([0.75]);
    const result = evaluation(compileRoutingAlgorithm(algorithm).evaluate(parameters('card', 1), random));
    expect(result.evaluatedOutput).toEqual([adyen, stripe]);
    expect(result.output).toEqual({
      type: 'volume_split',
      splits: [
        { connector: stripe, split: 70 },
        { connector: adyen, split: 30 },
      ],
    });
    expect(random.drawn()).toBe(1);
  });

  it('evaluates volume_split_priority by picking a split, then flattening without duplicates', () => {
    const algorithm = program([
      {
        name: 'vsp',
        routing_type: 'volume_split_priority',
        output: {
          volume_split_priority: [
            { split: 40, output: [stripe, adyen] },
            { split: 60, output: [checkout, stripe] },
          ],
        },
        statements: [{ condition: [] }],
      },
    ]);
    const compiled = compileRoutingAlgorithm(algorithm);
    const second = evaluation(compiled.evaluate({}, createSequenceRandom([0.5])));
    expect(second.evaluatedOutput).toEqual([checkout, stripe, adyen]);
    expect(second.output).toEqual({
      type: 'volume_split_priority',
      splits: [
        { connectors: [stripe, adyen], split: 40 },
        { connectors: [checkout, stripe], split: 60 },
      ],
    });
    expect(evaluation(compiled.evaluate({}, createSequenceRandom([0.1]))).evaluatedOutput).toEqual([stripe, adyen, checkout]);
  });

  it('treats the same gateway name with different ids as distinct when flattening', () => {
    const other = { gateway_name: 'stripe', gateway_id: 'mca_other' };
    const algorithm = program([
      {
        name: 'vsp',
        routing_type: 'volume_split_priority',
        output: { volume_split_priority: [{ split: 100, output: [stripe, other, stripe] }] },
        statements: [{ condition: [] }],
      },
    ]);
    expect(evaluation(compileRoutingAlgorithm(algorithm).evaluate({}, createSequenceRandom([0.2]))).evaluatedOutput).toEqual([stripe, other]);
  });
});

describe('default selection and fallback', () => {
  const algorithm = program([rule('card', [{ condition: [when('payment_method', 'equal', enumValue('card'))] }])], {
    default_selection: { priority: [stripe, adyen] },
  });
  const compiled = compileRoutingAlgorithm(algorithm);

  it('uses the default selection with a null rule name when nothing matches', () => {
    expect(evaluation(compiled.evaluate({ payment_method: enumValue('wallet') }, noDraws()))).toEqual({
      status: 'default_selection',
      output: { type: 'priority', connectors: [stripe, adyen] },
      evaluatedOutput: [stripe, adyen],
      ruleName: null,
    });
  });

  it('evaluates a volume split default selection', () => {
    const split = compileRoutingAlgorithm(
      program([], {
        default_selection: {
          volume_split: [
            { split: 50, output: stripe },
            { split: 50, output: adyen },
          ],
        },
      }),
    );
    const result = evaluation(split.evaluate({}, createSequenceRandom([0.9])));
    expect(result.status).toBe('default_selection');
    expect(result.evaluatedOutput).toEqual([adyen, stripe]);
  });

  it('substitutes a non-empty fallback_output for the default selection', () => {
    const defaulted = evaluation(compiled.evaluate({}, noDraws()));
    const fallback = [{ gateway_name: 'razorpay', gateway_id: null }, { gateway_name: 'paytm' }] as never;
    expect(applyFallbackOutput(defaulted, fallback)).toEqual({
      status: 'default_selection',
      output: {
        type: 'priority',
        connectors: [
          { gateway_name: 'razorpay', gateway_id: null },
          { gateway_name: 'paytm', gateway_id: null },
        ],
      },
      evaluatedOutput: [
        { gateway_name: 'razorpay', gateway_id: null },
        { gateway_name: 'paytm', gateway_id: null },
      ],
      ruleName: 'default_fallback',
    });
  });

  it('keeps the default selection when the fallback is empty or absent', () => {
    const defaulted = evaluation(compiled.evaluate({}, noDraws()));
    expect(applyFallbackOutput(defaulted, [])).toBe(defaulted);
    expect(applyFallbackOutput(defaulted, null)).toBe(defaulted);
    expect(applyFallbackOutput(defaulted, undefined)).toBe(defaulted);
  });

  it('never replaces a matched rule or a static algorithm', () => {
    const matched = evaluation(compiled.evaluate({ payment_method: enumValue('card') }, noDraws()));
    expect(applyFallbackOutput(matched, [adyen])).toBe(matched);
    const priority = evaluation(compileRoutingAlgorithm({ type: 'priority', data: [stripe] }).evaluate({}, noDraws()));
    expect(applyFallbackOutput(priority, [adyen])).toBe(priority);
  });
});
