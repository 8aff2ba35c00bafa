import { describe, expect, it } from 'vitest';
import type { PspPlan, SteeringPlan, VolumeContractConfig } from '../../../src/ports/state/volume-commitment.js';
import { buildSteeringPlan, chooseCommitmentsToKeep, measure } from '../../../src/volume-commitment/build-steering-plan.js';
import { commitmentsOf, cycleWindow } from '../../../src/volume-commitment/commitments-of.js';
import { steerPayment } from '../../../src/volume-commitment/steer-payment.js';

const noon = Date.UTC(2026, 7, 20, 12, 0, 0);
const day = 86_400_000;

function psp(connector: string, reward: number, steerRate: number, extra: Partial<PspPlan> = {}): PspPlan {
  return {
    connector,
    reward,
    remaining: 1000,
    neededDaily: 200,
    routingGivesDaily: 50,
    needsSteering: true,
    steerRate,
    periodStartMs: 0,
    periodEndMs: Number.MAX_SAFE_INTEGER,
    daySecs: 86_400,
    ...extra,
  };
}

function plan(psps: PspPlan[], tolerance = 0.05): SteeringPlan {
  return {
    merchantId: 'm1',
    runId: 'vcr_0',
    ruleId: 'r',
    contractAnchorMs: 0,
    computedAtMs: noon,
    staleAfterMs: noon + 3_600_000,
    tolerance,
    psps,
    dropped: [],
    measuredDailyTraffic: null,
  };
}

const always = () => 0;
const never = () => 0.999;

describe('steerPayment', () => {
  it('steers to a PSP behind pace that approves within the tolerance', () => {
    const outcome = steerPayment({ best: 0.95, behind: 0.92 }, 'best', plan([psp('behind', 1000, 0.5)]), noon, always);
    expect(outcome.chosen).toBe('behind');
    expect(outcome.info).toMatchObject({ outcome: 'STEERED', srHead: 'best', chosen: 'behind', steerRate: 0.5 });
    expect(outcome.info.srGapConceded).toBeCloseTo(0.03, 10);
  });

  it('keeps the payment when the approval gap exceeds the tolerance, whatever the rate', () => {
    expect(steerPayment({ best: 0.95, behind: 0.89 }, 'best', plan([psp('behind', 1000, 1)]), noon, always).chosen).toBeUndefined();
  });

  it('keeps the payment on a losing roll or a zero rate', () => {
    expect(steerPayment({ best: 0.95, behind: 0.92 }, 'best', plan([psp('behind', 1000, 0.2)]), noon, never).chosen).toBeUndefined();
    expect(steerPayment({ best: 0.95, behind: 0.92 }, 'best', plan([psp('behind', 1000, 0)]), noon, always).chosen).toBeUndefined();
  });

  it('steers nothing on an expired plan or past the cycle end', () => {
    const expired = { ...plan([psp('behind', 1000, 1)]), staleAfterMs: noon - 1 };
    const outcome = steerPayment({ best: 0.95, behind: 0.92 }, 'best', expired, noon, always);
    expect(outcome.chosen).toBeUndefined();
    expect(outcome.info.reason).toContain('expired');
    expect(steerPayment({ best: 0.95, behind: 0.92 }, 'best', plan([psp('behind', 1000, 1, { periodEndMs: noon })]), noon, always).chosen).toBeUndefined();
  });

  it('gives a contested payment to the higher reward, and never nudges the SR head itself or a non-candidate', () => {
    const contested = plan([psp('rich', 5000, 1), psp('poor', 1000, 1)]);
    expect(steerPayment({ best: 0.95, rich: 0.92, poor: 0.93 }, 'best', contested, noon, always).chosen).toBe('rich');
    expect(steerPayment({ behind: 0.95, other: 0.9 }, 'behind', plan([psp('behind', 1000, 1)]), noon, always).chosen).toBeUndefined();
    expect(steerPayment({ best: 0.95 }, 'best', plan([psp('absent', 1000, 1)]), noon, always).chosen).toBeUndefined();
  });

  it('draws no roll for a PSP that fails another check', () => {
    let draws = 0;
    steerPayment({ best: 0.95, behind: 0.5 }, 'best', plan([psp('behind', 1000, 1)]), noon, () => {
      draws += 1;
      return 0;
    });
    expect(draws).toBe(0);
  });
});

