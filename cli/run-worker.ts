import type { Logger as PinoLogger } from 'pino';
import type { Config } from '../src/config/load-config.js';
import * as analyticsSink from '../workers/analytics-sink.js';
import * as srWindows from '../workers/sr-windows.js';
import type { WorkerHandle } from '../workers/worker-handle.js';
import { llmCallPublisher } from '../src/generation/publish-llm-calls.js';
import { createToolkit, toolkitGuardrails } from './create-toolkit.js';
import { createBatchService, startGenerationWorker } from './create-batch-service.js';
import { createRuntime, runtimeDefaults } from './create-runtime.js';
import { startTelemetry } from './start-telemetry.js';
import { startAutopilotWorker } from './start-autopilot-worker.js';
import { startExperimentGuardrailWorker } from './start-experiment-guardrail-worker.js';
import { startVolumeCommitmentWorker } from './start-volume-commitment-worker.js';
import { type WorkerName, workerNames } from './worker-names.js';

/**
 * `switchyard worker <name>`: one worker as its own process, scaled by running more of them (they
 * share a consumer group, or for `generation` and `autopilot` the BullMQ queues). SIGTERM finishes the batch (or
 * jobs) in hand, commits it and leaves the group.
 */
export async function runWorker(name: string | undefined, config: Config, logger: PinoLogger): Promise<number> {
  if (name === undefined || !(workerNames as readonly string[]).includes(name)) {
    process.stderr.write(`worker name required: ${workerNames.join(' | ')}\n`);
    return 2;
  }
  const worker = name as WorkerName;
  const telemetry = await startTelemetry(config, `switchyard-worker-${worker}`, logger);
  const runtime = await createRuntime(config, logger, { analytics: worker === 'analytics-sink' || worker === 'autopilot' || worker === 'volume-commitment' });
  let handle: WorkerHandle;
  if (worker === 'sr-windows') {
    handle = await srWindows.start({ bus: runtime.bus, state: runtime.state, clock: runtimeDefaults.clock, logger, defaults: runtimeDefaults.routingDefaults });
  } else if (worker === 'analytics-sink') {
    handle = await analyticsSink.start({
      bus: runtime.bus,
      analytics: runtime.analytics!,
      handoff: runtime.analyticsHandoff,
      logger,
      clock: runtimeDefaults.clock,
      retentionDays: config.analyticsRetentionDays,
    });
  } else if (worker === 'volume-commitment') {
    const { state, jobs } = runtime;
    handle = await startVolumeCommitmentWorker(config, { state, jobs, analytics: runtime.analytics!, clock: runtimeDefaults.clock, logger });
  } else if (worker === 'autopilot') {
    const { state, bus, jobs } = runtime;
    const autopilot = await startAutopilotWorker(config, { state, bus, jobs, analytics: runtime.analytics!, clock: runtimeDefaults.clock, logger });
    // The periodic experiment guardrail check rides in the same process: both are scheduled analytics readers.
    const guardrail = await startExperimentGuardrailWorker(config, { state, jobs, analytics: runtime.analytics!, clock: runtimeDefaults.clock, logger });
    handle = {
      name: autopilot.name,
      caughtUp: async () => {
        await Promise.all([autopilot.caughtUp(), guardrail.caughtUp()]);
      },
      close: async () => {
        await Promise.all([autopilot.close(), guardrail.close()]);
      },
    };
  } else {
    // Provider credentials come from the environment (and ./.env), as for the API.
    const { toolkit } = createToolkit({
      logger,
      onCall: llmCallPublisher(runtime.bus, { logger: logger.child({ component: 'llm-calls' }) }),
      // Batch items are guarded like any toolkit call: each merchant's settings, outcomes as guard.applied.
      ...toolkitGuardrails(runtime, logger),
    });
    const wiring = { state: runtime.state, jobs: runtime.jobs, models: toolkit, clock: runtimeDefaults.clock, logger };
    handle = await startGenerationWorker(config, wiring, createBatchService(config, wiring));
  }
  logger.info({ worker, mode: runtime.mode }, 'worker running');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, worker }, 'worker stopping: finishing the batch in hand');
    try {
      await handle.close();
      await runtime.close();
      await telemetry?.shutdown();
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
