import { createDiskReportSpool } from '../src/adapters/fs/disk-report-spool.js';
import { createInProcessCostIngestionJobs } from '../src/adapters/memory/in-process-cost-ingestion-jobs.js';
import { CostIngestionService } from '../src/costs/ingestion/cost-ingestion-service.js';
import type { Logger } from '../src/logging/logger.js';
import type { CostRowStore } from '../src/ports/analytics/cost-rows.js';
import type { CostIngestionJobs } from '../src/ports/cost-ingestion-jobs.js';
import type { ConfigStore } from '../src/ports/state/config-store.js';
import type { Clock } from '../src/time/clock.js';

export interface CostIngestionWiring {
  readonly configs: ConfigStore;
  readonly rows: CostRowStore;
  /** Folder uploads are spooled in (the data directory's `cost-uploads/`). */
  readonly spoolDirectory: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly maxReportBytes?: number;
}

/**
 * Cost ingestion as embedded mode runs it: uploads spooled on the local disk and processed in this
 * process, one at a time. `jobs.drain()` waits for the uploads accepted so far (shutdown, tests).
 */
export function createCostIngestion(wiring: CostIngestionWiring): { readonly service: CostIngestionService; readonly jobs: CostIngestionJobs } {
  const logger = wiring.logger.child({ component: 'cost-ingestion' });
  let service: CostIngestionService | undefined;
  const jobs = createInProcessCostIngestionJobs({ run: (job) => service!.process(job), logger });
  service = new CostIngestionService({
    configs: wiring.configs,
    rows: wiring.rows,
    spool: createDiskReportSpool(wiring.spoolDirectory),
    jobs,
    clock: wiring.clock,
    logger,
    ...(wiring.maxReportBytes !== undefined ? { maxReportBytes: wiring.maxReportBytes } : {}),
  });
  return { service, jobs };
}
