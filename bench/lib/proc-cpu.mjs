// CPU time a process (or one of its threads) has used, from Linux /proc: for CPU-per-operation
// figures, which move far less from run to run than rates on a shared machine.
import { readFileSync } from 'node:fs';

/** /proc reports times in USER_HZ ticks, which Linux fixes at 100 for userspace on every architecture. */
const userHz = 100;

/**
 * CPU seconds (user + system) used so far by process `pid` (all its threads), or by its thread `tid`
 * when given (`tid === pid` is the main thread); undefined where /proc is not there.
 */
export function cpuSeconds(pid, tid = undefined) {
  try {
    const fields = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8')
      .split(') ')[1]
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / userHz; // utime, stime
  } catch {
    return undefined;
  }
}
