import type { AuthAttemptRecorder } from '../auth-attempt.js';
import type { MemberChange, MemberChangeRecorder } from './member-change.js';

/** What was done to whom, as the audit row's `action`: `member_invite <email> as <role>[ (new user)]`, `member_remove <email> (<role>)`. */
export function memberChangeAction(change: MemberChange): string {
  return change.action === 'invited'
    ? `member_invite ${change.memberEmail} as ${change.role}${change.newUser ? ' (new user)' : ''}`
    : `member_remove ${change.memberEmail} (${change.role})`;
}

/**
 * Team changes on the audit trail: each one an `auth.attempted` event (credential `members`,
 * outcome success) in the merchant's log, the admin who made it as subject and user, so
 * /analytics/log-summaries lists them beside the logins and the SSO and super-admin audit.
 */
export function memberChangeAuditor(record: AuthAttemptRecorder): MemberChangeRecorder {
  return (change) =>
    record({
      credential: 'members',
      outcome: 'success',
      reason: null,
      merchantId: change.merchantId,
      subject: change.actorEmail,
      userId: change.actorUserId,
      keyId: null,
      origin: change.origin,
      action: memberChangeAction(change),
    });
}
