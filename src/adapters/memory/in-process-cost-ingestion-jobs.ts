import type { CostIngestionJob, CostIngestionJobs } from '../../ports/cost-ingestion-jobs.js';
import type { Logger } from '../../logging/logger.js';

/**
 * Embedded mode's cost ingestion runner: jobs run one after another in this process (a report
 * pass is I/O and parsing; running two at once would only compete for the same cores).
 * `run` is looked up per job so the composition root can build it after the service that submits.
 */
export function createInProcessCostIngestionJobs(options: {
  readonly run: (job: CostIngestionJob) => Promise<void>;
  readonly logger: Logger;
}): CostIngestionJobs {
  let tail: Promise<void> = Promise.resolve();
  return {
    submit(job) {
      tail = tail.then(() =>
        options.run(job).catch((error: unknown) => {
          options.logger.error({ err: error, merchantId: job.merchantId, ingestionId: job.ingestionId }, 'cost ingestion job failed');
        }),
      );
    },
    async drain() {
      let seen: Promise<void>;
      do {
        seen = tail;
        await seen;
      } while (seen !== tail);
    },
  };
}
