import type { Logger as PinoLogger } from 'pino';
import type { Config } from '../src/config/load-config.js';
import * as analyticsSink from '../workers/analytics-sink.js';
import * as srWindows from '../workers/sr-windows.js';
import type { WorkerHandle } from '../workers/worker-handle.js';
import { createRuntime, runtimeDefaults } from './create-runtime.js';

const workerNames = ['sr-windows', 'analytics-sink'] as const;
type WorkerName = (typeof workerNames)[number];

/**
 * `switchyard worker <name>`: one worker as its own process, scaled by running more of them (they
 * share a consumer group). SIGTERM finishes the batch in hand, commits it and leaves the group.
 */
export async function runWorker(name: string | undefined, config: Config, logger: PinoLogger): Promise<number> {
  if (name === undefined || !(workerNames as readonly string[]).includes(name)) {
    process.stderr.write(`worker name required: ${workerNames.join(' | ')}\n`);
    return 2;
  }
  const worker = name as WorkerName;
  const runtime = await createRuntime(config, logger, { analytics: worker === 'analytics-sink' });
  const handle: WorkerHandle =
    worker === 'sr-windows'
      ? await srWindows.start({ bus: runtime.bus, state: runtime.state, clock: runtimeDefaults.clock, logger, defaults: runtimeDefaults.routingDefaults })
      : await analyticsSink.start({ bus: runtime.bus, analytics: runtime.analytics!, logger, clock: runtimeDefaults.clock, retentionDays: config.analyticsRetentionDays });
  logger.info({ worker, mode: runtime.mode }, 'worker running');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, worker }, 'worker stopping: finishing the batch in hand');
    try {
      await handle.close();
      await runtime.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error, worker }, 'worker stop failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  return -1;
}
