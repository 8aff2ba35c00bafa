import { describe, expect, it } from 'vitest';
import type { DecideGatewayRequest } from '../../../src/generated/schema-types.js';
import type { RoutingAlgorithmRecord } from '../../../src/ports/state-store.js';
import { createSequenceRandom } from '../../../src/decision/random-source.js';
import { applyActiveRule } from '../../../src/routing-rules/apply-active-rule.js';
import { decisionRuleParameters } from '../../../src/routing-rules/decision-rule-parameters.js';
import { formatDbTimestamp } from '../../../src/routing-rules/db-timestamp.js';

const request: DecideGatewayRequest = {
  merchantId: 'm1',
  eligibleGatewayList: ['stripe', 'adyen', 'checkout'],
  rankingAlgorithm: 'PL_BASED_ROUTING',
  paymentInfo: {
    paymentId: 'p1',
    amount: 150.75,
    currency: 'usd',
    paymentType: 'ORDER_PAYMENT',
    paymentMethodType: 'CARD',
    paymentMethod: 'CREDIT',
    country: 'us',
    authType: 'THREE_DS',
    cardIsin: '41111122',
    cardType: 'CREDIT',
    cardSwitchProvider: 'VISA',
  },
};

function record(algorithm: RoutingAlgorithmRecord['algorithm']): RoutingAlgorithmRecord {
  return { id: 'routing_1', createdBy: 'm1', name: 'algo', description: '', algorithmFor: 'payment', algorithm, metadata: null, createdAt: 0, modifiedAt: 0 };
}

const gw = (name: string) => ({ gateway_name: name, gateway_id: null });

describe('decisionRuleParameters', () => {
  it("speaks the rule builder's vocabulary and leaves out what a key does not allow", () => {
    expect({ ...decisionRuleParameters(request.paymentInfo) }).toEqual({
      payment_method: { type: 'enum_variant', value: 'card' },
      payment_method_type: { type: 'enum_variant', value: 'credit' },
      amount: { type: 'number', value: 150 },
      currency: { type: 'enum_variant', value: 'USD' },
      card_network: { type: 'enum_variant', value: 'visa' },
      card_type: { type: 'enum_variant', value: 'credit' },
      authentication_type: { type: 'enum_variant', value: 'three_ds' },
      billing_country: { type: 'enum_variant', value: 'US' },
      card_bin: { type: 'str_value', value: '411111' },
    });
    const odd = decisionRuleParameters({ ...request.paymentInfo, paymentMethodType: 'TELEPORT', cardSwitchProvider: null, cardIsin: '12' });
    expect(odd['payment_method']).toBeUndefined();
    expect(odd['card_network']).toBeUndefined();
    expect(odd['card_bin']).toBeUndefined();
  });

  it('gives the scalar entries of the metadata JSON as metadata parameters, never under a routing key', () => {
    const withMetadata = decisionRuleParameters({
      ...request.paymentInfo,
      metadata: JSON.stringify({ tier: 'gold', retries: 2, vip: true, currency: 'EUR', nested: { a: 1 }, list: [1] }),
    });
    expect(withMetadata['tier']).toEqual({ type: 'metadata_variant', value: { key: 'tier', value: 'gold' } });
    expect(withMetadata['retries']).toEqual({ type: 'metadata_variant', value: { key: 'retries', value: '2' } });
    expect(withMetadata['vip']).toEqual({ type: 'metadata_variant', value: { key: 'vip', value: 'true' } });
    expect(withMetadata['currency']).toEqual({ type: 'enum_variant', value: 'USD' });
    expect(withMetadata['nested']).toBeUndefined();
    expect(withMetadata['list']).toBeUndefined();
    for (const metadata of ['not json', '[1,2]', '{"broken":', null]) {
      const parameters = decisionRuleParameters({ ...request.paymentInfo, metadata });
      expect(Object.keys(parameters).sort()).toEqual(Object.keys(decisionRuleParameters(request.paymentInfo)).sort());
    }
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'v']));
    const capped = decisionRuleParameters({ ...request.paymentInfo, metadata: JSON.stringify(many) });
    expect(Object.keys(capped).filter((key) => key.startsWith('k'))).toHaveLength(64);
  });

  it('lets a metadata rule decide a payment by its metadata', () => {
    const tierRule = record({
      type: 'advanced',
      data: {
        globals: {},
        default_selection: { priority: [gw('stripe')] },
        rules: [
          {
            name: 'Gold tier',
            routing_type: 'priority',
            output: { priority: [gw('adyen')] },
            statements: [
              {
                condition: [{ lhs: 'metadata', comparison: 'equal', value: { type: 'metadata_variant', value: { key: 'tier', value: 'gold' } }, metadata: {} }],
              },
            ],
          },
        ],
        metadata: null,
      },
    });
    const gold = applyActiveRule({ ...request, paymentInfo: { ...request.paymentInfo, metadata: '{"tier":"gold"}' } }, [tierRule], createSequenceRandom([]));
    expect(gold.rule).toEqual({ name: 'Gold tier', gateways: ['adyen'] });
    const silver = applyActiveRule(
      { ...request, paymentInfo: { ...request.paymentInfo, metadata: '{"tier":"silver"}' } },
      [tierRule],
      createSequenceRandom([]),
    );
    expect(silver.rule).toEqual({ name: 'algo', gateways: ['stripe'] });
  });
});

describe('applyActiveRule', () => {
  const random = createSequenceRandom([]);

  it('returns the request itself when no rule is active', () => {
    const applied = applyActiveRule(request, [], random);
    expect(applied.request).toBe(request);
    expect(applied.rule).toBeUndefined();
    expect(applied.event).toBeUndefined();
  });

  it('narrows and orders the eligible gateways by the rule output', () => {
    const applied = applyActiveRule(request, [record({ type: 'priority', data: [gw('checkout'), gw('paypal'), gw('stripe')] })], random);
    expect(applied.request.eligibleGatewayList).toEqual(['checkout', 'stripe']);
    expect(applied.rule).toEqual({ name: 'priority_rule', gateways: ['checkout', 'stripe'] });
    expect(applied.event).toMatchObject({
      algorithmId: 'routing_1',
      ruleName: 'priority_rule',
      status: 'success',
      evaluatedOutput: ['checkout', 'paypal', 'stripe'],
    });
  });

  it('uses the rule output as candidates when the request names none', () => {
    const applied = applyActiveRule({ ...request, eligibleGatewayList: [] }, [record({ type: 'single', data: gw('adyen') })], random);
    expect(applied.request.eligibleGatewayList).toEqual(['adyen']);
  });

  it('changes nothing when the rule shares no gateway, but still reports the evaluation', () => {
    const applied = applyActiveRule(request, [record({ type: 'single', data: gw('paypal') })], random);
    expect(applied.request).toBe(request);
    expect(applied.rule).toBeUndefined();
    expect(applied.event).toMatchObject({ status: 'success', evaluatedOutput: ['paypal'] });
  });
});

describe('formatDbTimestamp', () => {
  it('writes UTC with a space and six fractional digits', () => {
    expect(formatDbTimestamp(Date.UTC(2026, 3, 25, 11, 45, 3, 123))).toBe('2026-04-25 11:45:03.123000');
  });
});
