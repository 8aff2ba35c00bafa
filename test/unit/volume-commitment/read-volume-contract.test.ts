import { describe, expect, it } from 'vitest';
import { readVolumeContract } from '../../../src/volume-commitment/read-volume-contract.js';

type Doc = Record<string, unknown> & { volume_contracts: Record<string, unknown>[] };

function lumpsum(): Doc {
  return {
    routing_mode: 'pace_guarded',
    tolerance_bps: 500,
    currency: { denomination: 'USD' },
    expected_daily_traffic: 80_000_000,
    volume_contracts: [
      {
        id: 'adyen_2026_lumpsum',
        connector: 'adyen',
        billing_cycle: { type: 'calendar_month', anchor: 1, timezone: 'America/New_York' },
        archetype: 'lumpsum',
        terms: { target: 600_000_000, reward: { kind: 'flat', value: { flat_amount: 1_500_000 } } },
      },
    ],
  };
}

function problems(input: unknown): string[] {
  const result = readVolumeContract(input);
  return result.ok ? [] : result.issues.map((entry) => `${entry.code} ${entry.path}`);
}

describe('readVolumeContract', () => {
  it('fills the defaults and stores amounts as minor-unit integers', () => {
    const result = readVolumeContract(lumpsum());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({ schema_version: 1, metric: 'gmv', currency: { denomination: 'USD', amount_units: 'minor' }, tolerance_bps: 500 });
    expect(result.config.volume_contracts[0]).toMatchObject({ status: 'active', billing_cycle: { proration: 'full_period' } });
  });

  it('converts major units and decimal strings by the currency exponent', () => {
    const doc = lumpsum();
    doc['currency'] = { denomination: 'USD', amount_units: 'major' };
    doc['expected_daily_traffic'] = 800_000;
    doc.volume_contracts[0] = { ...doc.volume_contracts[0], terms: { target: 6_000_000, reward: { kind: 'flat', value: { flat_amount: '15000.50' } } } };
    const result = readVolumeContract(doc);
    expect(result.ok && result.config.expected_daily_traffic).toBe(80_000_000);
    expect(result.ok && result.config.volume_contracts[0]).toMatchObject({ terms: { target: 600_000_000, reward: { value: { flat_amount: 1_500_050 } } } });
    const yen = { ...lumpsum(), currency: { denomination: 'JPY', amount_units: 'major' } };
    expect(readVolumeContract(yen).ok && (readVolumeContract(yen) as { config: { expected_daily_traffic: number } }).config.expected_daily_traffic).toBe(
      80_000_000,
    );
  });

  it('accepts the tolerance as bps, pp, or under its alias', () => {
    for (const [value, bps] of [
      [500, 500],
      ['5pp', 500],
      ['550bps', 550],
      ['275', 275],
    ] as const) {
      const result = readVolumeContract({ ...lumpsum(), tolerance_bps: value });
      expect(result.ok && result.config.tolerance_bps).toBe(bps);
    }
    const { tolerance_bps: _dropped, ...rest } = lumpsum();
    const aliased = readVolumeContract({ ...rest, tolerance: '5pp' });
    expect(aliased.ok && aliased.config.tolerance_bps).toBe(500);
    expect(problems({ ...lumpsum(), tolerance_bps: 'five' })).toEqual(['invalid_shape data.tolerance_bps']);
  });

  it('refuses unknown fields as shape errors naming the field', () => {
    const doc = lumpsum();
    doc.volume_contracts[0] = { ...doc.volume_contracts[0], rebate_lagdays: 30 };
    const result = readVolumeContract(doc);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.kind).toBe('shape');
    expect(!result.ok && result.issues[0]?.message).toContain('rebate_lagdays');
    expect(problems({ ...lumpsum(), surprise: 1 })).toEqual(['invalid_shape data']);
  });

  it('refuses a reward carrying the other kind of field', () => {
    const doc = lumpsum();
    doc.volume_contracts[0] = { ...doc.volume_contracts[0], terms: { target: 1, reward: { kind: 'flat', value: { flat_amount: 1, rebate_bps: 25 } } } };
    expect(problems(doc)).toEqual(['invalid_shape data.volume_contracts[0].terms.reward.value']);
  });

  it('lists every semantic problem at once', () => {
    const doc = lumpsum();
    doc['tolerance_bps'] = 2001;
    doc['expected_daily_traffic'] = 0;
    doc['forecast_interval_secs'] = 1;
    doc.volume_contracts.push(
      { ...doc.volume_contracts[0] },
      { ...doc.volume_contracts[0], id: 'x', billing_cycle: { type: 'calendar_month', anchor: 31, timezone: 'Mars/Olympus' } },
    );
    const result = readVolumeContract(doc);
    expect(!result.ok && result.kind).toBe('semantic');
    expect(problems(doc)).toEqual([
      'out_of_range data.tolerance_bps',
      'out_of_range data.expected_daily_traffic',
      'out_of_range data.forecast_interval_secs',
      'duplicate data.volume_contracts[1].id',
      'duplicate data.volume_contracts[1].connector',
      'duplicate data.volume_contracts[2].connector',
      'out_of_range data.volume_contracts[2].billing_cycle.anchor',
      'invalid_value data.volume_contracts[2].billing_cycle.timezone',
    ]);
  });

  it('wants exactly one targeted retroactive tier and increasing thresholds', () => {
    const doc = lumpsum();
    doc.volume_contracts[0] = {
      ...doc.volume_contracts[0],
      archetype: 'tiered',
      terms: {
        tiers: [
          { kind: 'retroactive', rate: { rebate_bps: 20 }, threshold: 800_000_000, targeted: true },
          { kind: 'marginal', rate: { rate_bps: 60 }, threshold: 1_000_000_000, rebate_lag_days: 30, rebate_settlement: 'credit_note' },
        ],
      },
    };
    expect(readVolumeContract(doc).ok).toBe(true);
    const bad = structuredClone(doc) as Doc;
    bad.volume_contracts[0] = {
      ...bad.volume_contracts[0],
      terms: {
        tiers: [
          { kind: 'marginal', rate: { rate_bps: 20 }, threshold: 800, targeted: true },
          { kind: 'retroactive', rate: { rebate_bps: 60 }, threshold: 700, targeted: true },
        ],
      },
    };
    expect(problems(bad)).toEqual([
      'invalid_target data.volume_contracts[0].terms.tiers',
      'invalid_target data.volume_contracts[0].terms.tiers[0].targeted',
      'not_increasing data.volume_contracts[0].terms.tiers[1].threshold',
    ]);
  });

  it('parses min_commitment but refuses it as not enabled, and refuses fractional minor amounts', () => {
    const doc = lumpsum();
    doc.volume_contracts[0] = {
      ...doc.volume_contracts[0],
      archetype: 'min_commitment',
      terms: { floor: 1, reward: { kind: 'flat', value: { flat_amount: 1 } } },
    };
    expect(problems(doc)).toEqual(['not_enabled data.volume_contracts[0].terms']);
    const fraction = lumpsum();
    fraction.volume_contracts[0] = { ...fraction.volume_contracts[0], terms: { target: '100.5', reward: { kind: 'percentage', value: { rebate_bps: 25 } } } };
    expect(problems(fraction)).toEqual(['invalid_amount data.volume_contracts[0].terms.target']);
  });
});
