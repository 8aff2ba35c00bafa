/** Look-back presets of POST /analytics/counterfactual, in ms. */
export const counterfactualRanges: Readonly<Record<string, number>> = {
  '1h': 3_600_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
  '1w': 604_800_000,
  '30d': 2_592_000_000,
};

/** The longest range one evaluation covers. */
export const maxCounterfactualSpanMs = 31 * 86_400_000;

export type RangeOutcome = { readonly ok: true; readonly startMs: number; readonly endMs: number } | { readonly ok: false; readonly message: string };

/**
 * The evaluated range: start_ms/end_ms when given (both, end > start, at most 31 days), else the
 * preset `range` (default 1d) ending now.
 */
export function counterfactualRangeOf(input: { range?: string; start_ms?: number; end_ms?: number }, nowMs: number): RangeOutcome {
  const { start_ms: start, end_ms: end } = input;
  if ((start === undefined) !== (end === undefined)) return { ok: false, message: 'start_ms and end_ms must be given together' };
  if (start !== undefined && end !== undefined) {
    if (!(end > start)) return { ok: false, message: 'end_ms must be greater than start_ms' };
    if (end - start > maxCounterfactualSpanMs) return { ok: false, message: 'the range from start_ms to end_ms must not exceed 31 days' };
    return { ok: true, startMs: start, endMs: end };
  }
  const span = counterfactualRanges[input.range ?? '1d'];
  if (span === undefined) return { ok: false, message: `range must be one of ${Object.keys(counterfactualRanges).join(', ')}` };
  return { ok: true, startMs: nowMs - span, endMs: nowMs + 1 };
}
