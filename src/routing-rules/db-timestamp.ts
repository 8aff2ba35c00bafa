/**
 * decision-engine's database timestamp format (`time::PrimitiveDateTime`, UTC, no zone):
 * `"2026-04-25 11:45:03.123000"`. We keep milliseconds, so the last three digits are zeros.
 */
export function formatDbTimestamp(epochMs: number): string {
  const iso = new Date(epochMs).toISOString(); // 2026-04-25T11:45:03.123Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}
