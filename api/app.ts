import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { AdminSecretGuard } from '../src/auth/admin-secret.js';
import { isRosteredSession, parseSuperAdminRoster } from '../src/auth/super-admin/roster.js';
import type { SessionClaims, TokenService } from '../src/auth/token-service.js';
import type { AuthAttemptRecorder } from '../src/auth/auth-attempt.js';
import { assertAdminSecretStrength } from '../src/config/admin-secret-strength.js';
import type { Config } from '../src/config/load-config.js';
import type { AppDeps } from './app-deps.js';
import { httpSchemas } from './http-schemas.js';
import { registerApiEvents } from './plugins/api-events.js';
import { registerChatWebSocket } from './plugins/chat-websocket.js';
import { registerDashboard } from './plugins/dashboard.js';
import { credentialMerchantOf, registerAuthentication } from './plugins/authentication.js';
import { BatchLineGrants } from './batch-line-grants.js';
import { openAiBatchRoutes } from './routes/openai-batches.js';
import { openAiFileRoutes } from './routes/openai-files.js';
import { parseCorsOrigins, registerCrossOrigin } from './plugins/cross-origin.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerJsonBodyParser } from './plugins/json-body.js';
import { documentErrorResponses, markOptionalBodies } from './plugins/openapi-responses.js';
import { pathLimitOptions } from './plugins/path-limits.js';
import { requestValidationOptions } from './plugins/request-validation.js';
import { defaultLeaseTtlMs, registerKeyLimits } from './plugins/key-limits.js';
import type { KeyAdmission } from '../src/governance/admit-key-request.js';
import type { StreamOptions } from '../src/generation/generate-options.js';
import { toolkitReservationUsd } from '../src/toolkit/call-reservation.js';
import { PendingSpend } from '../src/governance/pending-spend.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerTurnEndWrites } from './plugins/turn-end-writes.js';
import { registerRouteConfig } from './route-config.js';
import { analyticsRoutes } from './routes/analytics.js';
import { analyticsCounterfactualRoutes } from './routes/analytics-counterfactual.js';
import { analyticsRoutingEventsRoutes } from './routes/analytics-routing-events.js';
import { createRunPostStepPrice } from '../src/analytics/counterfactual/run-post-step-price.js';
import { analyticsExperimentRoutes } from './routes/analytics-experiments.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { autopilotRoutes } from './routes/autopilot.js';
import { volumeCommitmentRoutes } from './routes/volume-commitment.js';
import { authRoutes } from './routes/auth.js';
import { registerAdminAccessRoutes } from './routes/register-admin-access.js';
import { registerMembershipCheck } from './plugins/membership-check.js';
import { registerViewModeAudit } from './plugins/view-mode-audit.js';
import { authPasswordRoutes } from './routes/auth-password.js';
import { createAccountRecovery } from './account-recovery.js';
import { batchRoutes } from './routes/batches.js';
import { generationRoutes } from './routes/generation.js';
import { mcpRoutes } from './routes/mcp.js';
import { mcpGatewayRoutes } from './routes/mcp-gateway.js';
import { merchantMcpOf } from './merchant-mcp-wiring.js';
import { providerCredentialRoutes } from './routes/provider-credentials.js';
import { CredentialVault } from '../src/credentials/credential-vault.js';
import { MerchantProviderCredentials } from '../src/credentials/merchant-provider-credentials.js';
import { modelRoutes } from './routes/models.js';
import { openAiGatewayRoutes } from './routes/openai-gateway.js';
import { spendCountingRecorder } from '../src/governance/spend-counting-recorder.js';
import { configRoutes } from './routes/config.js';
import { gatewayDecisionRoutes } from './routes/gateway-decision.js';
import { healthRoutes } from './routes/health.js';
import { legacyDecisionGatewayRoutes } from './routes/legacy-decision-gateway.js';
import { merchantAccountRoutes } from './routes/merchant-account.js';
import { metricsRoutes } from './routes/metrics.js';
import { ruleConfigurationRoutes } from './routes/rule-configuration.js';
import { routingRuleRoutes } from './routes/routing-rules.js';
import { scoreFeedbackRoutes } from './routes/score-feedback.js';
import { gatewayScoreRoutes } from './routes/gateway-score.js';
import { gsmRoutes } from './routes/gsm.js';
import { costIngestionRoutes } from './routes/cost-ingestion.js';
import { costIngestionSettingsRoutes } from './routes/cost-ingestion-settings.js';
import { merchantMemberRoutes } from './routes/merchant-members.js';
import { guardrailRoutes } from './routes/guardrails.js';
import { publishedGuardEvidence } from './wire/gateway-guards.js';
import { guardOutcomePublisher } from '../src/guardrails/publish-guard-outcomes.js';
import { GuardrailSettingsService } from '../src/guardrails/guardrail-settings-service.js';
import { trustProxyOption } from './trust-proxy.js';
import { deferredChildLoggerFactory } from './request-logger.js';

