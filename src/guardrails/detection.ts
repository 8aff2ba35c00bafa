/**
 * What a detector reports: which kind of sensitive value it found and where, as offsets into the scanned
 * text. A detection never carries the matched text itself, so it can be counted, logged and published
 * without leaking what it found.
 */

/** The built-in kinds of sensitive value, each with its own guard and placeholder label. */
export const detectorKinds = ['card', 'email', 'phone', 'iban', 'national-id', 'ip', 'credential'] as const;
export type DetectorKind = (typeof detectorKinds)[number];

/** The label of a kind's placeholder: `[CARD_1]`, `[EMAIL_2]`. Custom guards bring their own. */
export const placeholderLabels: Readonly<Record<DetectorKind, string>> = {
  card: 'CARD',
  email: 'EMAIL',
  phone: 'PHONE',
  iban: 'IBAN',
  'national-id': 'NATIONAL_ID',
  ip: 'IP',
  credential: 'SECRET',
};

export interface Detection {
  /** The guard that found it: a built-in kind, or `deny-list` / `pattern:<name>` for custom guards. */
  readonly kind: string;
  /** Offset of the first character (UTF-16 units). */
  readonly start: number;
  /** Offset after the last character. */
  readonly end: number;
}

/**
 * Drops detections that overlap an earlier-starting (or, at the same start, longer) one, so each character
 * is replaced at most once. Input order does not matter; output is sorted by start.
 */
export function withoutOverlaps(detections: readonly Detection[]): Detection[] {
  if (detections.length < 2) return [...detections];
  const sorted = [...detections].sort((left, right) => left.start - right.start || right.end - left.end);
  const kept: Detection[] = [];
  let reached = -1;
  for (const detection of sorted) {
    if (detection.start >= reached) {
      kept.push(detection);
      reached = detection.end;
    }
  }
  return kept;
}
