import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * The niceness of the analytics thread and of every thread chDB starts from it. Analytics is
 * background work: the API answers first, the rows follow within seconds. On a machine whose cores
 * the API shares with the embedded analytics, the kernel otherwise splits a busy core evenly between
 * the API's event loop and chDB's inserts and merges, and decisions wait for their turn. At 10 the
 * analytics get about a tenth of a contended core (the kernel's weights: 1024 at 0, 110 at 10), and
 * all of an idle one, so they keep up whenever the machine has room.
 */
export const analyticsThreadNice = 10;

/**
 * Lowers the calling thread's scheduling priority to `nice` (Linux, where niceness is per thread and
 * the threads it starts inherit it; raising niceness needs no privilege). Returns false where that is
 * not possible (no `/proc/thread-self`, another OS): the thread then runs at the process's priority.
 */
export function lowerThreadPriority(nice: number): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
