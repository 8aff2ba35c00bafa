/**
 * One component of a score key or dimension string. decision-engine writes an empty component as
 * `UNKNOWN` (intercalate_without_empty_string), so windows written by either implementation line up.
 */
export function keyComponent(value: string | null | undefined): string {
  return value === null || value === undefined || value === '' ? 'UNKNOWN' : value;
}
