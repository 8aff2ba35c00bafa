import { readFileSync } from 'node:fs';

/** A thread's niceness from its `/proc/…/stat` line (field 19; the command name in parentheses may hold spaces). */
export function niceOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** The calling thread's niceness. */
export function ownThreadNice(): number {
  return niceOf(readFileSync('/proc/thread-self/stat', 'utf8'));
}
