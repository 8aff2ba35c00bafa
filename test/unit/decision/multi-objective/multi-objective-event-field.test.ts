import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../../src/decision/decision.js';
import type { MultiObjectiveInfo } from '../../../../src/decision/multi-objective/multi-objective-info.js';
import { multiObjectiveFieldOf } from '../../../../src/decision/multi-objective/multi-objective-event-field.js';

/** Only what the mark reads of a decision: the amount and the post-step's info. */
const decisionWith = (info: MultiObjectiveInfo, amount = 200) => ({ payment: { amount }, multiObjectiveInfo: info }) as unknown as Decision;

const costWon: MultiObjectiveInfo = {
  outcome: 'COST_WON',
  reason: '',
  srHead: { psp: 'stripe', authRate: 0.9, costBps: 320 },
  chosen: { psp: 'adyen', authRate: 0.88, costBps: 100 },
  costSavedBps: 220,
  qualifiedCount: 2,
  margin: 0.2,
  evGapTop2: null,
};

describe('multiObjectiveFieldOf', () => {
  it('nets the saving of a cost-won pick against the approvals its cheaper gateway is expected to lose', () => {
    const mark = multiObjectiveFieldOf(decisionWith(costWon));
    // Gross: 200 × 220 bps = 4.40. EV per ticket: 0.88 × (0.2 − 0.01) = 0.1672 against 0.9 × (0.2 − 0.032) = 0.1512.
    expect(mark?.savedValue).toBeCloseTo(4.4, 9);
    expect(mark?.netValue).toBeCloseTo(200 * (0.1672 - 0.1512), 9);
    expect(mark?.approvalsLost).toBeCloseTo(0.02, 12);
  });

  it('reads a net loss when the approvals lost are worth more than the fee saved at the margin', () => {
    const mark = multiObjectiveFieldOf(decisionWith({ ...costWon, chosen: { psp: 'adyen', authRate: 0.6, costBps: 100 } }));
    expect(mark?.netValue).toBeLessThan(0);
    expect(mark?.approvalsLost).toBeCloseTo(0.3, 12);
  });

  it('has zero net and no approvals lost when the SR head was kept', () => {
    const head = costWon.srHead;
    const mark = multiObjectiveFieldOf(decisionWith({ ...costWon, outcome: 'AUTH_WON', chosen: head, costSavedBps: null }));
    expect(mark).toMatchObject({ savedValue: 0, netValue: 0, approvalsLost: 0 });
  });
});
