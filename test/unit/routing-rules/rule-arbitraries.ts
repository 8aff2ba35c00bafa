import fc from 'fast-check';
import type {
  Comparison,
  ComparisonType,
  ConnectorInfo,
  EvaluationParameters,
  IfStatement,
  Program,
  RoutingAlgorithm,
  Rule,
  RuleOutput,
  ValueType,
} from '../../../src/ports/state/routing-algorithm.js';

/**
 * fast-check generators for VALID routing algorithms and evaluation parameters (every algorithm
 * passes parseRoutingAlgorithm, every parameter set passes validateEvaluationParameters). Values are
 * drawn from small pools shared by rules and parameters so that conditions match often enough for
 * a property to exercise both branches. Exported for the HTTP-level property test as well.
 */

const enumPools = {
  payment_method: ['card', 'wallet', 'pay_later'],
  card_network: ['visa', 'mastercard', 'american_express'],
  currency: ['USD', 'EUR', 'INR'],
  billing_country: ['US', 'DE', 'IN'],
} as const;
const integerKeys = ['amount', 'surcharge_amount'] as const;
const strPools = { card_bin: ['424242', '555555', '411111'], issuer_name: ['HDFC', 'Chase', 'Barclays'] } as const;
const metadataPool = [
  { key: 'tier', value: 'gold' },
  { key: 'tier', value: 'silver' },
  { key: 'channel', value: 'app' },
] as const;
/** The one global the generated programs define; conditions on `currency` may refer to it. */
export const GLOBAL_CURRENCIES = 'preferred_currencies';

const enumKeyArbitrary = fc.constantFrom(...(Object.keys(enumPools) as (keyof typeof enumPools)[]));
const numberArbitrary = fc.integer({ min: 0, max: 300 });
const operatorArbitrary = fc.constantFrom<ComparisonType>('equal', 'not_equal', 'less_than', 'less_than_equal', 'greater_than', 'greater_than_equal');
const equalityArbitrary = fc.constantFrom<ComparisonType>('equal', 'not_equal');

export const connectorInfoArbitrary: fc.Arbitrary<ConnectorInfo> = fc.record({
  gateway_name: fc.constantFrom('stripe', 'adyen', 'checkout', 'braintree', 'razorpay'),
  gateway_id: fc.option(fc.constantFrom('mca_1', 'mca_2', 'mca_3'), { nil: null }),
});

/** `count` non-negative weights adding up to exactly 100. */
export function splitWeightsArbitrary(count: number): fc.Arbitrary<number[]> {
  return fc.array(fc.integer({ min: 0, max: 100 }), { minLength: count - 1, maxLength: count - 1 }).map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), 100];
    return points.slice(1).map((point, index) => point - (points[index] as number));
  });
}

function splitsOf<T>(item: fc.Arbitrary<T>): fc.Arbitrary<{ split: number; output: T }[]> {
  return fc
    .integer({ min: 1, max: 4 })
    .chain((count) => fc.tuple(splitWeightsArbitrary(count), fc.array(item, { minLength: count, maxLength: count })))
    .map(([weights, outputs]) => outputs.map((output, index) => ({ split: weights[index] as number, output })));
}

const priorityListArbitrary = fc.array(connectorInfoArbitrary, { minLength: 1, maxLength: 4 });

export const ruleOutputArbitrary: fc.Arbitrary<RuleOutput> = fc.oneof(
  connectorInfoArbitrary.map((single): RuleOutput => ({ single })),
  priorityListArbitrary.map((priority): RuleOutput => ({ priority })),
  splitsOf(connectorInfoArbitrary).map((volume_split): RuleOutput => ({ volume_split })),
  splitsOf(priorityListArbitrary).map((volume_split_priority): RuleOutput => ({ volume_split_priority })),
);

const metadataValue = fc.constantFrom(...metadataPool).map((pair) => ({ key: pair.key, value: pair.value }));

/** One valid condition on one of the pooled keys, of every value type the key accepts. */
export const comparisonArbitrary: fc.Arbitrary<Comparison> = fc.oneof(
  fc.tuple(enumKeyArbitrary, equalityArbitrary).chain(([lhs, comparison]) =>
    fc
      .oneof(
        fc.constantFrom(...enumPools[lhs]).map((value): ValueType => ({ type: 'enum_variant', value })),
        fc.subarray([...enumPools[lhs]], { minLength: 1 }).map((value): ValueType => ({ type: 'enum_variant_array', value })),
      )
      .map((value): Comparison => ({ lhs, comparison, value, metadata: {} })),
  ),
  fc.record({
    lhs: fc.constant('currency'),
    comparison: fc.constant<ComparisonType>('equal'),
    value: fc.constant<ValueType>({ type: 'global_ref', value: GLOBAL_CURRENCIES }),
    metadata: fc.constant({}),
  }),
  fc
    .tuple(fc.constantFrom(...integerKeys), operatorArbitrary, numberArbitrary)
    .map(([lhs, comparison, value]): Comparison => ({ lhs, comparison, value: { type: 'number', value }, metadata: {} })),
  fc
    .tuple(fc.constantFrom(...integerKeys), equalityArbitrary, fc.array(numberArbitrary, { minLength: 1, maxLength: 4 }))
    .map(([lhs, comparison, value]): Comparison => ({ lhs, comparison, value: { type: 'number_array', value }, metadata: {} })),
  fc
    .tuple(
      fc.constantFrom(...integerKeys),
      fc.array(fc.record({ comparison_type: operatorArbitrary, number: numberArbitrary }), { minLength: 1, maxLength: 3 }),
    )
    .map(([lhs, value]): Comparison => ({ lhs, comparison: 'equal', value: { type: 'number_comparison_array', value }, metadata: {} })),
  fc
    .constantFrom(...(Object.keys(strPools) as (keyof typeof strPools)[]))
    .chain((lhs) =>
      fc
        .tuple(equalityArbitrary, fc.constantFrom(...strPools[lhs]))
        .map(([comparison, value]): Comparison => ({ lhs, comparison, value: { type: 'str_value', value }, metadata: {} })),
    ),
  fc
    .tuple(equalityArbitrary, metadataValue)
    .map(([comparison, value]): Comparison => ({ lhs: 'metadata', comparison, value: { type: 'metadata_variant', value }, metadata: { ui: 'x' } })),
);

