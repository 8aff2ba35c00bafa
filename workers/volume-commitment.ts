import type { JobConsumer, JobQueue } from '../src/ports/job-queue.js';
import { runVolumeForecast, type VolumeForecastDeps, volumeForecastQueue, volumeForecastScheduleId } from '../src/volume-commitment/run-volume-forecast.js';
import type { WorkerHandle } from './worker-handle.js';

export interface VolumeCommitmentWorkerDeps {
  readonly jobs: JobQueue;
  /** The forecaster's ports, clock, default cadence and logger (src/volume-commitment/). */
  readonly forecast: VolumeForecastDeps;
  /** How often a sweep starts (config `volumeCommitmentIntervalSeconds`, in ms). */
  readonly intervalMs: number;
}

export const volumeCommitmentWorkerName = 'volume-commitment';

/**
 * The volume-commitment forecaster: adds the repeating job (every replica does; the queue keeps one
 * schedule) and consumes it, one sweep at a time. Embedded, inside `serve` on the in-process queue;
 * distributed, `switchyard worker volume-commitment` on BullMQ, where each tick runs once and runs
 * never overlap (JobQueue.schedule). `POST /volume-commitment/run-forecast` runs the same sweep now.
 */
export async function start(deps: VolumeCommitmentWorkerDeps): Promise<WorkerHandle> {
  const log = deps.forecast.logger.child({ worker: volumeCommitmentWorkerName });
  const forecast = { ...deps.forecast, logger: log };
  let running: Promise<unknown> = Promise.resolve();
  const consumer: JobConsumer = await deps.jobs.process<Record<string, never>>(
    volumeForecastQueue,
    async (job) => {
      const run = runVolumeForecast(forecast);
      running = run.catch(() => undefined);
      const report = await run;
      log.info({ tick: job.scheduledAt, processed: report.merchantsProcessed, failed: report.merchantsFailed }, 'volume commitment tick done');
    },
    { concurrency: 1 },
  );
  await deps.jobs.schedule(volumeForecastQueue, { id: volumeForecastScheduleId, everyMs: deps.intervalMs }, {});
  log.info({ intervalMs: deps.intervalMs }, 'worker started');
  return {
    name: volumeCommitmentWorkerName,
    /** Resolves when the sweep in hand (if any) has finished. */
    caughtUp: async () => {
      await running;
    },
    /** Stops taking ticks; the sweep in hand finishes. The schedule stays for the other replicas. */
    close: () => consumer.close(),
  };
}
