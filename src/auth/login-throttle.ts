import type { SessionStore } from '../ports/state-store.js';

/** How one kind of subject (an account, a source address) is slowed down after failed logins. */
export interface BackoffPolicy {
  /** Failures (inside the window) from which a delay applies: the Nth failure starts the first delay. */
  readonly failuresBeforeBackoff: number;
  /** The first delay; each further failure doubles it. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** How long a failure is remembered (sliding window in the session store). */
  readonly windowSeconds: number;
}

export interface LoginThrottlePolicy {
  readonly account: BackoffPolicy;
  readonly address: BackoffPolicy;
}

/**
 * Defaults. Accounts: from the 5th failure 1 s, 2 s, 4 s … capped at 15 min, remembered for 24 h,
 * so an online guesser gets roughly a hundred tries a day per account (NIST SP 800-63B §5.2.2
 * asks for at most 100 consecutive failures). Source addresses: a higher threshold (offices and
 * carriers put many users behind one address), same cap, remembered for 1 h.
 */
export const defaultLoginThrottlePolicy: LoginThrottlePolicy = Object.freeze({
  account: Object.freeze({ failuresBeforeBackoff: 5, baseDelayMs: 1_000, maxDelayMs: 15 * 60_000, windowSeconds: 24 * 3_600 }),
  address: Object.freeze({ failuresBeforeBackoff: 20, baseDelayMs: 1_000, maxDelayMs: 15 * 60_000, windowSeconds: 3_600 }),
});

/**
 * The delay a subject must wait after its latest failure, given how many failures it has in the
 * window: 0 below the threshold, then exponential, capped. Pure, so the curve is tested exactly.
 */
export function loginBackoffMs(failures: number, policy: BackoffPolicy): number {
  if (failures < policy.failuresBeforeBackoff) return 0;
  const doublings = failures - policy.failuresBeforeBackoff;
  // 2^40 ms is decades; beyond that only the cap matters (and 2^n would overflow to Infinity).
  if (doublings > 40) return policy.maxDelayMs;
  return Math.min(policy.baseDelayMs * 2 ** doublings, policy.maxDelayMs);
}

export type ThrottleCheck = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number };

/** One thing failures are counted against (an account, a source address) and its curve. */
export interface ThrottleSubject {
  /** The session-store counter key, e.g. `login:account:<email>`. */
  readonly key: string;
  readonly policy: BackoffPolicy;
}

/**
 * Exponential backoff over failure counters shared by every replica through the session store;
 * the mechanism behind both the login throttle and the admin-secret throttle.
 *
 * The store only counts failures in sliding windows, so a running backoff is kept as a second
 * counter (`login-lock:…`) recorded with a window as long as the delay: the subject is locked
 * while that counter is non-zero, and the store's own expiry lifts the lock.
 *
 * @remarks Attempts that race past `check` before their failures are recorded are not stopped;
 * each still counts, so the next check locks for longer.
 */
export class FailureThrottle {
  readonly #sessions: SessionStore;

  constructor(sessions: SessionStore) {
    this.#sessions = sessions;
  }

  /** Whether an attempt against all of `subjects` may be tried now (the longest lock wins). */
  async check(subjects: readonly ThrottleSubject[]): Promise<ThrottleCheck> {
    const states = await Promise.all(
      subjects.map(async ({ key, policy }) => {
        const locks = await this.#sessions.loginFailures(lockKey(key));
        if (locks === 0) return 0;
        return Math.max(loginBackoffMs(await this.#sessions.loginFailures(key), policy), 1_000);
      }),
    );
    const retryAfterMs = Math.max(0, ...states);
    return retryAfterMs === 0 ? { allowed: true } : { allowed: false, retryAfterMs };
  }

  /** Counts one failure against each subject and starts its lock once past the threshold. */
  async recordFailure(subjects: readonly ThrottleSubject[]): Promise<void> {
    await Promise.all(
      subjects.map(async ({ key, policy }) => {
        const failures = await this.#sessions.recordLoginFailure(key, policy.windowSeconds);
        const delayMs = loginBackoffMs(failures, policy);
        if (delayMs > 0) await this.#sessions.recordLoginFailure(lockKey(key), Math.ceil(delayMs / 1000));
      }),
    );
  }

  /** Forgets a subject's failures and lock. */
  async clear(key: string): Promise<void> {
    await Promise.all([this.#sessions.clearLoginFailures(key), this.#sessions.clearLoginFailures(lockKey(key))]);
  }
}

/**
 * Brute-force protection for `login`, per account and per source address (see FailureThrottle).
 *
 * @remarks A successful login clears the account's counters but not the address's: one valid
 * login must not reset an address that is guessing at other accounts.
 */
export class LoginThrottle {
  readonly #throttle: FailureThrottle;
  readonly #policy: LoginThrottlePolicy;

  constructor(sessions: SessionStore, policy: LoginThrottlePolicy = defaultLoginThrottlePolicy) {
    this.#throttle = new FailureThrottle(sessions);
    this.#policy = policy;
  }

  /** Whether a login for `account` from `sourceAddress` may be tried now. */
  check(account: string, sourceAddress: string): Promise<ThrottleCheck> {
    return this.#throttle.check(this.#subjects(account, sourceAddress));
  }

  /** Counts a failed login (unknown accounts too, so lockouts do not reveal which emails exist). */
  recordFailure(account: string, sourceAddress: string): Promise<void> {
    return this.#throttle.recordFailure(this.#subjects(account, sourceAddress));
  }

  /** Forgets the account's failures after a correct password. */
  recordSuccess(account: string): Promise<void> {
    return this.#throttle.clear(accountKey(account));
  }

  #subjects(account: string, sourceAddress: string): readonly ThrottleSubject[] {
    return [
      { key: accountKey(account), policy: this.#policy.account },
      { key: `login:address:${sourceAddress}`, policy: this.#policy.address },
    ];
  }
}

/** Lower-cased so that case variants of one address share a counter (stricter, never looser). */
function accountKey(account: string): string {
  return `login:account:${account.toLowerCase()}`;
}

function lockKey(key: string): string {
  return `login-lock:${key}`;
}
