// CPU time a process (or one of its threads) has used, from Linux /proc: for CPU-per-operation
// figures, which move far less from run to run than rates on a shared machine.
import { readdirSync, readFileSync } from 'node:fs';

/** /proc reports times in USER_HZ ticks, which Linux fixes at 100 for userspace on every architecture. */
const userHz = 100;

/** A /proc file's text, or undefined when it cannot be read (no /proc, or the process or thread has ended). */
function readProcFile(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A `stat` file's command name and its CPU seconds (user, system, and their sum); undefined when it cannot be read. */
function readStat(path) {
  const stat = readProcFile(path);
  if (stat === undefined) return undefined;
  // The name sits in parentheses and may itself hold ') ': the fields start after the last one.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  const user = Number(fields[11]) / userHz;
  const system = Number(fields[12]) / userHz;
  return { name: stat.slice(stat.indexOf('(') + 1, close), user, system, seconds: user + system };
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

/** User and system CPU seconds of thread `tid` of process `pid` (`tid === pid`: the main thread); undefined where /proc is not there. */
export function threadUserSystemSeconds(pid, tid) {
  const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
  return stat === undefined ? undefined : { user: stat.user, system: stat.system };
}

/** Thread `tid`'s context switches so far: voluntary (it waited) and involuntary (it was preempted); undefined where /proc is not there. */
export function contextSwitches(pid, tid) {
  const status = readProcFile(`/proc/${pid}/task/${tid}/status`);
  if (status === undefined) return undefined;
  const count = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { voluntary: count('voluntary_ctxt_switches'), involuntary: count('nonvoluntary_ctxt_switches') };
}
