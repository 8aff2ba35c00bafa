import {
  experimentGuardrailQueue,
  experimentGuardrailScheduleId,
  runGuardrailChecks,
  type GuardrailChecksDeps,
} from '../src/experiments/run-guardrail-checks.js';
import type { JobConsumer, JobQueue } from '../src/ports/job-queue.js';
import type { WorkerHandle } from './worker-handle.js';

export interface ExperimentGuardrailWorkerDeps {
  readonly jobs: JobQueue;
  readonly checks: GuardrailChecksDeps;
  /** How often a check starts (ms). */
  readonly intervalMs: number;
}

export const experimentGuardrailWorkerName = 'experiment-guardrail';

/**
 * The periodic experiment guardrail check: adds the repeating job (every replica does; the queue
 * keeps one schedule, and runs never overlap: JobQueue.schedule) and consumes it, one run at a
 * time. Embedded, inside `serve`; distributed, beside the autopilot in `switchyard worker autopilot`.
 */
export async function start(deps: ExperimentGuardrailWorkerDeps): Promise<WorkerHandle> {
  const log = deps.checks.logger.child({ worker: experimentGuardrailWorkerName });
  const checks = { ...deps.checks, logger: log };
  let running: Promise<unknown> = Promise.resolve();
  const consumer: JobConsumer = await deps.jobs.process<Record<string, never>>(
    experimentGuardrailQueue,
    async (job) => {
      const run = runGuardrailChecks(checks);
      running = run.catch(() => undefined);
      const stops = await run;
      log.debug({ tick: job.scheduledAt, stopped: stops.length }, 'experiment guardrail tick done');
    },
    { concurrency: 1 },
  );
  await deps.jobs.schedule(experimentGuardrailQueue, { id: experimentGuardrailScheduleId, everyMs: deps.intervalMs }, {});
  log.info({ intervalMs: deps.intervalMs }, 'worker started');
  return {
    name: experimentGuardrailWorkerName,
    /** Resolves when the run in hand (if any) has finished. */
    caughtUp: async () => {
      await running;
    },
    /** Stops taking ticks; the run in hand finishes. The schedule stays for the other replicas. */
    close: () => consumer.close(),
  };
}
