import type { KeyEncryptionKeys } from '../src/credentials/credential-vault.js';
import type { DecidePayment } from '../src/decision/decide-payment.js';
import type { StickyRoutingCounters } from '../src/decision/sticky/sticky-counters.js';
import type { PendingSpend } from '../src/governance/pending-spend.js';
import type { FastifyBaseLogger } from 'fastify';
import type { LoginThrottlePolicy } from '../src/auth/login-throttle.js';
import type { ScryptParams } from '../src/auth/password-hash.js';
import type { TokenConfig } from '../src/auth/token-service.js';
import type { BatchService } from '../src/generation/batch/batch-service.js';
import type { OpenAiBatchService } from '../src/generation/batch/openai-batch-service.js';
import type { FileService } from '../src/generation/files/file-service.js';
import type { DynamicModelRegistry } from '../src/generation/models/dynamic-model-registry.js';
import type { NeuroLink } from '../src/toolkit/neurolink.js';
import type { EventBus } from '../src/ports/event-bus.js';
import type { JobQueue } from '../src/ports/job-queue.js';
import type { StateStore } from '../src/ports/state-store.js';
import type { Mailer } from '../src/ports/mail.js';
import type { AnalyticsStore } from '../src/ports/analytics-store.js';
import type { RandomSource } from '../src/decision/random-source.js';
import type { RoutingDefaults } from '../src/decision/routing-defaults.js';
import type { Clock } from '../src/time/clock.js';
import type { Readiness } from './readiness.js';
import type { CostIngestionService } from '../src/costs/ingestion/cost-ingestion-service.js';
import type { RunCounterfactual } from '../src/analytics/counterfactual/run-counterfactual.js';
import type { AuthAttemptRecorder } from '../src/auth/auth-attempt.js';
import type { AuthService } from '../src/auth/auth-service.js';
import type { MerchantMembers } from '../src/auth/members/merchant-members.js';
import type { TokenService } from '../src/auth/token-service.js';

/** Sessions, logins, API keys and team members over one token service and one audit trail (cli/create-access-services.ts). */
export interface AccessServices {
  readonly tokens: TokenService;
  /** Records logins, refused keys and admin secrets as auth.attempted events. */
  readonly audit: AuthAttemptRecorder;
  readonly auth: AuthService;
  readonly members: MerchantMembers;
}

/** What buildApp is given by its composition root (CLI entry or a test). */
export interface AppDeps {
  /** Key encryption keys of merchants' provider credentials (cli/resolve-credential-keys.ts); absent: the feature is off (503). */
  readonly providerCredentialKeys?: KeyEncryptionKeys;
  readonly state: StateStore;
  /** The payment decision use case (src/decision/decide-payment.ts) over this state, bus, clock and randomness. */
  readonly decidePayment: DecidePayment;
  /** Sticky routing's decision counts, shared with `decidePayment`; GET /metrics lists them when set. */
  readonly stickyCounters?: StickyRoutingCounters;
  readonly bus: EventBus;
  readonly analytics: AnalyticsStore | undefined;
  /** The volume-commitment forecaster's default cadence (config `volumeCommitmentIntervalSeconds`); default 300. */
  readonly volumeCommitmentIntervalSeconds?: number;
  /** Settlement-report cost ingestion (src/costs/ingestion/); its routes are served when set. */
  readonly costIngestion?: CostIngestionService;
  /** The job queue (BullMQ or in-process) batch generation runs on. */
  readonly jobs: JobQueue;
  /** Batch generation jobs over `jobs`, `state.batches` and the process's toolkit (cli/create-batch-service.ts). */
  readonly batches: BatchService;
  /**
   * OpenAI's Files and Batches APIs (`/v1/files`, `/v1/batches`) over a file store and `batches`
   * (cli/create-batch-service.ts); unset: those routes are not served.
   */
  readonly openAiBatches?: { readonly files: FileService; readonly batches: OpenAiBatchService };
  /** The process's generation toolkit (cli/create-toolkit.ts): /api/generate, /api/stream, /api/status, /api/mcp/*. */
  readonly toolkit: NeuroLink;
  /** The model registry the toolkit prices and picks models with: /models/*. */
  readonly models: DynamicModelRegistry;
  /**
   * Which routes to serve: everything (default), or `generation` for `switchyard serve --only
   * generation` (health, auth, API keys, merchant accounts, generation, MCP, models, batches and
   * analytics, without the payment-routing routes).
   */
  readonly surfaces?: 'all' | 'generation';
  /** WebSocket chat settings (heartbeat, limits); defaults as NeuroLink's. */
  readonly chat?: Omit<
    import('../src/adapters/websocket/neurolink-websocket-server.js').WebSocketOptions,
    'server' | 'noServer' | 'path' | 'authenticate' | 'toolkit'
  >;
  readonly clock: Clock;
  /** How long an unreleased per-key lease (its replica died mid-request) keeps counting; default 10 min. */
  readonly keyLeaseTtlMs?: number;
  /** Shared with the toolkit's call recorder (spendCountingRecorder): keyed spend counts not landed yet. */
  readonly pendingSpend?: PendingSpend;
  readonly random: RandomSource;
  readonly routingDefaults: RoutingDefaults;
  readonly readiness: Readiness;
  /** The root pino logger; fastify makes a child per request carrying the request id. */
  readonly logger: FastifyBaseLogger;
  /**
   * Session token settings with the key material already resolved by the composition root
   * (JWT_SECRET, PEM keys, or the embedded mode's DATA_DIR/jwt-secret; see cli/resolve-token-config.ts).
   */
  readonly tokens: TokenConfig;
  /** Built from this same state, bus, clock and token settings by the composition root. */
  readonly access: AccessServices;
  /** POST /analytics/counterfactual's replay (cli/create-access-services.ts createCounterfactual). */
  readonly runCounterfactual: RunCounterfactual;
  /** scrypt cost of new password hashes; unset means the OWASP minimum. Tests lower it to stay fast. */
  readonly passwordHashing?: ScryptParams;
  /** Login backoff; unset means `defaultLoginThrottlePolicy`. */
  readonly loginThrottle?: LoginThrottlePolicy;
  /**
   * Operator mail (password reset and email verification links): SMTP when SMTP_URL is set, else an
   * outbox under DATA_DIR (cli/create-mailer.ts). Unset: mail is dropped with a warning.
   */
  readonly mailer?: Mailer;
}
