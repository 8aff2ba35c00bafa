import { describe, expect, it } from 'vitest';
import { PendingSpend } from '../../../src/governance/pending-spend.js';
import { reservationUsd } from '../../../src/governance/reservation.js';
import { effectivePolicy } from '../../../src/governance/key-policy.js';
import { periodId, secondsLeftInMinute, secondsLeftInPeriod } from '../../../src/governance/usage-windows.js';

describe('PendingSpend', () => {
  it('settles a request only after every count tracked for it, failed ones included, and keeps requests apart', async () => {
    const pending = new PendingSpend();
    let finish!: () => void;
    let fail!: (error: Error) => void;
    pending.track('r1', new Promise<void>((resolve) => (finish = resolve)));
    pending.track('r1', new Promise<void>((_, reject) => (fail = reject)));
    let settled = false;
    const waiting = pending.settled('r1').then(() => (settled = true));
    await expect(pending.settled('r2')).resolves.toBeUndefined();
    finish();
    await Promise.resolve();
    expect(settled).toBe(false);
    fail(new Error('redis away'));
    await waiting;
    expect(settled).toBe(true);
  });
});

describe('governance arithmetic', () => {
  it('reserves the prompt and max_tokens at the dearest price; nothing for an unpriced model', () => {
    expect(
      reservationUsd(
        [
          { input: 0.00015, output: 0.0006 },
          { input: 0.003, output: 0.015 },
        ],
        3000,
        100,
      ),
    ).toBeCloseTo(0.003 + 0.0015, 12);
    expect(reservationUsd([undefined], 3000, 100)).toBe(0);
  });

  it("takes the key's own limits field by field over the merchant's defaults", () => {
    expect(effectivePolicy({ limits: { rpm: 5 } }, { limits: { rpm: 100, maxConcurrent: 3 }, cache: { ttlS: 60 } })).toEqual({
      limits: { rpm: 5, maxConcurrent: 3 },
      cache: { ttlS: 60 },
    });
    expect(effectivePolicy(undefined, undefined)).toEqual({});
  });

  it('counts in UTC minutes, days and months', () => {
    const at = Date.UTC(2026, 11, 31, 23, 59, 45);
    expect(secondsLeftInMinute(at)).toBe(15);
    expect(secondsLeftInPeriod('day', at)).toBe(15);
    expect(secondsLeftInPeriod('month', at)).toBe(15);
    expect(periodId('day', at)).toBe('d20261231');
    expect(periodId('month', at)).toBe('m202612');
  });
});
