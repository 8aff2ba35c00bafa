import type { MerchantStore, SessionStore } from '../ports/state-store.js';
import type { AttemptOrigin, AuthAttemptRecorder } from './auth-attempt.js';
import { safeEqual } from './constant-time.js';
import { FailureThrottle, type BackoffPolicy, type ThrottleSubject } from './login-throttle.js';

/**
 * Checks the value of the admin secret header (guards merchant creation and, when configured,
 * signup) against the configured secret, in constant time.
 *
 * @remarks A missing header, an empty header or an empty configured secret never matches: an
 * unset secret must lock the door, not open it.
 */
export function matchesAdminSecret(provided: string | undefined, configured: string): boolean {
  if (provided === undefined || provided === '' || configured === '') return false;
  return safeEqual(provided, configured);
}

/**
 * Per source address, like a login's address counter but stricter: one secret, so one "account".
 * From the 5th failure 1 s, 2 s, 4 s … capped at 15 min, remembered for 1 h. An operator who
 * mistypes a few times is never slowed; a guesser gets about a hundred tries a day per address.
 */
export const defaultAdminSecretThrottlePolicy: BackoffPolicy = Object.freeze({
  failuresBeforeBackoff: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  windowSeconds: 3_600,
});

export type AdminSecretCheck =
  | { readonly kind: 'ok' }
  | { readonly kind: 'invalid_admin_secret' }
  | { readonly kind: 'throttled'; readonly retryAfterMs: number };

export interface AdminSecretGuardDependencies {
  /** The configured secret (ADMIN_SECRET). */
  readonly secret: string;
  readonly sessions: SessionStore;
  /** Only read after a failure, to attribute it to the existing merchant it aimed at. */
  readonly merchants: MerchantStore;
  readonly policy?: BackoffPolicy;
  readonly audit?: AuthAttemptRecorder;
}

/**
 * The admin secret's door: throttled per source address (shared by every replica through the
 * session store), compared in constant time, each refusal an `auth.attempted` audit event.
 *
 * @remarks A throttled address is refused before the comparison, even with the right secret, as a
 * throttled login is: otherwise the throttle would still answer "right or wrong" to a guesser.
 * Successes are not audited (merchant creation is logged and evented by its route) and do not
 * clear the address's failures: one operator's success must not reset a guesser behind the same
 * address.
 */
export class AdminSecretGuard {
  readonly #deps: AdminSecretGuardDependencies;
  readonly #throttle: FailureThrottle;
  readonly #policy: BackoffPolicy;

  constructor(dependencies: AdminSecretGuardDependencies) {
    this.#deps = dependencies;
    this.#throttle = new FailureThrottle(dependencies.sessions);
    this.#policy = dependencies.policy ?? defaultAdminSecretThrottlePolicy;
  }

  /**
   * @param presented the header's value (undefined when absent or repeated)
   * @param namedMerchantId the merchant the request names (signup's `merchant_id`, the new
   *   merchant's id): a refusal is shown in that merchant's log when it exists.
   */
  async check(presented: string | undefined, origin: AttemptOrigin, namedMerchantId?: string): Promise<AdminSecretCheck> {
    const subjects: readonly ThrottleSubject[] = [{ key: `admin-secret:address:${origin.sourceAddress}`, policy: this.#policy }];
    const throttle = await this.#throttle.check(subjects);
    if (!throttle.allowed) {
      await this.#audit('throttled', origin, namedMerchantId);
      return { kind: 'throttled', retryAfterMs: throttle.retryAfterMs };
    }
    if (matchesAdminSecret(presented, this.#deps.secret)) return { kind: 'ok' };
    await this.#throttle.recordFailure(subjects);
    await this.#audit('invalid_admin_secret', origin, namedMerchantId);
    return { kind: 'invalid_admin_secret' };
  }

  async #audit(reason: 'throttled' | 'invalid_admin_secret', origin: AttemptOrigin, namedMerchantId: string | undefined): Promise<void> {
    const audit = this.#deps.audit;
    if (audit === undefined) return;
    const named = namedMerchantId?.trim() ?? '';
    const merchantId = named !== '' && (await this.#deps.merchants.get(named)) !== undefined ? named : null;
    audit({ credential: 'admin_secret', outcome: 'failure', reason, merchantId, subject: null, userId: null, keyId: null, origin });
  }
}