/** A caller's x-request-id is honoured when it is a sane token; anything else (log injection, huge) is replaced. */
const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/** The services every surface shares, built once per app from its deps. */
interface AppServices {
  readonly auth: AppDeps['access']['auth'];
  readonly adminSecret: AdminSecretGuard;
  readonly pendingSpend: PendingSpend;
  /** The per-key limits of the HTTP routes, also admitting WebSocket chat turns. */
  readonly admission: KeyAdmission;
  readonly tokens: TokenService;
  readonly audit: AuthAttemptRecorder;
}

/**
 * Builds the HTTP app without listening (tests use `inject`; cli/start-service.ts listens).
 * Every adapter and use case arrives in `deps`; nothing here picks infrastructure.
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  // Refuses test_admin or a short ADMIN_SECRET in production or distributed mode, naming it.
  assertAdminSecretStrength(config);
  const app = createFastify(config, deps);
  const services = await registerPlugins(app, config, deps);
  await registerOpenApi(app);
  await registerSharedRoutes(app, config, deps, services);
  await registerGenerationRoutes(app, config, deps, services);
  if (deps.surfaces !== 'generation') await registerPaymentRoutes(app, deps);
  return app;
}

function createFastify(config: Config, deps: AppDeps): FastifyInstance {
  return Fastify({
    loggerInstance: deps.logger,
    // Per-request log lines are off by default: at thousands of decisions a second they cost more
    // than the decision itself. Errors are still logged by api/plugins/errors.ts.
    logController: new LogController({ disableRequestLogging: !config.logRequests, requestIdLogLabel: 'reqId' }),
    // request.log is made when a request first logs (api/request-logger.ts), not for every request.
    childLoggerFactory: deferredChildLoggerFactory,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { allErrors: false, coerceTypes: 'array', removeAdditional: false } },
    ...pathLimitOptions,
    ...requestValidationOptions,
  });
}

/** Headers, errors, CORS, the guard, per-key limits and body parsing: in this order, before any route. */
async function registerPlugins(app: FastifyInstance, config: Config, deps: AppDeps): Promise<AppServices> {
  // Every hook below reads the route's config through routeConfigOf: once per request.
  registerRouteConfig(app);
  // First: every route added from here on gets its header set, and every answer (404s, errors) its headers.
  registerSecurityHeaders(app);
  // Synchronous (done-style) like every hook each request passes: an async hook costs a promise
  // and a microtask per request even when it has nothing to do.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerErrorHandling(app);
  const { users, sessions, merchants } = deps.state;
  const { auth, tokens, audit } = deps.access;
  const adminSecret = new AdminSecretGuard({ secret: config.adminSecret, sessions, merchants, audit });
  // Before the guard: a CORS preflight carries no credentials and is answered in its own hook.
  await registerCrossOrigin(app, parseCorsOrigins(config.corsOrigins));
  // Before every route (swagger-ui's included): the guard sees, records and protects them all.
  // Roles are read live: a demoted or removed admin's sessions lose write access at once.
  // In-process OpenAI batch lines run through the routes as their batch's API key (api/gateway-line-runner.ts).
  const batchLines = new BatchLineGrants(deps.state.apiKeys);
  app.decorate('batchLines', batchLines);
  registerAuthentication(app, { auth, roleOf: (userId, merchantId) => users.roleIn(userId, merchantId), batchLines });
  registerViewModeAudit(app, audit);
  // A removed member's sessions in that merchant end on every replica (membership read live).
  registerMembershipCheck(app, { roleOf: (userId, merchantId) => users.roleIn(userId, merchantId) });
  // After the guard's merchant check: per-key limits admit or refuse before any handler runs.
  const pendingSpend = deps.pendingSpend ?? new PendingSpend();
  const admission = registerKeyLimits(app, {
    state: deps.state,
    now: () => deps.clock.now(),
    leaseTtlMs: deps.keyLeaseTtlMs ?? defaultLeaseTtlMs,
    pendingSpend,
  });
  // Only JSON bodies are accepted (415 otherwise), except on the decision routes (registerPaymentRoutes).
  app.removeContentTypeParser('text/plain');
  // An empty JSON body is no body (clients send the header on bodiless calls); see the plugin.
  registerJsonBodyParser(app);
  // Under load, answers are written together at the end of the event loop's turn (see the plugin).
  registerTurnEndWrites(app);
  for (const schema of httpSchemas) app.addSchema(schema);
  return { auth, adminSecret, pendingSpend, admission, tokens, audit };
}

