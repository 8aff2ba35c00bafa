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
}