/** A statement with up to `depth` levels of nested statements below it. */
export function statementArbitrary(depth: number): fc.Arbitrary<IfStatement> {
  const condition = fc.array(comparisonArbitrary, { minLength: 1, maxLength: 3 });
  if (depth <= 0) return condition.map((conditions) => ({ condition: conditions }));
  return fc
    .tuple(condition, fc.option(fc.array(statementArbitrary(depth - 1), { minLength: 1, maxLength: 3 }), { nil: undefined }))
    .map(([conditions, nested]) => (nested === undefined ? { condition: conditions } : { condition: conditions, nested }));
}

export const ruleArbitrary: fc.Arbitrary<Rule> = fc
  .tuple(fc.string({ minLength: 1, maxLength: 12 }), ruleOutputArbitrary, fc.array(statementArbitrary(2), { minLength: 1, maxLength: 3 }))
  .map(([name, output, statements]): Rule => {
    const kind = Object.keys(output)[0];
    const routingType = kind === 'volume_split' ? 'volume_split' : kind === 'volume_split_priority' ? 'volume_split_priority' : 'priority';
    return { name, routing_type: routingType, output, statements };
  });

export const programArbitrary: fc.Arbitrary<Program> = fc
  .tuple(fc.subarray([...enumPools.currency], { minLength: 1 }), ruleOutputArbitrary, fc.array(ruleArbitrary, { minLength: 0, maxLength: 6 }))
  .map(([currencies, defaultSelection, rules]) => ({
    globals: { [GLOBAL_CURRENCIES]: currencies.map((value): ValueType => ({ type: 'enum_variant', value })) },
    default_selection: defaultSelection,
    rules,
    metadata: null,
  }));

/** Any valid algorithm: single, priority, volume_split or advanced. */
export const routingAlgorithmArbitrary: fc.Arbitrary<RoutingAlgorithm> = fc.oneof(
  connectorInfoArbitrary.map((data): RoutingAlgorithm => ({ type: 'single', data })),
  priorityListArbitrary.map((data): RoutingAlgorithm => ({ type: 'priority', data })),
  splitsOf(connectorInfoArbitrary).map((data): RoutingAlgorithm => ({ type: 'volume_split', data })),
  { arbitrary: programArbitrary.map((data): RoutingAlgorithm => ({ type: 'advanced', data })), weight: 4 },
);

/**
 * Parameters that pass validateEvaluationParameters: each pooled key absent, null or set from its
 * pool; now and then a non-enum key carries a value of the wrong type (the evaluator's
 * InvalidComparison path) and the metadata may arrive under its own key.
 */
export const evaluationParametersArbitrary: fc.Arbitrary<EvaluationParameters> = fc
  .record(
    {
      payment_method: fc.option(fc.constantFrom(...enumPools.payment_method), { nil: null }).map(enumValue),
      card_network: fc.option(fc.constantFrom(...enumPools.card_network), { nil: null }).map(enumValue),
      currency: fc.option(fc.constantFrom(...enumPools.currency), { nil: null }).map(enumValue),
      billing_country: fc.option(fc.constantFrom(...enumPools.billing_country), { nil: null }).map(enumValue),
      amount: numberParameter(),
      surcharge_amount: numberParameter(),
      card_bin: strParameter(strPools.card_bin),
      issuer_name: strParameter(strPools.issuer_name),
      metadata: fc.option(
        metadataValue.map((value): ValueType => ({ type: 'metadata_variant', value })),
        { nil: null },
      ),
      tier: metadataValue.filter((pair) => pair.key === 'tier').map((value): ValueType => ({ type: 'metadata_variant', value })),
    },
    { requiredKeys: [] },
  )
  .map((parameters) => parameters as EvaluationParameters);

function enumValue(value: string | null): ValueType | null {
  return value === null ? null : { type: 'enum_variant', value };
}

function numberParameter(): fc.Arbitrary<ValueType | null> {
  return fc.oneof(
    { arbitrary: numberArbitrary.map((value): ValueType => ({ type: 'number', value })), weight: 8 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: fc.constant<ValueType>({ type: 'str_value', value: '100' }), weight: 1 },
  );
}

function strParameter(pool: readonly string[]): fc.Arbitrary<ValueType | null> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...pool).map((value): ValueType => ({ type: 'str_value', value })), weight: 8 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: fc.constant<ValueType>({ type: 'number', value: 7 }), weight: 1 },
  );
}