/** The OpenAPI document (every route's error answers added by documentErrorResponses), /docs and /openapi.json. */
async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Switchyard payment routing', version: '1.4.0', description: 'Gateway decisions wire-compatible with decision-engine 1.4.x.' },
      components: {
        securitySchemes: {
          BearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'A session JWT; on every route that takes API keys, also an API key (`Bearer DE_…`).',
          },
          ApiKeyAuth: {
            type: 'apiKey',
            in: 'header',
            name: 'x-api-key',
            description: 'An API key (`DE_…`); the same key may come as `Authorization: Bearer DE_…`.',
          },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json['$id'] ?? `def-${index}`) },
    transform: documentErrorResponses,
    transformObject: markOptionalBodies,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger());
}

/** What both surfaces serve: the dashboard, metrics, health, auth, API keys, merchant accounts and analytics. */
async function registerSharedRoutes(app: FastifyInstance, config: Config, deps: AppDeps, { auth, adminSecret, tokens, audit }: AppServices): Promise<void> {
  await registerDashboard(app);
  registerApiEvents(app, deps);
  await metricsRoutes(app, deps);
  await app.register(async (scope) => healthRoutes(scope, deps));
  const recovery = createAccountRecovery(app, config, deps, audit);
  const onSignedUp = (user: { readonly userId: string; readonly email: string }) => recovery.sendEmailVerification(user.userId, user.email);
  const roster = parseSuperAdminRoster(config.superAdminEmails);
  const isSuperAdmin = (claims: SessionClaims) => isRosteredSession(roster, claims);
  await app.register(async (scope) => authRoutes(scope, { auth, adminSecret, adminSecretHeader: config.adminSecretHeader, onSignedUp, isSuperAdmin }));
  await app.register(async (scope) => authPasswordRoutes(scope, { recovery }));
  await registerAdminAccessRoutes(app, config, { state: deps.state, tokens, adminSecret, audit });
  await app.register(async (scope) => apiKeyRoutes(scope, { auth, state: deps.state, now: () => deps.clock.now() }));
  await app.register(async (scope) => merchantMemberRoutes(scope, { members: deps.access.members }));
  await app.register(async (scope) => merchantAccountRoutes(scope, { ...deps, adminSecret, adminSecretHeader: config.adminSecretHeader }));
  await app.register(async (scope) => analyticsRoutes(scope, { ...deps, merchantOf: credentialMerchantOf }));
  const { runCounterfactual } = deps;
  // The post-step price is a read over the same analytics port: no adapter is built here.
  const runPostStepPrice = createRunPostStepPrice({ analytics: deps.analytics });
  await app.register(async (scope) =>
    analyticsCounterfactualRoutes(scope, { runCounterfactual, runPostStepPrice, clock: deps.clock, merchantOf: credentialMerchantOf }),
  );
  await app.register(async (scope) => analyticsExperimentRoutes(scope, { ...deps, merchantOf: credentialMerchantOf }));
  await app.register(async (scope) => analyticsRoutingEventsRoutes(scope, { analytics: deps.analytics, clock: deps.clock, merchantOf: credentialMerchantOf }));
}

