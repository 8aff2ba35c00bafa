/** One accepted upload waiting to be parsed, validated, stored and fitted. Plain JSON. */
export interface CostIngestionJob {
  readonly merchantId: string;
  readonly ingestionId: string;
  /** ReportSpool handle of the uploaded bytes. */
  readonly spoolHandle: string;
}

/**
 * Runs accepted uploads outside the request that brought them.
 *
 * @remarks Embedded mode runs them in process, one at a time. Distributed mode can move them onto
 * the JobQueue (BullMQ) once the spool is shared storage: the job is plain JSON for that reason.
 */
export interface CostIngestionJobs {
  /** Schedules a job; returns at once. */
  submit(job: CostIngestionJob): void;
  /** Resolves when every job submitted so far has finished (shutdown, tests). */
  drain(): Promise<void>;
}
