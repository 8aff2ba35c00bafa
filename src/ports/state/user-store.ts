export type MerchantRole = 'admin' | 'member';

export interface UserRecord {
  readonly userId: string;
  readonly email: string;
  readonly passwordHash: string;
  /** The merchant the user's sessions start in; '' until the user joins or onboards one. */
  readonly currentMerchantId: string;
  readonly isActive: boolean;
  readonly createdAt: number;
}

export interface Membership {
  readonly userId: string;
  readonly merchantId: string;
  readonly role: MerchantRole;
}

/** Operator accounts and their merchant memberships. */
export interface UserStore {
  /** Creates a user; 'exists' when the email is taken (emails compared verbatim). */
  create(user: UserRecord): Promise<'created' | 'exists'>;
  findByEmail(email: string): Promise<UserRecord | undefined>;
  findById(userId: string): Promise<UserRecord | undefined>;
  setCurrentMerchant(userId: string, merchantId: string): Promise<void>;
  addMembership(membership: Membership): Promise<void>;
  memberships(userId: string): Promise<readonly Membership[]>;
  /**
   * Adds the membership unless the user already belongs to the merchant (in any role), in one
   * atomic step: two invites racing for one user both see 'exists' but one.
   */
  addMembershipIfAbsent(membership: Membership): Promise<'added' | 'exists'>;
  /** The merchant's members (admins included), in no promised order. */
  membersOf(merchantId: string): Promise<readonly Membership[]>;
  /** The user's role in the merchant; undefined when not a member. */
  roleIn(userId: string, merchantId: string): Promise<MerchantRole | undefined>;
  /** Removes the membership atomically (both indexes); false when there was none. */
  removeMembership(userId: string, merchantId: string): Promise<boolean>;
}
