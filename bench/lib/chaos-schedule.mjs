// The chaos bench's fault schedule: a pure function of a seed, so `--seed N` replays the same faults
// at the same offsets. Every target gets a SIGKILL (then a restart) and a SIGSTOP (then SIGCONT);
// faults follow one another with seeded gaps, and some start while the previous one still holds
// (overlapping), never two on the same target at once.

import { seededRandom } from './seeded-random.mjs';

/** What can be faulted: one API replica, one process of each worker kind, the three servers. */
export const targetKinds = ['api', 'sr-windows', 'analytics-sink', 'generation', 'kafka', 'redis', 'clickhouse'];

/**
 * Builds the schedule: `{ id, target, kind: 'kill' | 'hang', atMs, holdMs }[]` sorted by start, where
 * `target` names one instance (`api-2`, `generation-1`, `kafka`...). A kill is SIGKILL at `atMs` and a
 * restart at `atMs + holdMs`; a hang is SIGSTOP at `atMs` and SIGCONT at `atMs + holdMs`.
 * `windowMs` bounds the last fault's end; `holdMs` is drawn from [minHoldMs, maxHoldMs];
 * `overlap` is the chance that a fault starts during the one before it.
 */
export function buildSchedule(seed, { windowMs, startMs = 5_000, minHoldMs = 2_000, maxHoldMs = 6_000, maxGapMs = 4_000, overlap = 0.3, kinds = targetKinds }) {
  const random = seededRandom(seed);
  const instance = (kind) => (['kafka', 'redis', 'clickhouse'].includes(kind) ? kind : `${kind}-${1 + Math.floor(random() * 2)}`);
  const pending = kinds.flatMap((kind) => [
    { kind: 'kill', targetKind: kind },
    { kind: 'hang', targetKind: kind },
  ]);
  // Fisher-Yates with the seeded generator.
  for (let i = pending.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pending[i], pending[j]] = [pending[j], pending[i]];
  }
  const faults = [];
  let cursor = startMs;
  let previous;
  for (const entry of pending) {
    const holdMs = Math.round(minHoldMs + random() * (maxHoldMs - minHoldMs));
    const target = instance(entry.targetKind);
    let atMs = cursor + Math.round(random() * maxGapMs);
    if (previous !== undefined && random() < overlap) {
      // Starts while the previous fault holds: two things broken at once (never one kind twice).
      const during = previous.atMs + Math.round(random() * previous.holdMs * 0.8);
      const busy = faults.some((fault) => fault.targetKind === entry.targetKind && fault.atMs + fault.holdMs > during);
      if (!busy) atMs = during;
    }
    const fault = { id: faults.length + 1, target, targetKind: entry.targetKind, kind: entry.kind, atMs, holdMs };
    faults.push(fault);
    cursor = Math.max(cursor, atMs + holdMs);
    previous = fault;
  }
  // Compressed to the window when the draw ran long (same order, same overlaps).
  const end = Math.max(...faults.map((fault) => fault.atMs + fault.holdMs));
  if (end > windowMs) {
    const scale = (windowMs - startMs) / (end - startMs);
    for (const fault of faults) {
      fault.atMs = Math.round(startMs + (fault.atMs - startMs) * scale);
      fault.holdMs = Math.max(1_000, Math.round(fault.holdMs * scale));
    }
  }
  faults.sort((a, b) => a.atMs - b.atMs);
  return faults.map(({ targetKind: _kind, ...fault }, index) => ({ ...fault, id: index + 1 }));
}

/** The faults whose windows overlap another's, as `[idA, idB]` pairs. */
export function overlappingPairs(faults) {
  const pairs = [];
  for (const a of faults) {
    for (const b of faults) {
      if (a.id < b.id && a.atMs < b.atMs + b.holdMs && b.atMs < a.atMs + a.holdMs) pairs.push([a.id, b.id]);
    }
  }
  return pairs;
}
