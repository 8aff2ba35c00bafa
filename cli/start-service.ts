import { createDecidePayment } from '../src/decision/decide-payment.js';
import { StickyRoutingCounters } from '../src/decision/sticky/sticky-counters.js';
import { createAccessServices, createCounterfactual } from './create-access-services.js';
import { createMailer } from './create-mailer.js';
import type { FastifyInstance } from 'fastify';
import { PendingSpend } from '../src/governance/pending-spend.js';
import { spendCountingRecorder } from '../src/governance/spend-counting-recorder.js';
import type { Logger as PinoLogger } from 'pino';
import {
  createBatchService,
  createFileStorage,
  createOpenAiBatches,
  startGatewayLinesWorker,
  startGenerationWorker,
  type BatchWiring,
} from './create-batch-service.js';
import { createRuntime, runtimeDefaults, type Runtime } from './create-runtime.js';
import { createToolkit, serviceToolFilesRoot, toolkitGuardrails, type ToolkitWiring } from './create-toolkit.js';
import { assertAdminSecretStrength } from '../src/config/admin-secret-strength.js';
import type { Config } from '../src/config/load-config.js';
import * as analyticsSink from '../workers/analytics-sink.js';
import { autopilotWorkerName } from '../workers/autopilot.js';
import { generationWorkerName } from '../workers/generation.js';
import { startAutopilotWorker } from './start-autopilot-worker.js';
import { startExperimentGuardrailWorker } from './start-experiment-guardrail-worker.js';
import { experimentGuardrailWorkerName } from '../workers/experiment-guardrail.js';
import { startVolumeCommitmentWorker } from './start-volume-commitment-worker.js';
import { volumeCommitmentWorkerName } from '../workers/volume-commitment.js';
import * as srWindows from '../workers/sr-windows.js';
import type { WorkerHandle } from '../workers/worker-handle.js';
import { buildApp } from '../api/app.js';
import { registerHttpServerSpans } from '../api/plugins/http-server-spans.js';
import { startTelemetry } from './start-telemetry.js';
import { createReadiness } from '../api/readiness.js';
import { resolveCredentialKeys } from './resolve-credential-keys.js';
import { resolveTokenConfig } from './resolve-token-config.js';
import { createCostIngestion } from './create-cost-ingestion.js';
import { join } from 'node:path';

/** Workers fed by the JobQueue: stopped before the bus drains, since their jobs in hand still publish. */
const jobWorkerNames: ReadonlySet<string> = new Set([generationWorkerName, autopilotWorkerName, experimentGuardrailWorkerName, volumeCommitmentWorkerName]);

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly runtime: Runtime;
  readonly workers: readonly WorkerHandle[];
  readonly url: string;
  /** Graceful stop: readiness Down, in-flight requests finish, workers finish their batch, the bus drains. */
  stop(): Promise<void>;
}

/** Starts the API (and, when configured, the workers in-process) and listens on config.host:port. */
export interface StartServerOptions {
  /** Toolkit settings instead of the process environment and working directory (tests). */
  readonly toolkit?: Pick<ToolkitWiring, 'cwd' | 'env' | 'providerOverrides'>;
  /** `generation`: only the generation surfaces (`switchyard serve --only generation`). */
  readonly surfaces?: 'all' | 'generation';
}

