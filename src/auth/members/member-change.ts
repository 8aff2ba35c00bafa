import type { AttemptOrigin } from '../auth-attempt.js';
import type { MerchantRole } from '../../ports/state-store.js';

/**
 * One change to a merchant's team, for the audit trail (`member.changed` events): who did what to
 * whom, from where. Never holds a password (not even an invited user's generated one).
 */
export interface MemberChange {
  readonly action: 'invited' | 'removed';
  readonly merchantId: string;
  /** The admin who made the change. */
  readonly actorUserId: string;
  readonly actorEmail: string;
  readonly memberUserId: string;
  readonly memberEmail: string;
  /** The role given (invited) or held until removal (removed). */
  readonly role: MerchantRole;
  /** invited: whether the invite created the user; removed: always false. */
  readonly newUser: boolean;
  readonly origin: AttemptOrigin;
}

/** Receives changes as they happen; must not throw nor make the caller wait (like `AuthAttemptRecorder`). */
export type MemberChangeRecorder = (change: MemberChange) => void;
