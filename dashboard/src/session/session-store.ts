import type { AuthResponse, MerchantInfo } from '../api/server-types';

/** The signed-in operator: the session token and the merchant context it carries. */
export interface Session {
  readonly token: string;
  readonly email: string;
  readonly userId: string;
  /** '' until the user onboards or joins a merchant. */
  readonly merchantId: string;
  readonly role: string;
  readonly merchants: readonly MerchantInfo[];
}

/**
 * sessionStorage, not localStorage: the token lives as long as the tab (a reload keeps it, a
 * closed tab forgets it), and another tab signs in on its own.
 */
const storageKey = 'switchyard.session';

export function sessionFromAuth(answer: AuthResponse): Session {
  return { token: answer.token, email: answer.email, userId: answer.user_id, merchantId: answer.merchant_id, role: answer.role, merchants: answer.merchants };
}

export function loadSession(): Session | undefined {
  const text = sessionStorage.getItem(storageKey);
  if (text === null) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<Session>;
    return typeof parsed.token === 'string' && typeof parsed.merchantId === 'string' ? (parsed as Session) : undefined;
  } catch {
    sessionStorage.removeItem(storageKey); // written by an older dashboard: sign in again
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  if (session === undefined) sessionStorage.removeItem(storageKey);
  else sessionStorage.setItem(storageKey, JSON.stringify(session));
}
