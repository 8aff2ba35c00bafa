import { randomBytes } from 'node:crypto';
import { DefaultNeuroLink } from '../../src/adapters/toolkit/default-neurolink.js';
import { createOutboxMailer } from '../../src/adapters/mail/outbox-mailer.js';
import type { Mailer } from '../../src/ports/mail.js';
import { createDecidePayment } from '../../src/decision/decide-payment.js';
import { StickyRoutingCounters } from '../../src/decision/sticky/sticky-counters.js';
import type { StickySettings } from '../../src/decision/sticky/sticky-settings.js';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { buildApp } from '../../api/app.js';
import type { AppDeps } from '../../api/app-deps.js';
import { createReadiness, type Readiness } from '../../api/readiness.js';
import { resolveTokenConfig } from '../../cli/resolve-token-config.js';
import { createAccessServices, createCounterfactual } from '../../cli/create-access-services.js';
import { generateApiKey } from '../../src/auth/api-key.js';
import { createMemoryEventBus, type MemoryEventBusOptions } from '../../src/adapters/memory/memory-event-bus.js';
import { createMemoryJobQueue } from '../../src/adapters/memory/memory-job-queue.js';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { loadConfig, type Config } from '../../src/config/load-config.js';
import { validateEvent } from '../../src/events/validate-event.js';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { EventBus } from '../../src/ports/event-bus.js';
import type { JobQueue } from '../../src/ports/job-queue.js';
import type { StateStore } from '../../src/ports/state-store.js';
import type { RandomSource } from '../../src/decision/random-source.js';
import { defaultRoutingDefaults, type RoutingDefaults } from '../../src/decision/routing-defaults.js';
import { createManualClock } from '../../src/time/clock.js';
import { DynamicModelRegistry } from '../../src/generation/models/dynamic-model-registry.js';
import { NeuroLink } from '../../src/toolkit/neurolink.js';
import { spendCountingRecorder } from '../../src/governance/spend-counting-recorder.js';
import { PendingSpend } from '../../src/governance/pending-spend.js';
import { createToolkit } from '../../cli/create-toolkit.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatchService } from '../../src/generation/batch/batch-service.js';
import { createBatchService, createOpenAiBatches, type BatchWiring, type OpenAiBatches } from '../../cli/create-batch-service.js';
import { DiskFileStorage } from '../../src/adapters/fs/disk-file-storage.js';
import * as srWindows from '../../workers/sr-windows.js';
import { createCostIngestion } from '../../cli/create-cost-ingestion.js';
import { createMemoryCostRowStore } from '../../src/adapters/memory/memory-cost-row-store.js';
import type { CostIngestionJobs } from '../../src/ports/cost-ingestion-jobs.js';
import type { CostRowStore, CostSettlementRow } from '../../src/ports/analytics/cost-rows.js';
import type { WorkerHandle } from '../../workers/worker-handle.js';

export const adminSecret = 'contract-admin-secret';

/** One JWT secret for every test app, so two apps on one store act as replicas. */
export const testJwtSecret = 'contract-jwt-secret-0123456789abcdef-0123456789';

/** A password the policy accepts (long, not common, not built from the test emails). */
export const testPassword = 'violet-harbour-lantern-42';

/** scrypt at 2^4: the real algorithm and format at a cost that keeps contract tests fast. */
const testPasswordHashing = { logN: 4, r: 8, p: 1 } as const;

/** A random source that never hedges (0.99 · 100 ≥ any hedging percent below 99). */
export const neverHedge: RandomSource = { next: () => 0.99 };

export interface TestApp {
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly state: StateStore;
  readonly bus: EventBus;
  /** The in-process job queue; batches wait on it until a test starts a generation worker (`batchWiring`). */
  readonly jobs: JobQueue;
  readonly batches: BatchService;
  readonly batchWiring: BatchWiring;
  /** OpenAI's Files and Batches over a file store in a fresh temporary directory; their lines run once a test starts `startGatewayLinesWorker`. */
  readonly openAiBatches: OpenAiBatches;
  readonly clock: ReturnType<typeof createManualClock>;
  readonly readiness: Readiness;
  readonly worker: WorkerHandle;
  /** Sticky routing's decision counts (the ones GET /metrics lists). */
  readonly stickyCounters: StickyRoutingCounters;
  /** Cost ingestion's background runner: `drain()` resolves once every accepted upload is processed. */
  readonly costJobs: CostIngestionJobs;
  /** The settlement rows cost ingestion wrote (in memory unless `costRows` was given). */
  readonly costRows: CostRowStore & { rows?(merchantId: string): CostSettlementRow[] };
  /** Every event published, in order (a consumer group of its own). */
  readonly events: EventEnvelope[];
  /** Resolves once `events` holds every event published before the call. */
  eventsCaughtUp(): Promise<void>;
  /** Resolves once every keyed call's spend count tracked so far has landed (or failed). */
  spendCounted(): Promise<void>;
  /** Closes the app and everything it started, then removes the directories it wrote to. */
  close(): Promise<void>;
}

