import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { UsageError } from '../exit-codes.js';
import { runWorker, workerNames } from '../run-worker.js';

/** `worker <name>`: one worker as its own process. */
export function registerWorkerCommand(program: Command, context: CliContext): void {
  program
    .command('worker')
    .argument('<name>', workerNames.join(' | '))
    .description('Run one worker process (scale out by running more)')
    .action(async (name: string) => {
      if (!(workerNames as readonly string[]).includes(name)) throw new UsageError(`unknown worker "${name}": ${workerNames.join(' | ')}`);
      await runWorker(name, context.config, context.serviceLogger());
      context.keepRunning = true;
    });
}
