import { readVolumeContract } from './read-volume-contract.js';

/** A demo contract the contract builder can load (the peer's `SampleScenario`). */
export interface VolumeContractSample {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** The `data` of a `volume_contract` algorithm, ready for `POST /routing/create`. */
  readonly contract: Record<string, unknown>;
}

const samples: readonly VolumeContractSample[] = [
  {
    id: 'lumpsum_monthly',
    name: 'Monthly lump sum',
    description: 'One PSP promised USD 6M a calendar month for a USD 15,000 bonus; steering may give up 5 pp of approval rate.',
    contract: {
      routing_mode: 'pace_guarded',
      tolerance_bps: 500,
      currency: { denomination: 'USD' },
      expected_daily_traffic: 80_000_000,
      volume_contracts: [
        {
          id: 'adyen_monthly_lumpsum',
          connector: 'adyen',
          billing_cycle: { type: 'calendar_month', anchor: 1, timezone: 'UTC' },
          archetype: 'lumpsum',
          terms: { target: 600_000_000, reward: { kind: 'flat', value: { flat_amount: 1_500_000 } } },
        },
      ],
    },
  },
  {
    id: 'tiered_quarterly',
    name: 'Quarterly tiered rebate',
    description: 'Two PSPs: a 0.20 % retroactive rebate past USD 8M a quarter on one, a lump sum on the other.',
    contract: {
      routing_mode: 'pace_guarded',
      tolerance_bps: 300,
      currency: { denomination: 'USD' },
      expected_daily_traffic: 20_000_000,
      volume_contracts: [
        {
          id: 'stripe_quarterly_tiers',
          connector: 'stripe',
          billing_cycle: { type: 'calendar_quarter', anchor: 1, timezone: 'America/New_York' },
          archetype: 'tiered',
          terms: {
            tiers: [
              { kind: 'retroactive', rate: { rebate_bps: 20 }, threshold: 800_000_000, targeted: true },
              { kind: 'marginal', rate: { rate_bps: 40 }, threshold: 1_200_000_000, rebate_lag_days: 30, rebate_settlement: 'credit_note' },
            ],
          },
        },
        {
          id: 'checkout_quarterly_lumpsum',
          connector: 'checkout',
          billing_cycle: { type: 'calendar_quarter', anchor: 1, timezone: 'America/New_York' },
          archetype: 'lumpsum',
          terms: { target: 300_000_000, reward: { kind: 'percentage', value: { rebate_bps: 25 } } },
        },
      ],
    },
  },
  {
    id: 'test_cycle',
    name: 'Ten-minute test cycle',
    description: 'A whole cycle plays out in ten minutes (each minute is a contract day), to watch pacing and steering live.',
    contract: {
      routing_mode: 'pace_guarded',
      tolerance_bps: 500,
      currency: { denomination: 'USD' },
      expected_daily_traffic: 1_000_000,
      forecast_interval_secs: 10,
      volume_contracts: [
        {
          id: 'adyen_test_cycle',
          connector: 'adyen',
          billing_cycle: { type: 'test_minutes', anchor: 10, timezone: 'UTC' },
          archetype: 'lumpsum',
          terms: { target: 3_000_000, reward: { kind: 'flat', value: { flat_amount: 50_000 } } },
        },
      ],
    },
  },
];

/** The samples, each one the document reader accepts (a sample this deployment would refuse is worse than none). */
export function volumeContractSamples(): VolumeContractSample[] {
  return samples.filter((sample) => readVolumeContract(sample.contract).ok).map((sample) => structuredClone(sample));
}