export async function startServer(config: Config, logger: PinoLogger, options: StartServerOptions = {}): Promise<RunningServer> {
  // Before any adapter opens: file tools reaching DATA_DIR or .env fail fast, naming TOOL_FILES_DIR.
  const toolFilesRoot = serviceToolFilesRoot(config, options.toolkit?.cwd);
  // Before any adapter opens: a guessable ADMIN_SECRET in production or distributed mode fails fast, naming it
  // (buildApp checks again, for every other way of building the app).
  assertAdminSecretStrength(config);
  // Before any adapter opens: FILE_STORE=s3 without its settings, or with a bucket that cannot be
  // reached, fails fast (the store itself holds no connection).
  const fileStorage = await createFileStorage(config, runtimeDefaults.clock);
  // Before any adapter opens: a distributed start without a shared JWT secret fails fast, naming JWT_SECRET.
  const tokens = await resolveTokenConfig(config, logger);
  // Merchants' provider credentials: the operator's keys, or one generated in DATA_DIR when embedded.
  const providerCredentialKeys = await resolveCredentialKeys(config, logger);
  // First of all adapters, so every span and metric of the process goes through it; only when OTEL_* ask for it.
  const telemetry = await startTelemetry(config, 'switchyard', logger);
  const runtime = await createRuntime(config, logger);
  const pendingSpend = new PendingSpend();
  const readiness = createReadiness();
  const { toolkit, models } = createToolkit({
    ...options.toolkit,
    toolFilesRoot,
    logger,
    onCall: spendCountingRecorder(runtime.bus, runtime.state.usage, pendingSpend, logger.child({ component: 'llm-calls' }), runtimeDefaults.clock),
    // Conversation memory (issue 26) in the state store: shared by every replica, scoped per merchant.
    conversationStore: runtime.state.conversations,
    // Guardrails (issue 38): each merchant's settings from the state store, outcomes as guard.applied events.
    ...toolkitGuardrails(runtime, logger),
  });
  // The service's MCP servers are the operator's `.mcp-config.json` (as NeuroLink's demo server read
  // it): connected now, so /api/mcp/* and generate calls have their tools. A server that fails to
  // connect is reported (GET /api/mcp/servers, the log) and does not stop the start.
  // A malformed file stops the start, naming it, like a bad environment variable.
  const mcp = await toolkit.loadMCPConfig().catch(async (error: unknown) => {
    await toolkit.close();
    await runtime.close();
    throw error;
  });
  if (mcp.connected.length > 0) logger.info({ connected: mcp.connected }, 'MCP servers from .mcp-config.json connected');
  if (mcp.failed.length > 0) logger.warn({ failed: mcp.failed }, 'MCP servers from .mcp-config.json failed to connect');
  const batchWiring: BatchWiring = { state: runtime.state, jobs: runtime.jobs, models: toolkit, clock: runtimeDefaults.clock, logger };
  const batches = createBatchService(config, batchWiring);
  const openAiBatches = createOpenAiBatches(config, batchWiring, batches, fileStorage);
  const stickyCounters = new StickyRoutingCounters();
  const decidePayment = createDecidePayment({
    state: runtime.state,
    bus: runtime.bus,
    random: runtimeDefaults.random,
    clock: runtimeDefaults.clock,
    defaults: runtimeDefaults.routingDefaults,
    sticky: { counters: stickyCounters },
  });
  // Settlement-report uploads, spooled under the data directory; their rows go to the analytics engine.
  const costIngestion =
    runtime.costRows === undefined
      ? undefined
      : createCostIngestion({
          configs: runtime.state.configs,
          rows: runtime.costRows,
          spoolDirectory: join(config.dataDir, 'cost-uploads'),
          clock: runtimeDefaults.clock,
          logger,
        });
  const access = createAccessServices({ state: runtime.state, bus: runtime.bus, clock: runtimeDefaults.clock, logger, tokens });
  const runCounterfactual = createCounterfactual({ analytics: runtime.analytics, state: runtime.state, routingDefaults: runtimeDefaults.routingDefaults });
  const app = await buildApp(config, {
    ...runtimeDefaults,
    access,
    runCounterfactual,
    ...(costIngestion !== undefined ? { costIngestion: costIngestion.service } : {}),
    decidePayment,
    stickyCounters,
    toolkit,
    models,
    surfaces: options.surfaces ?? 'all',
    state: runtime.state,
    bus: runtime.bus,
    analytics: runtime.analytics,
    volumeCommitmentIntervalSeconds: config.volumeCommitmentIntervalSeconds,
    jobs: runtime.jobs,
    batches,
    openAiBatches,
    readiness,
    logger,
    tokens,
    pendingSpend,
    mailer: await createMailer(config, logger, config.redisUrl !== undefined),
    ...(providerCredentialKeys !== undefined ? { providerCredentialKeys } : {}),
  });
  registerHttpServerSpans(app, telemetry?.tracer);
  // OpenAI batch lines run through this process's gateway routes, embedded or distributed (every replica shares the queue).
  const gatewayLines = await startGatewayLinesWorker(config, batchWiring, app, openAiBatches);
  const workers: WorkerHandle[] = [];
  if (config.embeddedWorkers) {
    // First in the list: it is stopped before the bus drains (its jobs in hand still publish llm.call records).
    workers.push(await startGenerationWorker(config, batchWiring, batches));
    workers.push(
      await srWindows.start({ bus: runtime.bus, state: runtime.state, clock: runtimeDefaults.clock, logger, defaults: runtimeDefaults.routingDefaults }),
    );
    // A job worker (stopped before the bus drains: a run in hand still publishes its record).
    if (runtime.analytics !== undefined) {
      const { state, bus, jobs, analytics } = runtime;
      workers.push(await startAutopilotWorker(config, { state, bus, jobs, analytics, clock: runtimeDefaults.clock, logger }));
      workers.push(await startExperimentGuardrailWorker(config, { state, jobs, analytics, clock: runtimeDefaults.clock, logger }));
      workers.push(await startVolumeCommitmentWorker(config, { state, jobs, analytics, clock: runtimeDefaults.clock, logger }));
    }
    if (runtime.analytics !== undefined)
      workers.push(
        await analyticsSink.start({
          bus: runtime.bus,
          analytics: runtime.analytics,
          handoff: runtime.analyticsHandoff,
          logger,
          clock: runtimeDefaults.clock,
          retentionDays: config.analyticsRetentionDays,
        }),
      );
  }
  const url = await app.listen({ port: config.port, host: config.host });
  logger.info({ url, mode: runtime.mode, workers: workers.map((w) => w.name) }, 'switchyard listening');

  let stopping: Promise<void> | undefined;
  return {
    app,
    runtime,
    workers,
    url,
    stop() {
      stopping ??= (async () => {
        readiness.markDown();
        logger.info({ graceMs: config.shutdownGraceMs }, 'shutting down: readiness down, draining');
        // Before the app closes: its lines in hand still go through the app's routes.
        await gatewayLines.close().catch((error: unknown) => logger.error({ err: error, worker: gatewayLines.name }, 'worker did not close cleanly'));
        // Stops accepting and lets in-flight requests finish, for at most the grace period.
        let graceTimer: NodeJS.Timeout | undefined;
        const graceOver = new Promise<'timeout'>((resolve) => {
          graceTimer = setTimeout(() => resolve('timeout'), config.shutdownGraceMs);
        });
        const closed = await Promise.race([app.close().then(() => 'closed' as const), graceOver]);
        clearTimeout(graceTimer);
        if (closed === 'timeout') logger.warn({ graceMs: config.shutdownGraceMs }, 'in-flight requests still running after the grace period; closing anyway');
        const closeWorker = (worker: WorkerHandle) =>
          worker.close().catch((error: unknown) => logger.error({ err: error, worker: worker.name }, 'worker did not close cleanly'));
        const [jobWorkers, eventWorkers] = [
          workers.filter((worker) => jobWorkerNames.has(worker.name)),
          workers.filter((worker) => !jobWorkerNames.has(worker.name)),
        ];
        for (const worker of jobWorkers) await closeWorker(worker);
        // Accepted settlement reports finish (their rows and records are written) before the stores close.
        await costIngestion?.jobs.drain();
        await runtime.drainBus(); // every published event is handled (in-process) or flushed to the broker
        for (const worker of eventWorkers) await closeWorker(worker);
        await toolkit.close().catch((error: unknown) => logger.error({ err: error }, 'MCP connections did not close cleanly'));
        await runtime.close();
        // Last: spans and metrics of everything above (the final inserts, the bus drain) are flushed.
        await telemetry?.shutdown();
        logger.info({}, 'shutdown complete');
      })();
      return stopping;
    },
  };
}