/** The real app on the embedded adapters, with a manual clock and a fixed random source. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    random?: RandomSource;
    state?: StateStore;
    /** Share one clock between apps that act as replicas of one service (token times must agree). */
    clock?: ReturnType<typeof createManualClock>;
    routingDefaults?: Partial<RoutingDefaults>;
    /** Sticky routing's settings (default the service's). */
    stickySettings?: StickySettings;
    /** How long a per-key lease its replica never released keeps counting (default 10 min). */
    keyLeaseTtlMs?: number;
    /**
     * The toolkit batches run on. Default: a NeuroLink whose only provider is an OpenAI key pointing
     * at a closed local port (submits validate against it; nothing calls it unless a test starts a
     * generation worker).
     */
    batchModels?: BatchWiring['models'];
    /** The toolkit of /api/generate, /api/stream, /api/mcp/*; default: the batches' NeuroLink (or the closed-port one). */
    toolkit?: NeuroLink;
    /**
     * Provider settings for a toolkit made as the service makes it (cli/create-toolkit.ts), its call
     * records published on this app's bus as `llm.call` events. Ignored when `toolkit` is given.
     */
    toolkitEnv?: Record<string, string>;
    /** WebSocket chat settings (short heartbeats, small limits in tests). */
    chat?: AppDeps['chat'];
    /** The store /analytics/* read (default none: those routes answer TE_01); the caller closes it. */
    analytics?: AppDeps['analytics'];
    /** Where cost ingestion writes settlement rows (default: in memory); the caller closes it. */
    costRows?: CostRowStore;
    /** Upload cap of settlement reports (default the service's). */
    maxReportBytes?: number;
    /** Operator mail (password reset, email verification); default an outbox in a fresh temporary directory. */
    mailer?: Mailer;
    /** The in-process bus's bound and how long a publisher waits for room (default the service's). */
    busBound?: Pick<MemoryEventBusOptions, 'maxRetainedEvents' | 'publishWaitMs'>;
  } = {},
): Promise<TestApp> {
  const config = loadConfig({ ADMIN_SECRET: adminSecret, LOG_LEVEL: 'silent', JWT_SECRET: testJwtSecret, ...options.env });
  // Directories this app writes to (files, spooled uploads, mail, the toolkit's cwd): removed by close().
  const scratch: string[] = [];
  const scratchDir = (prefix: string): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    scratch.push(dir);
    return dir;
  };
  const clock = options.clock ?? createManualClock(Date.now());
  const state = options.state ?? createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent, ...options.busBound });
  const readiness = createReadiness();
  const routingDefaults = { ...defaultRoutingDefaults, ...options.routingDefaults };
  const jobs = createMemoryJobQueue({ logger: silentLogger });
  const pendingSpend = new PendingSpend();
  const toolkit =
    options.toolkit ??
    (options.toolkitEnv !== undefined
      ? createToolkit({
          logger: pino({ level: 'silent' }),
          cwd: scratchDir('sytest-toolkit-'),
          env: options.toolkitEnv,
          onCall: spendCountingRecorder(bus, state.usage, pendingSpend, undefined, clock),
          conversationStore: state.conversations,
        }).toolkit
      : options.batchModels instanceof NeuroLink
        ? options.batchModels
        : new DefaultNeuroLink({
            env: { OPENAI_API_KEY: 'sk-contract-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
            builtInTools: [],
            warn: () => undefined,
          }));
  const batchModels = options.batchModels ?? toolkit;
  const batchWiring: BatchWiring = { state, jobs, models: batchModels, clock, logger: silentLogger };
  const batches = createBatchService(config, batchWiring);
  const fileStorage = new DiskFileStorage({ directory: scratchDir('sytest-files-'), now: () => clock.now() });
  const openAiBatches = createOpenAiBatches(config, batchWiring, batches, fileStorage);
  const random = options.random ?? neverHedge;
  const stickyCounters = new StickyRoutingCounters();
  const costRows = options.costRows ?? createMemoryCostRowStore();
  const cost = createCostIngestion({
    configs: state.configs,
    rows: costRows,
    spoolDirectory: scratchDir('sytest-cost-uploads-'),
    clock,
    logger: silentLogger,
    ...(options.maxReportBytes !== undefined ? { maxReportBytes: options.maxReportBytes } : {}),
  });
  const logger = pino({ level: 'silent' });
  const tokens = await resolveTokenConfig(config, silentLogger);
  const access = createAccessServices({ state, bus, clock, logger, tokens, passwordHashing: testPasswordHashing });
  const app = await buildApp(config, {
    // A fresh key encryption key per app, as the embedded mode generates one in its data directory.
    providerCredentialKeys: { active: 'test', keys: new Map([['test', randomBytes(32)]]) },
    access,
    runCounterfactual: createCounterfactual({ analytics: options.analytics, state, routingDefaults }),
    costIngestion: cost.service,
    decidePayment: createDecidePayment({
      state,
      bus,
      random,
      clock,
      defaults: routingDefaults,
      sticky: { counters: stickyCounters, ...(options.stickySettings === undefined ? {} : { settings: options.stickySettings }) },
    }),
    stickyCounters,
    toolkit,
    models: DynamicModelRegistry.shipped(),
    ...(options.chat !== undefined ? { chat: options.chat } : {}),
    state,
    bus,
    analytics: options.analytics,
    jobs,
    batches,
    openAiBatches,
    clock,
    random,
    routingDefaults,
    readiness,
    logger,
    tokens,
    passwordHashing: testPasswordHashing,
    pendingSpend,
    mailer: options.mailer ?? createOutboxMailer({ dir: scratchDir('sytest-outbox-'), logger: silentLogger }),
    ...(options.keyLeaseTtlMs !== undefined ? { keyLeaseTtlMs: options.keyLeaseTtlMs } : {}),
  });
  const worker = await srWindows.start({ bus, state, clock, logger: silentLogger, defaults: routingDefaults });
  const events: EventEnvelope[] = [];
  const recorder = await bus.subscribe({
    group: 'test-recorder',
    topics: ['routing', 'scores', 'api', 'llm'],
    handler: async (batch) => void events.push(...batch),
  });
  return {
    app,
    config,
    state,
    bus,
    jobs,
    batches,
    batchWiring,
    openAiBatches,
    clock,
    readiness,
    worker,
    stickyCounters,
    costJobs: cost.jobs,
    costRows,
    events,
    eventsCaughtUp: () => recorder.caughtUp(),
    spendCounted: () => pendingSpend.allSettled(),
    async close() {
      await app.close();
      await cost.jobs.drain();
      await jobs.close();
      await bus.close();
      await worker.close();
      if (options.state === undefined) await state.close();
      for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function createMerchant(app: FastifyInstance, merchantId: string): Promise<{ apiKey: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/merchant-account/create',
    headers: { 'x-admin-secret': adminSecret },
    payload: { merchant_id: merchantId },
  });
  if (response.statusCode !== 200) throw new Error(`merchant create failed: ${response.statusCode} ${response.body}`);
  return { apiKey: (response.json() as { api_key: string }).api_key };
}

/**
 * A new API key of `merchantId` with `settings` (`limits`, `cache`), created over the API by the
 * merchant's own key (`POST /api-key/create`) as an operator would.
 */
export async function createKeyWith(
  app: FastifyInstance,
  ownerKey: string,
  merchantId: string,
  settings: { readonly limits?: unknown; readonly cache?: unknown },
): Promise<{ keyId: string; apiKey: string }> {
  const response = await app.inject({ method: 'POST', url: '/api-key/create', headers: withKey(ownerKey), payload: { merchant_id: merchantId, ...settings } });
  if (response.statusCode !== 200) throw new Error(`key create failed: ${response.statusCode} ${response.body}`);
  const body = response.json() as { key_id: string; api_key: string };
  return { keyId: body.key_id, apiKey: body.api_key };
}

export { decideBody } from './decide-body.js';

/** Headers carrying a merchant's API key. */
export function withKey(apiKey: string): Record<string, string> {
  return { 'x-api-key': apiKey };
}

/** Headers carrying a session token. */
export function withToken(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/**
 * Signs a user up (joining `merchantId` as its admin when given, which needs the admin secret) and
 * returns the session token.
 */
export async function signUp(app: FastifyInstance, email: string, merchantId?: string): Promise<{ token: string; userId: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/auth/signup',
    headers: merchantId === undefined ? {} : { 'x-admin-secret': adminSecret },
    payload: { email, password: testPassword, ...(merchantId === undefined ? {} : { merchant_id: merchantId }) },
  });
  if (response.statusCode !== 200) throw new Error(`signup failed: ${response.statusCode} ${response.body}`);
  const body = response.json() as { token: string; user_id: string };
  return { token: body.token, userId: body.user_id };
}

/** A fresh session token for an existing user. */
export async function logIn(app: FastifyInstance, email: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: testPassword } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { token: string }).token;
}

/**
 * An API key for `merchantId` written straight into the store, whether or not the merchant exists:
 * what a key looks like after its merchant was deleted (keys outlive their merchant). Lets tests
 * reach the "unknown merchant" answers, which a credential for an existing merchant never can.
 */
export async function createKeyFor(state: StateStore, merchantId: string): Promise<string> {
  const key = generateApiKey();
  await state.apiKeys.create({
    keyId: randomUUID(),
    merchantId,
    keyHash: key.hash,
    keyPrefix: key.prefix,
    description: null,
    isActive: true,
    createdAt: Date.now(),
  });
  return key.raw;
}
