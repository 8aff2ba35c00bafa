// CPU time a process (or one of its threads) has used, from Linux /proc: for CPU-per-operation
// figures, which move far less from run to run than rates on a shared machine.
import { readdirSync, readFileSync } from 'node:fs';

/** /proc reports times in USER_HZ ticks, which Linux fixes at 100 for userspace on every architecture. */
const userHz = 100;

/** A `stat` file's command name and its CPU seconds (utime + stime); undefined when it cannot be read. */
function readStat(path) {
  let stat;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return undefined; // no /proc, or the process or thread has ended
  }
  // The name sits in parentheses and may itself hold ') ': the fields start after the last one.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return { name: stat.slice(stat.indexOf('(') + 1, close), seconds: (Number(fields[11]) + Number(fields[12])) / userHz };
}

/**
 * CPU seconds (user + system) used so far by process `pid` (all its threads), or by its thread `tid`
 * when given (`tid === pid` is the main thread); undefined where /proc is not there.
 */
export function cpuSeconds(pid, tid = undefined) {
  return readStat(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`)?.seconds;
}

/**
 * CPU seconds used so far by the threads of process `pid`, summed per thread name with trailing
 * digits and dots dropped (`QueryPipelineEx3` → `QueryPipelineEx`): a thread pool is one entry.
 */
export function threadGroupCpuSeconds(pid) {
  const groups = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
    if (stat === undefined) continue; // the thread ended between the listing and the read
    const name = stat.name.replace(/[\d.]+$/, '');
    groups.set(name, (groups.get(name) ?? 0) + stat.seconds);
  }
  return groups;
}
