import { randomUUID } from 'node:crypto';
import type { MerchantRole, UserRecord, UserStore } from '../../ports/state-store.js';
import type { Clock } from '../../time/clock.js';
import type { AttemptOrigin } from '../auth-attempt.js';
import { defaultScryptParams, hashPassword, type ScryptParams } from '../password-hash.js';
import type { SessionClaims } from '../token-service.js';
import { generateMemberPassword } from './generate-password.js';
import type { MemberChangeRecorder } from './member-change.js';

export interface MerchantMembersDependencies {
  readonly users: UserStore;
  readonly clock: Clock;
  /** Ids of invited new users; UUID v4 by default. */
  readonly generateId?: () => string;
  readonly generatePassword?: () => string;
  readonly passwordHashing?: ScryptParams;
  readonly audit?: MemberChangeRecorder;
}

export interface Member {
  readonly userId: string;
  readonly email: string;
  readonly role: MerchantRole;
}

export interface InvitedMember {
  readonly email: string;
  readonly isNewUser: boolean;
  /** The generated first password of a new user; shown once, only its hash is stored. */
  readonly password?: string;
  readonly role: MerchantRole;
}

/** Why a team change was refused; the API layer maps each to decision-engine's TE_04 answers. */
export type MemberFailure =
  | { readonly kind: 'forbidden' }
  | { readonly kind: 'already_member' }
  | { readonly kind: 'member_not_found' }
  | { readonly kind: 'last_admin' };

export type InviteResult = { readonly kind: 'ok'; readonly invited: InvitedMember } | MemberFailure;
export type RemoveResult = { readonly kind: 'ok'; readonly userId: string } | MemberFailure;

/** decision-engine's roles: `admin`, and `member` for anything else (absent, unknown, any case). */
export function memberRoleOf(requested: string | null | undefined): MerchantRole {
  return requested === 'admin' ? 'admin' : 'member';
}

/**
 * The team of a merchant: list, invite (creating the user when the email is new) and remove. Acts
 * on the session's merchant only; inviting and removing need the caller's *current* admin
 * membership (read from the store, not from the token, so a demoted or removed admin stops at once).
 */
export class MerchantMembers {
  readonly #deps: MerchantMembersDependencies;

  constructor(dependencies: MerchantMembersDependencies) {
    this.#deps = dependencies;
  }

  /** The caller's role in a merchant now; undefined when not (or no longer) a member. */
  roleOf(userId: string, merchantId: string): Promise<MerchantRole | undefined> {
    return merchantId === '' ? Promise.resolve(undefined) : this.#deps.users.roleIn(userId, merchantId);
  }

  /** The session merchant's members, admins included, by email. Members whose user record is gone are skipped. */
  async list(claims: SessionClaims): Promise<readonly Member[]> {
    if (claims.merchantId === '') return [];
    const memberships = await this.#deps.users.membersOf(claims.merchantId);
    const members = await Promise.all(
      memberships.map(async ({ userId, role }) => {
        const user = await this.#deps.users.findById(userId);
        return user === undefined ? undefined : { userId, email: user.email, role };
      }),
    );
    return members.filter((member): member is Member => member !== undefined).sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  }

  /**
   * Adds `email` to the session's merchant as `role`. A new email becomes a user with a generated
   * password (returned once), whose sessions start in this merchant; an existing user keeps its
   * password and gets the membership. Already a member (any role) is `already_member`.
   */
  async invite(claims: SessionClaims, email: string, requestedRole: string | null | undefined, origin: AttemptOrigin): Promise<InviteResult> {
    const actor = await this.#admin(claims);
    if (actor === undefined) return { kind: 'forbidden' };
    const role = memberRoleOf(requestedRole);
    const merchantId = claims.merchantId;
    let password: string | undefined;
    let user = await this.#deps.users.findByEmail(email);
    if (user === undefined) {
      password = (this.#deps.generatePassword ?? generateMemberPassword)();
      const created: UserRecord = {
        userId: (this.#deps.generateId ?? randomUUID)(),
        email,
        passwordHash: await hashPassword(password, this.#deps.passwordHashing ?? defaultScryptParams),
        currentMerchantId: merchantId,
        isActive: true,
        createdAt: this.#deps.clock.now(),
      };
      // A signup or invite racing for the same email may win: then this invites that user.
      if ((await this.#deps.users.create(created)) === 'created') user = created;
      else {
        password = undefined;
        user = await this.#deps.users.findByEmail(email);
        if (user === undefined) return { kind: 'member_not_found' };
      }
    }
    if ((await this.#deps.users.addMembershipIfAbsent({ userId: user.userId, merchantId, role })) === 'exists') return { kind: 'already_member' };
    if (user.currentMerchantId === '') await this.#deps.users.setCurrentMerchant(user.userId, merchantId);
    const isNewUser = password !== undefined;
    this.#deps.audit?.({
      action: 'invited',
      merchantId,
      actorUserId: actor.userId,
      actorEmail: actor.email,
      memberUserId: user.userId,
      memberEmail: user.email,
      role,
      newUser: isNewUser,
      origin,
    });
    return { kind: 'ok', invited: { email: user.email, isNewUser, ...(password !== undefined ? { password } : {}), role } };
  }

  /**
   * Removes a member from the session's merchant. The merchant's last admin cannot be removed
   * (nobody could manage the team afterwards). A removed user whose sessions started in this
   * merchant starts in another of its merchants (or none) from the next login.
   */
  async remove(claims: SessionClaims, userId: string, origin: AttemptOrigin): Promise<RemoveResult> {
    const actor = await this.#admin(claims);
    if (actor === undefined) return { kind: 'forbidden' };
    const merchantId = claims.merchantId;
    const role = await this.#deps.users.roleIn(userId, merchantId);
    if (role === undefined) return { kind: 'member_not_found' };
    if (role === 'admin') {
      const admins = (await this.#deps.users.membersOf(merchantId)).filter((membership) => membership.role === 'admin');
      if (admins.length <= 1) return { kind: 'last_admin' };
    }
    if (!(await this.#deps.users.removeMembership(userId, merchantId))) return { kind: 'member_not_found' };
    const member = await this.#deps.users.findById(userId);
    if (member !== undefined && member.currentMerchantId === merchantId) {
      const [next] = await this.#deps.users.memberships(userId);
      await this.#deps.users.setCurrentMerchant(userId, next?.merchantId ?? '');
    }
    this.#deps.audit?.({
      action: 'removed',
      merchantId,
      actorUserId: actor.userId,
      actorEmail: actor.email,
      memberUserId: userId,
      memberEmail: member?.email ?? '',
      role,
      newUser: false,
      origin,
    });
    return { kind: 'ok', userId };
  }

  async #admin(claims: SessionClaims): Promise<{ readonly userId: string; readonly email: string } | undefined> {
    const role = await this.roleOf(claims.userId, claims.merchantId);
    return role === 'admin' ? { userId: claims.userId, email: claims.email } : undefined;
  }
}
