import { describe, expect, it } from 'vitest';
import type { SuccessRateConfig } from '../../../src/generated/schema-types.js';
import { resolveSrParameters, type SrMatchDimensions } from '../../../src/decision/resolve-sr-parameters.js';
import { defaultRoutingDefaults } from '../../../src/decision/routing-defaults.js';

const card: SrMatchDimensions = {
  paymentMethodType: 'CARD',
  paymentMethod: 'CREDIT',
  cardNetwork: 'VISA',
  cardIsIn: '411111',
  currency: 'USD',
  country: 'US',
  authType: 'THREE_DS',
};
const resolve = (config: SuccessRateConfig | undefined, payment: SrMatchDimensions = card) => resolveSrParameters(config, payment, defaultRoutingDefaults);

describe('resolveSrParameters', () => {
  it('uses the defaults without a merchant config', () => {
    expect(resolve(undefined)).toEqual({ bucketSize: 125, hedgingPercent: 5, latencyThresholdSeconds: 90 });
  });

  it('uses the merchant top-level defaults over the routing defaults', () => {
    expect(resolve({ defaultBucketSize: 200, defaultHedgingPercent: 1, defaultLatencyThreshold: 300 })).toEqual({
      bucketSize: 200,
      hedgingPercent: 1,
      latencyThresholdSeconds: 300,
    });
  });

  it('uses a matching sub-level entry over the top-level default', () => {
    const config: SuccessRateConfig = {
      defaultBucketSize: 200,
      subLevelInputConfig: [{ paymentMethodType: 'CARD', bucketSize: 250 }],
    };
    expect(resolve(config).bucketSize).toBe(250);
  });

  it('prefers the more specific entry even when a generic one is listed first', () => {
    const config: SuccessRateConfig = {
      subLevelInputConfig: [
        { paymentMethodType: 'CARD', hedgingPercent: 20.0 },
        { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardNetwork: 'VISA', hedgingPercent: 8.81 },
      ],
    };
    expect(resolve(config).hedgingPercent).toBe(8.81);
  });

  it('takes the earlier entry when two are equally specific', () => {
    const config: SuccessRateConfig = {
      subLevelInputConfig: [
        { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', hedgingPercent: 11.0 },
        { paymentMethodType: 'CARD', currency: 'USD', hedgingPercent: 12.0 },
      ],
    };
    expect(resolve(config).hedgingPercent).toBe(11.0);
  });

  it('skips entries whose set fields do not all match', () => {
    const config: SuccessRateConfig = {
      defaultBucketSize: 150,
      subLevelInputConfig: [
        { paymentMethodType: 'CARD', paymentMethod: 'DEBIT', bucketSize: 10 },
        { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', country: 'IN', bucketSize: 20 },
        { paymentMethodType: 'UPI', bucketSize: 30 },
        { paymentMethod: 'CREDIT', bucketSize: 40 },
      ],
    };
    expect(resolve(config).bucketSize).toBe(150);
  });

  it('matches every narrowing field the entry sets', () => {
    const config: SuccessRateConfig = {
      subLevelInputConfig: [
        {
          paymentMethodType: 'CARD',
          paymentMethod: 'CREDIT',
          cardNetwork: 'VISA',
          cardIsIn: '411111',
          currency: 'USD',
          country: 'US',
          authType: 'THREE_DS',
          bucketSize: 77,
        },
      ],
    };
    expect(resolve(config).bucketSize).toBe(77);
    expect(resolve(config, { ...card, authType: 'OTP' }).bucketSize).toBe(125);
    expect(resolve(config, { ...card, cardIsIn: null }).bucketSize).toBe(125);
  });

  it('compares the payment method type case-insensitively', () => {
    expect(resolve({ subLevelInputConfig: [{ paymentMethodType: 'card', bucketSize: 60 }] }).bucketSize).toBe(60);
  });

  it('resolves each parameter on its own', () => {
    const config: SuccessRateConfig = {
      defaultHedgingPercent: 2,
      defaultLatencyThreshold: 120,
      subLevelInputConfig: [
        { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardNetwork: 'VISA', bucketSize: 300 },
        { paymentMethodType: 'CARD', hedgingPercent: 9 },
      ],
    };
    expect(resolve(config)).toEqual({ bucketSize: 300, hedgingPercent: 9, latencyThresholdSeconds: 120 });
  });

  it('skips values that would break the math', () => {
    const config: SuccessRateConfig = {
      defaultBucketSize: 0,
      defaultHedgingPercent: -1,
      subLevelInputConfig: [{ paymentMethodType: 'CARD', bucketSize: 12.5, latencyThreshold: -5 }],
    };
    expect(resolve(config)).toEqual({ bucketSize: 125, hedgingPercent: 5, latencyThresholdSeconds: 90 });
  });
});
