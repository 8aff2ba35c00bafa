/** The workers `switchyard worker <name>` runs: named here, apart from their code, so the command line can list them without loading it. */
export const workerNames = ['sr-windows', 'analytics-sink', 'generation', 'autopilot', 'volume-commitment'] as const;
export type WorkerName = (typeof workerNames)[number];