describe('chooseCommitmentsToKeep', () => {
  const position = (connector: string, reward: number, remaining: number, neededDaily: number) =>
    psp(connector, reward, 0, { remaining, neededDaily, routingGivesDaily: 0, needsSteering: false });

  it('drops the weakest reward first when the traffic left is short', () => {
    const { kept, dropped } = chooseCommitmentsToKeep(
      [
        position('psp_a', 20_000, 4_400_000, 244_444),
        position('psp_b', 12_000, 3_450_000, 191_667),
        position('psp_c', 6_000, 3_050_000, 169_444),
        position('psp_d', 15_000, 2_500_000, 138_889),
      ],
      11_160_000,
      620_000,
    );
    expect(kept.map((entry) => entry.connector)).toEqual(['psp_a', 'psp_d', 'psp_b']);
    expect(dropped.map((entry) => entry.connector)).toEqual(['psp_c']);
  });

  it('drops a hopeless commitment before it can crowd out winnable ones', () => {
    const { kept, dropped } = chooseCommitmentsToKeep(
      [position('psp_doomed', 50_000, 9_000_000, 900_000), position('psp_b', 12_000, 3_450_000, 191_667), position('psp_c', 6_000, 3_050_000, 169_444)],
      11_160_000,
      620_000,
    );
    expect(kept.map((entry) => entry.connector)).toEqual(['psp_b', 'psp_c']);
    expect(dropped[0]?.reason).toContain('cannot be met');
  });

  it('breaks equal rewards by name', () => {
    const { kept, dropped } = chooseCommitmentsToKeep(
      [position('zeta', 10_000, 6_000_000, 100), position('alpha', 10_000, 6_000_000, 100)],
      6_000_000,
      1_000_000,
    );
    expect(kept.map((entry) => entry.connector)).toEqual(['alpha']);
    expect(dropped.map((entry) => entry.connector)).toEqual(['zeta']);
  });
});

describe('cycle windows and commitments', () => {
  it('opens a calendar month at midnight in the contract zone, clamped anchors included', () => {
    const cycle = { type: 'calendar_month', anchor: 1, timezone: 'America/New_York', proration: 'full_period' } as const;
    // 2026-08-20 12:00Z: the cycle opened 2026-08-01 00:00 EDT (04:00Z) and closes 2026-09-01 04:00Z.
    expect(cycleWindow(cycle, noon)).toEqual([Date.UTC(2026, 7, 1, 4), Date.UTC(2026, 8, 1, 4)]);
    // Before the anchor day the cycle is last month's: anchored on the 25th.
    expect(cycleWindow({ ...cycle, anchor: 25, timezone: 'UTC' }, noon)).toEqual([Date.UTC(2026, 6, 25), Date.UTC(2026, 7, 25)]);
    // Day 30 in February is its last day.
    expect(cycleWindow({ ...cycle, anchor: 30, timezone: 'UTC' }, Date.UTC(2026, 2, 10))).toEqual([Date.UTC(2026, 1, 28), Date.UTC(2026, 2, 30)]);
  });

  it('opens quarters and years on their anchor month, and test cycles on epoch-aligned minutes', () => {
    expect(cycleWindow({ type: 'calendar_quarter', anchor: 2, timezone: 'UTC', proration: 'full_period' }, noon)).toEqual([
      Date.UTC(2026, 7, 1),
      Date.UTC(2026, 10, 1),
    ]);
    expect(cycleWindow({ type: 'calendar_year', anchor: 4, timezone: 'UTC', proration: 'full_period' }, noon)).toEqual([
      Date.UTC(2026, 3, 1),
      Date.UTC(2027, 3, 1),
    ]);
    expect(cycleWindow({ type: 'test_minutes', anchor: 10, timezone: 'UTC', proration: 'full_period' }, noon + 125_000)).toEqual([noon, noon + 600_000]);
  });

  it('reads the goal and reward of lumpsum and tiered contracts', () => {
    const cycle = { type: 'calendar_month', anchor: 1, timezone: 'UTC', proration: 'full_period' } as const;
    const config: VolumeContractConfig = {
      schema_version: 1,
      routing_mode: 'pace_guarded',
      tolerance_bps: 500,
      metric: 'gmv',
      currency: { denomination: 'USD', amount_units: 'minor' },
      expected_daily_traffic: 1,
      volume_contracts: [
        {
          id: 'a',
          connector: 'adyen',
          status: 'active',
          billing_cycle: cycle,
          archetype: 'lumpsum',
          terms: { target: 1_000, reward: { kind: 'percentage', value: { rebate_bps: 25 } } },
        },
        {
          id: 't',
          connector: 'stripe',
          status: 'active',
          billing_cycle: cycle,
          archetype: 'tiered',
          terms: {
            tiers: [
              { kind: 'retroactive', rate: { rebate_bps: 20 }, threshold: 800_000, targeted: true, rebate_lag_days: 0, rebate_settlement: 'cash' },
              { kind: 'marginal', rate: { rate_bps: 60 }, threshold: 1_000_000, targeted: false, rebate_lag_days: 0, rebate_settlement: 'cash' },
            ],
          },
        },
        {
          id: 'off',
          connector: 'checkout',
          status: 'inactive',
          billing_cycle: cycle,
          archetype: 'lumpsum',
          terms: { target: 1, reward: { kind: 'flat', value: { flat_amount: 1 } } },
        },
      ],
    };
    expect(commitmentsOf(config, noon).map((c) => [c.connector, c.goal, c.reward, c.rewardNote])).toEqual([
      ['adyen', 1_000, 2.5, '0.25% rebate'],
      ['stripe', 800_000, 1_600, '0.2% rebate'],
    ]);
  });
});

