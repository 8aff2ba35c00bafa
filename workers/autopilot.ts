import { type AutopilotDeps, autopilotQueue, autopilotScheduleId, runAutopilot } from '../src/decision/autopilot/run-autopilot.js';
import type { JobConsumer, JobQueue } from '../src/ports/job-queue.js';
import type { WorkerHandle } from './worker-handle.js';

export interface AutopilotWorkerDeps {
  readonly jobs: JobQueue;
  /** The calibration's ports, clock, bounds and logger (src/decision/autopilot/). */
  readonly autopilot: AutopilotDeps;
  /** How often a run starts (config `autopilotIntervalSeconds`, in ms). */
  readonly intervalMs: number;
}

export const autopilotWorkerName = 'autopilot';

/**
 * The autopilot worker: adds the repeating job (every replica does; the queue keeps one schedule)
 * and consumes it, one run at a time. Embedded, inside `serve` on the in-process queue; distributed,
 * `switchyard worker autopilot` on BullMQ, where however many replicas run, each tick runs once and
 * runs never overlap (JobQueue.schedule).
 */
export async function start(deps: AutopilotWorkerDeps): Promise<WorkerHandle> {
  const log = deps.autopilot.logger.child({ worker: autopilotWorkerName });
  const autopilot = { ...deps.autopilot, logger: log };
  let running: Promise<unknown> = Promise.resolve();
  const consumer: JobConsumer = await deps.jobs.process<Record<string, never>>(
    autopilotQueue,
    async (job) => {
      const run = runAutopilot(autopilot, { scheduledAt: job.scheduledAt ?? autopilot.clock.now() });
      running = run.catch(() => undefined);
      const runs = await run;
      log.info({ tick: job.scheduledAt, merchants: runs.length }, 'autopilot tick done');
    },
    { concurrency: 1 },
  );
  await deps.jobs.schedule(autopilotQueue, { id: autopilotScheduleId, everyMs: deps.intervalMs }, {});
  log.info({ intervalMs: deps.intervalMs, lookbackSeconds: autopilot.bounds.lookbackSeconds }, 'worker started');
  return {
    name: autopilotWorkerName,
    /** Resolves when the run in hand (if any) has finished. */
    caughtUp: async () => {
      await running;
    },
    /** Stops taking ticks; the run in hand finishes. The schedule stays for the other replicas. */
    close: () => consumer.close(),
  };
}
