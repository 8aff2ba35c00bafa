import type { Config } from '../src/config/load-config.js';
import { providerQueueLimits } from '../src/generation/batch/batch-limits.js';
import type { BatchModels } from '../src/generation/batch/batch-models.js';
import { BatchService } from '../src/generation/batch/batch-service.js';
import type { ProviderName } from '../src/generation/provider-name.js';
import type { Logger } from '../src/logging/logger.js';
import type { JobQueue } from '../src/ports/job-queue.js';
import type { StateStore } from '../src/ports/state-store.js';
import type { Clock } from '../src/time/clock.js';
import * as generationWorker from '../workers/generation.js';
import type { WorkerHandle } from '../workers/worker-handle.js';
import * as gatewayLinesWorker from '../workers/gateway-lines.js';
import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { createGatewayLineRunner } from '../api/gateway-line-runner.js';
import { DiskFileStorage } from '../src/adapters/fs/disk-file-storage.js';
import { SwitchyardError } from '../src/errors/switchyard-error.js';
import { OpenAiBatchService } from '../src/generation/batch/openai-batch-service.js';
import { FileService } from '../src/generation/files/file-service.js';
import type { FileStorage } from '../src/ports/file-storage.js';

/** OpenAI's Files and Batches APIs, as buildApp takes them. */
export interface OpenAiBatches {
  readonly files: FileService;
  readonly batches: OpenAiBatchService;
}

export interface BatchWiring {
  readonly state: StateStore;
  readonly jobs: JobQueue;
  /** The process's toolkit (`NeuroLink`). */
  readonly models: BatchModels & { getAvailableProviders(): Promise<ProviderName[]> };
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The batch service of a process, with the `BATCH_*` settings (used by the API, the CLI and the worker). */
export function createBatchService(config: Config, wiring: BatchWiring): BatchService {
  return new BatchService({
    store: wiring.state.batches,
    queue: wiring.jobs,
    models: wiring.models,
    settings: {
      maxPrompts: config.batchMaxPrompts,
      attempts: config.batchAttempts,
      backoffMs: config.batchBackoffMs,
      retentionDays: config.batchRetentionDays,
    },
    clock: wiring.clock,
    logger: wiring.logger.child({ component: 'batches' }),
  });
}

/**
 * Starts the generation worker over the providers the toolkit has credentials for, with the
 * per-provider limits of `BATCH_CONCURRENCY`, `BATCH_RATE_PER_MINUTE` and `BATCH_PROVIDER_LIMITS`
 * (a bad value fails here, at start, naming the variable).
 */
export async function startGenerationWorker(config: Config, wiring: BatchWiring, batches: BatchService): Promise<WorkerHandle> {
  const limits = providerQueueLimits(config);
  return generationWorker.start({
    jobs: wiring.jobs,
    store: wiring.state.batches,
    models: wiring.models,
    batches,
    providers: await wiring.models.getAvailableProviders(),
    limits,
    clock: wiring.clock,
    logger: wiring.logger,
  });
}

/** OpenAI's Files and Batches APIs of a process: the file service over `storage`, the batches over `batches` (the one executor). */
export function createOpenAiBatches(config: Config, wiring: BatchWiring, batches: BatchService, storage: FileStorage): OpenAiBatches {
  const files = new FileService({ storage, settings: { maxBytes: config.filesMaxBytes, maxBatchLines: config.batchMaxLines }, clock: wiring.clock });
  const logger = wiring.logger.child({ component: 'openai-batches' });
  return { files, batches: new OpenAiBatchService({ store: wiring.state.batches, batches, files, storage, clock: wiring.clock, logger }) };
}

/**
 * The file store of /v1/files, by FILE_STORE: `disk` (embedded; FILES_DIR, or `files/` under
 * DATA_DIR) or `s3` (an S3-compatible bucket every replica shares). An S3 store is checked with
 * HeadBucket before it is returned, so a wrong endpoint, bucket or credential stops the start
 * (SY_FILE_STORE_UNAVAILABLE naming the bucket) instead of the first upload; FILE_STORE=s3 without
 * its settings is SY_CONFIG_INVALID naming them.
 */
export async function createFileStorage(config: Config, clock: BatchWiring['clock']): Promise<FileStorage> {
  if (config.fileStore !== 's3') return new DiskFileStorage({ directory: config.filesDir ?? join(config.dataDir, 'files'), now: () => clock.now() });
  const required = {
    S3_ENDPOINT: config.s3Endpoint,
    S3_BUCKET: config.s3Bucket,
    S3_ACCESS_KEY_ID: config.s3AccessKeyId,
    S3_SECRET_ACCESS_KEY: config.s3SecretAccessKey,
  };
  const missing = Object.entries(required)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  const { s3Endpoint: endpoint, s3Bucket: bucket, s3AccessKeyId: accessKeyId, s3SecretAccessKey: secretAccessKey } = config;
  if (endpoint === undefined || bucket === undefined || accessKeyId === undefined || secretAccessKey === undefined) {
    throw new SwitchyardError('SY_CONFIG_INVALID', {
      message: `invalid configuration: FILE_STORE=s3 needs ${missing.join(', ')}`,
      details: { problems: missing.map((name) => `${name} is required when FILE_STORE is s3`) },
    });
  }
  // The S3 client (and its request signer) is imported only for FILE_STORE=s3.
  const [{ S3ObjectClient }, { S3FileStorage }] = await Promise.all([
    import('../src/adapters/s3/s3-object-client.js'),
    import('../src/adapters/s3/s3-file-storage.js'),
  ]);
  const client = new S3ObjectClient({
    endpoint,
    bucket,
    region: config.s3Region,
    credentials: { accessKeyId, secretAccessKey, sessionToken: config.s3SessionToken },
  });
  await client.checkBucket();
  return new S3FileStorage({ client, prefix: config.s3Prefix, now: () => clock.now() });
}

/**
 * Starts the worker of OpenAI batch lines in the API process (it runs them through `app`'s own
 * routes), under BATCH_CONCURRENCY and BATCH_RATE_PER_MINUTE.
 */
export async function startGatewayLinesWorker(config: Config, wiring: BatchWiring, app: FastifyInstance, openAi: OpenAiBatches): Promise<WorkerHandle> {
  const limits = {
    concurrency: config.batchConcurrency,
    ...(config.batchRatePerMinute > 0 ? { rateLimit: { max: config.batchRatePerMinute, durationMs: 60_000 } } : {}),
  };
  return gatewayLinesWorker.start({
    jobs: wiring.jobs,
    store: wiring.state.batches,
    lines: createGatewayLineRunner(app, app.batchLines),
    batches: openAi.batches,
    limits,
    clock: wiring.clock,
    logger: wiring.logger,
  });
}
