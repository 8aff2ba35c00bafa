import { safeEqual } from './constant-time.js';

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