/** The generation surface: batches, the toolkit's routes, MCP, models, WebSocket chat and the /v1 gateway. */
async function registerGenerationRoutes(app: FastifyInstance, config: Config, deps: AppDeps, { auth, pendingSpend, admission }: AppServices): Promise<void> {
  await app.register(async (scope) => batchRoutes(scope, { batches: deps.batches }));
  const openAiBatches = deps.openAiBatches;
  if (openAiBatches !== undefined) {
    await app.register(async (scope) => openAiFileRoutes(scope, { files: openAiBatches.files }));
    await app.register(async (scope) => openAiBatchRoutes(scope, { batches: openAiBatches.batches }));
  }
  await app.register(async (scope) => guardrailRoutes(scope, { guardrails: new GuardrailSettingsService(deps.state.configs) }));
  await app.register(async (scope) => generationRoutes(scope, { toolkit: deps.toolkit }));
  const merchantMcp = merchantMcpOf(config, deps);
  const credentials = merchantProviderCredentialsOf(deps);
  await app.register(async (scope) => providerCredentialRoutes(scope, { credentials }));
  await app.register(async (scope) => mcpRoutes(scope, { toolkit: deps.toolkit, merchantMcp }));
  const gatewayLogger = deps.logger.child({ component: 'mcp-gateway' });
  await app.register(async (scope) =>
    mcpGatewayRoutes(scope, {
      toolkit: deps.toolkit,
      merchantMcp,
      state: deps.state,
      logger: gatewayLogger,
      now: () => deps.clock.now(),
      guardOutcomes: guardOutcomePublisher(deps.bus, { logger: gatewayLogger }),
    }),
  );
  await app.register(async (scope) => modelRoutes(scope, { models: deps.models, auth: 'either' }));
  // Chat turns go through the same key limits and budget reservation as /api/generate.
  const limits = {
    admission,
    reserveUsd: (options: StreamOptions) => toolkitReservationUsd(deps.toolkit, options),
    log: deps.logger.child({ component: 'chat' }),
  };
  const chat = registerChatWebSocket(app, { auth, toolkit: deps.toolkit, limits, ...(deps.chat !== undefined ? { options: deps.chat } : {}) });
  app.decorate('chat', chat);
  // The gateway records its response-cache hits as the toolkit records its calls (llm.call on the bus, spend by key).
  const recordCall = spendCountingRecorder(deps.bus, deps.state.usage, pendingSpend, deps.logger.child({ component: 'llm-calls' }), deps.clock);
  // Stored /v1/responses are kept RESPONSES_TTL_DAYS.
  const responsesTtlS = config.responsesTtlDays !== undefined ? { responsesTtlS: config.responsesTtlDays * 86_400 } : {};
  const allowImageUrls = config.gatewayAllowImageUrls === true;
  await app.register(async (scope) =>
    openAiGatewayRoutes(scope, {
      calls: deps.toolkit.providerCalls,
      models: deps.models,
      state: deps.state,
      random: deps.random,
      recordCall,
      allowImageUrls,
      guardEvidence: publishedGuardEvidence(guardOutcomePublisher(deps.bus, { logger: app.log, now: () => deps.clock.now() })),
      ...responsesTtlS,
    }),
  );
}

/** The payment surface: rule configuration, merchant configs, routing rules and the decision routes. */
async function registerPaymentRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(async (scope) => ruleConfigurationRoutes(scope, deps));
  await app.register(async (scope) => configRoutes(scope, deps));
  await app.register(async (scope) => routingRuleRoutes(scope, deps));
  await app.register(async (scope) => autopilotRoutes(scope, deps));
  await app.register(async (scope) => volumeCommitmentRoutes(scope, deps));
  await app.register(async (scope) => gsmRoutes(scope, deps));
  await app.register(async (scope) => gatewayScoreRoutes(scope, deps));
  const costIngestion = deps.costIngestion;
  if (costIngestion !== undefined)
    await app.register(async (scope) => {
      await costIngestionRoutes(scope, { costIngestion });
      await costIngestionSettingsRoutes(scope, { costIngestion, state: deps.state });
    });
  await app.register(async (scope) => {
    // decision-engine reads these bodies itself, whatever the Content-Type says.
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch (error) {
        // A body that is not JSON is the client's mistake: 400 with the decider envelope.
        done(Object.assign(error as Error, { statusCode: 400 }), undefined);
      }
    });
    await gatewayDecisionRoutes(scope, deps);
    await legacyDecisionGatewayRoutes(scope, deps);
    await scoreFeedbackRoutes(scope, deps);
  });
}

/** Merchants' own provider credentials, handed to the toolkit's calls; undefined when the operator gave no keys (distributed without PROVIDER_CREDENTIAL_KEYS). */
function merchantProviderCredentialsOf(deps: AppDeps): MerchantProviderCredentials | undefined {
  if (deps.providerCredentialKeys === undefined) return undefined;
  const credentials = new MerchantProviderCredentials({
    configs: deps.state.configs,
    vault: new CredentialVault(deps.providerCredentialKeys),
    now: () => deps.clock.now(),
  });
  deps.toolkit.useMerchantProviderCredentials((merchantId) => credentials.envOf(merchantId));
  return credentials;
}
