import type { Logger as PinoLogger } from 'pino';
import type { Config } from '../src/config/load-config.js';
import * as srWindows from '../workers/sr-windows.js';
import type { WorkerHandle } from '../workers/worker-handle.js';
import { createRuntime, runtimeDefaults } from './create-runtime.js';

const workerNames = ['sr-windows', 'analytics-sink'] as const;

/** `switchyard worker <name>`: one worker as its own process; SIGTERM finishes the batch, commits, leaves the group. */
export async function runWorker(name: string | undefined, config: Config, logger: PinoLogger): Promise<number> {
  if (name === undefined || !(workerNames as readonly string[]).includes(name)) {
    process.stderr.write(`worker name required: ${workerNames.join(' | ')}\n`);
    return 2;
  }
  const runtime = await createRuntime(config, logger);
  let handle: WorkerHandle;
  if (name === 'sr-windows') {
    handle = await srWindows.start({ bus: runtime.bus, state: runtime.state, clock: runtimeDefaults.clock, logger, defaults: runtimeDefaults.routingDefaults });
  } else {
    process.stderr.write('analytics-sink needs the analytics store (event-spine issue)\n');
    await runtime.close();
    return 2;
  }
  const stop = async (signal: string) => {
    logger.info({ signal, worker: name }, 'worker stopping');
    await handle.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  return -1;
}
