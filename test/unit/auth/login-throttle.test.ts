import { describe, expect, it } from 'vitest';
import { defaultLoginThrottlePolicy, LoginThrottle, loginBackoffMs, type BackoffPolicy, type LoginThrottlePolicy } from '../../../src/auth/login-throttle.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const policy: BackoffPolicy = { failuresBeforeBackoff: 5, baseDelayMs: 1_000, maxDelayMs: 900_000, windowSeconds: 3_600 };

describe('loginBackoffMs', () => {
  it('allows the first four failures without delay', () => {
    expect([0, 1, 2, 3, 4].map((failures) => loginBackoffMs(failures, policy))).toEqual([0, 0, 0, 0, 0]);
  });

  it('doubles the delay from the fifth failure on', () => {
    expect([5, 6, 7, 8, 14].map((failures) => loginBackoffMs(failures, policy))).toEqual([1_000, 2_000, 4_000, 8_000, 512_000]);
  });

  it('caps the delay at 15 minutes', () => {
    expect(loginBackoffMs(15, policy)).toBe(900_000);
    expect(loginBackoffMs(1_000_000, policy)).toBe(900_000);
  });

  it('uses 5 failures, 1 s base and a 15 min cap for accounts by default', () => {
    expect(defaultLoginThrottlePolicy.account).toMatchObject({ failuresBeforeBackoff: 5, baseDelayMs: 1_000, maxDelayMs: 900_000 });
  });
});

describe('LoginThrottle', () => {
  const testPolicy: LoginThrottlePolicy = {
    account: policy,
    address: { failuresBeforeBackoff: 8, baseDelayMs: 1_000, maxDelayMs: 900_000, windowSeconds: 3_600 },
  };

  function setup() {
    const clock = createManualClock();
    const throttle = new LoginThrottle(memoryStateStore(clock).sessions, testPolicy);
    return { clock, throttle };
  }

  async function fail(throttle: LoginThrottle, times: number, account = 'a@b.com', address = '10.0.0.1') {
    for (let i = 0; i < times; i += 1) await throttle.recordFailure(account, address);
  }

  it('allows attempts below the threshold', async () => {
    const { throttle } = setup();
    await fail(throttle, 4);
    expect(await throttle.check('a@b.com', '10.0.0.1')).toEqual({ allowed: true });
  });

  it('locks the account for the backoff delay after the fifth failure', async () => {
    const { throttle, clock } = setup();
    await fail(throttle, 5);
    expect(await throttle.check('a@b.com', '10.0.0.2')).toEqual({ allowed: false, retryAfterMs: 1_000 });
    clock.advance(1_000);
    expect(await throttle.check('a@b.com', '10.0.0.2')).toEqual({ allowed: true });
  });

  it('locks longer with each further failure', async () => {
    const { throttle, clock } = setup();
    await fail(throttle, 5);
    clock.advance(1_000);
    await fail(throttle, 1);
    expect(await throttle.check('a@b.com', '10.0.0.1')).toEqual({ allowed: false, retryAfterMs: 2_000 });
    clock.advance(1_999);
    expect((await throttle.check('a@b.com', '10.0.0.1')).allowed).toBe(false);
    clock.advance(1);
    expect((await throttle.check('a@b.com', '10.0.0.1')).allowed).toBe(true);
  });

  it('treats case variants of an email as one account', async () => {
    const { throttle } = setup();
    await fail(throttle, 5, 'A@B.com');
    expect((await throttle.check('a@b.com', '10.0.0.9')).allowed).toBe(false);
  });

  it('locks a source address guessing at many accounts', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 8; i += 1) await throttle.recordFailure(`user${i}@b.com`, '10.0.0.1');
    expect(await throttle.check('fresh@b.com', '10.0.0.1')).toEqual({ allowed: false, retryAfterMs: 1_000 });
    expect(await throttle.check('fresh@b.com', '10.0.0.2')).toEqual({ allowed: true });
  });

  it('clears the account but not the address on success', async () => {
    const { throttle, clock } = setup();
    await fail(throttle, 7);
    clock.advance(900_000);
    await throttle.recordSuccess('a@b.com');
    await fail(throttle, 1, 'a@b.com', '10.0.0.1');
    // Account starts over at 1 failure; the address has 8 and is locked.
    expect((await throttle.check('a@b.com', '10.0.0.2')).allowed).toBe(true);
    expect((await throttle.check('other@b.com', '10.0.0.1')).allowed).toBe(false);
  });

  it('forgets failures once they leave the window', async () => {
    const { throttle, clock } = setup();
    await fail(throttle, 4);
    clock.advance(3_600_000);
    await fail(throttle, 1);
    expect((await throttle.check('a@b.com', '10.0.0.1')).allowed).toBe(true);
  });
});
