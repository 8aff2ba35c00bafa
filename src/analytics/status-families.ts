/**
 * The status families `status=success` / `status=failure` stand for in payment-audit and
 * preview-trace, and that `total_success` / `total_failure` count. Compared upper-cased.
 * The ClickHouse queries receive these lists as bound arrays, so this file is the only copy.
 */
export const successStatuses: readonly string[] = ['SUCCESS', 'CHARGED', 'AUTHORIZED', 'CAPTURED', 'PARTIAL_CHARGED', 'COD_INITIATED'];

/** A status is a failure when it contains one of these (FAILURE, *FAILED*, *DECLINED*). */
export const failureMarkers: readonly string[] = ['FAILURE', 'FAILED', 'DECLINED'];

export type StatusFamily = 'success' | 'failure' | 'other';

export function statusFamilyOf(status: string): StatusFamily {
  const upper = status.toUpperCase();
  if (successStatuses.includes(upper)) return 'success';
  if (failureMarkers.some((marker) => upper.includes(marker))) return 'failure';
  return 'other';
}
