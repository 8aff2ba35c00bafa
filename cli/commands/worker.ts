import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';
import { workerNames } from '../worker-names.js';

/** `worker <name>`: one worker as its own process. */
export function registerWorkerCommand(program: Command, context: CliContext): void {
  program
    .command('worker')
    .argument('<name>', workerNames.join(' | '))
    .description('Run one worker process (scale out by running more)')
    .action(async (name: string) => {
      if (!(workerNames as readonly string[]).includes(name)) throw new UsageError(`unknown worker "${name}": ${workerNames.join(' | ')}`);
      // The worker's code (Kafka, ClickHouse, BullMQ clients) loads only when a worker runs: see program.ts.
      const { runWorker } = await import('../run-worker.js');
      await runWorker(name, context.config, context.serviceLogger());
      context.keepRunning = true;
    });
}