describe('buildSteeringPlan', () => {
  const cycle = { type: 'calendar_month', anchor: 1, timezone: 'UTC', proration: 'full_period' } as const;
  const config: VolumeContractConfig = {
    schema_version: 1,
    routing_mode: 'pace_guarded',
    tolerance_bps: 300,
    metric: 'gmv',
    currency: { denomination: 'USD', amount_units: 'minor' },
    expected_daily_traffic: 1_000_000,
    volume_contracts: [
      {
        id: 'a',
        connector: 'adyen',
        status: 'active',
        billing_cycle: cycle,
        archetype: 'lumpsum',
        terms: { target: 2_000_000, reward: { kind: 'flat', value: { flat_amount: 5 } } },
      },
    ],
  };

  it("measures achieved, pace, unaided routing and today's steering from the day rows, in minor units", () => {
    const [commitment] = commitmentsOf(config, noon);
    if (commitment === undefined) throw new Error('no commitment');
    // Day 19 (Aug 20) is today; the pace window is days 13–19: 6.5 days elapsed.
    const rows = [
      { connector: 'adyen', dayIndex: 2, payments: 1, amount: 100, steeredPayments: 0, steeredAmount: 0 },
      { connector: 'adyen', dayIndex: 15, payments: 2, amount: 200, steeredPayments: 1, steeredAmount: 100 },
      { connector: 'adyen', dayIndex: 19, payments: 1, amount: 50, steeredPayments: 1, steeredAmount: 50 },
      { connector: 'stripe', dayIndex: 19, payments: 9, amount: 900, steeredPayments: 0, steeredAmount: 0 },
    ];
    const measured = measure(rows, commitment, noon, config, 100);
    expect(measured.achieved).toBe(35_000);
    expect(measured.pace).toBeCloseTo(25_000 / 6.5, 6);
    expect(measured.routingGivesDaily).toBeCloseTo(10_000 / 6.5, 6);
    expect(measured.steeredToday).toBe(5_000);
  });

  it('marks a PSP routing does not feed enough, with a rate of what is owed today over the traffic still coming', () => {
    const commitments = commitmentsOf(config, noon);
    const result = buildSteeringPlan({
      merchantId: 'm1',
      ruleId: 'r1',
      contractAnchorMs: 7,
      config,
      commitments,
      measured: new Map([['adyen', { achieved: 0, pace: 0, routingGivesDaily: 0, steeredToday: 10_000 }]]),
      nowMs: noon,
      intervalSeconds: 300,
    });
    const daysLeft = (Date.UTC(2026, 8, 1) - noon) / day;
    expect(result).toMatchObject({
      runId: `vcr_${Date.UTC(2026, 7, 1)}`,
      ruleId: 'r1',
      contractAnchorMs: 7,
      tolerance: 0.03,
      staleAfterMs: noon + 900_000,
      dropped: [],
    });
    expect(result.psps[0]?.needsSteering).toBe(true);
    expect(result.psps[0]?.neededDaily).toBeCloseTo(2_000_000 / daysLeft, 6);
    expect(result.psps[0]?.steerRate).toBeCloseTo((2_000_000 / daysLeft - 10_000) / 500_000, 6);
  });
});
