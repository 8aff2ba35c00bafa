import type { KeyPolicy } from '../../src/governance/key-policy.js';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { apiKeyPrefix } from '../../src/auth/api-key.js';
import type { AttemptOrigin } from '../../src/auth/auth-attempt.js';
import type { AuthFailure } from '../../src/auth/auth-outcomes.js';
import type { AuthService } from '../../src/auth/auth-service.js';
import { authFailureMessage } from '../../src/auth/auth-views.js';
import type { SessionClaims, SessionKind } from '../../src/auth/token-service.js';
import type { ErrorCode } from '../../src/errors/codes.js';
import type { MerchantRole } from '../../src/ports/state-store.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import { genericError } from '../wire/generic-error-envelope.js';
import { registerSessionRole, sessionRoleOf } from './session-role.js';
import { routeConfigOf } from '../route-config.js';
import { batchLineHeader, type BatchLineAttribution, type BatchLineGrants } from '../batch-line-grants.js';

/**
 * How a route is guarded (route `config.auth`). Every route declares one; a route that does not is
 * still guarded as 'either', and the guard-matrix contract test fails until it declares one.
 *
 * - 'none': public (health, docs, signup, login).
 * - 'admin-secret': the handler checks the admin secret header itself (merchant creation).
 * - 'bearer': a session token only; API keys are not accepted (decision-engine's /auth/* and onboarding).
 * - 'either': a session token, or an API key as `x-api-key` or `Authorization: Bearer DE_…`.
 */
export type RouteAuth = 'none' | 'admin-secret' | 'bearer' | 'either';

/**
 * Where a request names the merchant it acts on (route `config.merchantFrom`), so the guard can
 * check it is the credential's own:
 * - `{ body: [...] }` a path into the validated body, `{ params: key }`, `{ query: key }`;
 * - 'credential': the route works on the credential's merchant; a `merchant_id` query parameter,
 *   when given, must still name it;
 * - 'resource': the handler checks the owner itself: a resource looked up by id that is another
 *   merchant's is not found (`isOwnMerchant`); a merchant the body names is a 403 (`assertOwnMerchant`).
 */
export type MerchantSource = { readonly body: readonly string[] } | { readonly params: string } | { readonly query: string } | 'credential' | 'resource';

/** Who a request acts for, attached as `request.credential` on guarded routes. */
export type Credential =
  | { readonly kind: 'session'; readonly claims: SessionClaims }
  | {
      readonly kind: 'api_key';
      readonly merchantId: string;
      readonly keyId: string;
      readonly policy?: KeyPolicy;
      /** Set on an OpenAI batch line run in process as its batch's key (api/batch-line-grants.ts). */
      readonly batchLine?: BatchLineAttribution;
    };

/** One registered route and its guard, as declared (undefined where the route declared nothing). */
export interface RouteTableEntry {
  readonly method: string;
  readonly url: string;
  readonly auth: RouteAuth | undefined;
  readonly merchantFrom: MerchantSource | undefined;
  /** Whether the route declares a body schema (the bodiless-requests contract test reads it). */
  readonly hasBody: boolean;
  /** The least role a session needs here (declared, or the default of `requiredRoleOf`). */
  readonly minRole: MerchantRole;
  /** The session kinds the route takes (`config.sessionKinds`); undefined: every kind. */
  readonly sessionKinds?: readonly SessionKind[] | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    merchantFrom?: MerchantSource;
    /** 'bearer' routes only: a logged-out token still passes (POST /auth/logout is idempotent). */
    acceptsRevokedSession?: boolean;
    /**
     * The least role a session must hold in its merchant (see `requiredRoleOf` for the default):
     * 'member' lets every member through, 'admin' refuses members (403). API keys are not roles.
     */
    minRole?: MerchantRole;
    /**
     * 'bearer' routes: the session kinds allowed (default: every kind). Account routes take
     * ['standard'], refusing SSO handoff (`hs_redirect`) and super-admin view sessions with 403
     * `Operation not supported for this session type` (decision-engine's UnsupportedOperation).
     */
    sessionKinds?: readonly SessionKind[];
  }
  interface FastifyRequest {
    /** Set by the guard on 'bearer' and 'either' routes; null on public ones. */
    credential: Credential | null;
  }
  interface FastifyInstance {
    /** Every route with its guard, collected as routes are added (the guard-matrix test iterates it). */
    readonly routeTable: readonly RouteTableEntry[];
  }
}

const bearerPattern = /^Bearer(?:[ \t]+(.*))?$/i;

/** A merchant id echoed in a 403 is cut here: it may come from an unvalidated query string. */
const maxEchoedIdLength = 128;

/** The plain-text 401s of decision-engine's middleware, one error code each. */
const credentialErrorCode = {
  missing_credentials: 'SY_AUTH_MISSING_CREDENTIALS',
  invalid_token: 'SY_AUTH_INVALID_TOKEN',
  invalid_api_key: 'SY_AUTH_INVALID_API_KEY',
  revoked_api_key: 'SY_AUTH_REVOKED_API_KEY',
} as const satisfies Partial<Record<AuthFailure['kind'], ErrorCode>>;

/** Statuses of the user-auth failures answered with envelope 1 (`TE_04`), per `AuthFailure`'s table. */
const envelopeStatus = {
  email_taken: 409,
  weak_password: 400,
  merchant_not_found: 404,
  invalid_credentials: 401,
  inactive: 403,
  throttled: 429,
  // decision-engine answers 500 for an unknown key id; a client mistake is a 404 here.
  api_key_not_found: 404,
  // decision-engine (SSO grants): a redirect or view session moving outside its grant, existing merchant or not.
  outside_grant: 403,
} as const satisfies Record<Exclude<AuthFailure['kind'], keyof typeof credentialErrorCode>, number>;

function isCredentialFailure(failure: AuthFailure): failure is Extract<AuthFailure, { kind: keyof typeof credentialErrorCode }> {
  return failure.kind in credentialErrorCode;
}

function credentialError(failure: Extract<AuthFailure, { kind: keyof typeof credentialErrorCode }>): SwitchyardError {
  return new SwitchyardError(credentialErrorCode[failure.kind], {
    message: authFailureMessage(failure),
    // Why a token was refused is for the log only: the wire answer is the same for every reason.
    details: failure.kind === 'invalid_token' ? { reason: failure.reason } : undefined,
  });
}

/**
 * Answers an `AuthFailure` the way decision-engine does: middleware failures as plain-text 401s
 * (thrown, for api/plugins/errors.ts), user-auth failures as `{code:"TE_04",message,data:null}`
 * with the status of `AuthFailure`'s table, and throttling as 429 with `Retry-After` (seconds).
 */
export function sendAuthFailure(request: FastifyRequest, reply: FastifyReply, failure: AuthFailure): FastifyReply {
  if (isCredentialFailure(failure)) throw credentialError(failure);
  request.log.info({ kind: failure.kind }, 'request rejected');
  if (failure.kind === 'throttled') reply.header('retry-after', retryAfterSeconds(failure.retryAfterMs));
  return reply.code(envelopeStatus[failure.kind]).send(genericError('TE_04', authFailureMessage(failure)));
}

/** Whole seconds, at least 1 (RFC 9110 delay-seconds; 0 would invite an immediate retry). */
function retryAfterSeconds(retryAfterMs: number): string {
  return String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
}

/** A throttled admin-secret check: 429 with `Retry-After`, in the TE_04 envelope a throttled login gets. */
export function sendAdminSecretThrottled(request: FastifyRequest, reply: FastifyReply, retryAfterMs: number): FastifyReply {
  request.log.info({ kind: 'throttled', credential: 'admin_secret' }, 'request rejected');
  reply.header('retry-after', retryAfterSeconds(retryAfterMs));
  return reply.code(envelopeStatus.throttled).send(genericError('TE_04', 'Too many failed admin secret attempts; try again later'));
}

function forbidden(message: string): SwitchyardError {
  return new SwitchyardError('SY_AUTH_FORBIDDEN_MERCHANT', { message });
}

function echo(id: string): string {
  return id.length > maxEchoedIdLength ? `${id.slice(0, maxEchoedIdLength)}…` : id;
}

/** The merchant a credential acts for; '' for a session whose user has no merchant yet. */
export function merchantOfCredential(credential: Credential): string {
  return credential.kind === 'session' ? credential.claims.merchantId : credential.merchantId;
}

/** The guarded request's credential; a route that reaches for it without a guard is a bug. */
export function credentialOf(request: FastifyRequest): Credential {
  if (request.credential === null) {
    throw new SwitchyardError('SY_INTERNAL', { message: 'route reads a credential but is not guarded', details: { url: request.routeOptions.url } });
  }
  return request.credential;
}

/** The session of a 'bearer' route. */
export function sessionOf(request: FastifyRequest): SessionClaims {
  const credential = credentialOf(request);
  if (credential.kind !== 'session') {
    throw new SwitchyardError('SY_INTERNAL', { message: 'bearer route reached with an API key', details: { url: request.routeOptions.url } });
  }
  return credential.claims;
}

/** The merchant the request's credential acts for (what 'credential' routes such as analytics read). */
export function credentialMerchantOf(request: FastifyRequest): string {
  return merchantOfCredential(credentialOf(request));
}

/**
 * For 'resource' routes that look a resource up by id: whether `owner` (its merchant) is the
 * credential's. Another merchant's resource is answered like an unknown id (404), so an id tells
 * a caller nothing about who owns it.
 */
export function isOwnMerchant(request: FastifyRequest, owner: string): boolean {
  return owner === credentialMerchantOf(request);
}

/** For 'resource' routes whose body names merchants: 403 unless `owner` is the credential's merchant. */
export function assertOwnMerchant(request: FastifyRequest, owner: string): void {
  const own = credentialMerchantOf(request);
  if (owner !== own) throw forbidden(`Forbidden: this credential is for merchant '${echo(own)}', not '${echo(owner)}'`);
}

/**
 * The request as an authentication attempt's origin (audit records, throttles): the client
 * address fastify worked out (TRUST_PROXY decides whether X-Forwarded-For counts), the request
 * id, the route template and the user agent.
 */
export function attemptOriginOf(request: FastifyRequest): AttemptOrigin {
  return {
    sourceAddress: request.ip,
    requestId: String(request.id),
    route: routeConfigOf(request).url ?? request.url,
    userAgent: headerValue(request, 'user-agent'),
  };
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The Bearer token, '' for an Authorization header that says Bearer but carries nothing (refused
 * as an invalid token), or undefined when there is no Bearer header (another scheme is ignored).
 */
function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = headerValue(request, 'authorization');
  if (header === undefined) return undefined;
  const match = bearerPattern.exec(header.trim());
  return match === null ? undefined : (match[1] ?? '').trim();
}

/** Values at a path in an object parsed from JSON; undefined when any step is missing. */
function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const step of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[step];
  }
  return node;
}

/** Every merchant id the request names at `source`; [] when it names none there. */
function namedMerchants(request: FastifyRequest, source: MerchantSource): readonly string[] {
  let value: unknown;
  if (source === 'resource') return [];
  if (source === 'credential') value = valueAt(request.query, ['merchant_id']);
  else if ('body' in source) value = valueAt(request.body, source.body);
  else if ('params' in source) value = valueAt(request.params, [source.params]);
  else value = valueAt(request.query, [source.query]);
  if (value === undefined) return [];
  // A repeated query parameter arrives as an array: every value must name the credential's merchant.
  return (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'string' ? item : (JSON.stringify(item) ?? '')));
}

export interface AuthenticationOptions {
  readonly auth: AuthService;
  /**
   * A session user's role in a merchant now (undefined: not, or no longer, a member), so that a
   * demoted or removed admin loses write access at once rather than when the token expires.
   * Unset: the token's `role` claim decides.
   */
  readonly roleOf?: (userId: string, merchantId: string) => Promise<MerchantRole | undefined>;
  /** The grants of in-process OpenAI batch line calls (api/batch-line-grants.ts); unset: none are honoured. */
  readonly batchLines?: BatchLineGrants;
}

/** 403 (TE_04) unless the route takes the session's kind (`config.sessionKinds`). */
function checkSessionKind(allowed: readonly SessionKind[] | undefined, claims: SessionClaims): void {
  if (allowed === undefined || allowed.includes(claims.tokenType ?? 'standard')) return;
  throw new SwitchyardError('SY_AUTH_UNSUPPORTED_SESSION', { message: 'Operation not supported for this session type' });
}

/**
 * The least role a route needs from a session: what it declares (`config.minRole`), else 'admin'
 * for a merchant route ('either') that changes something (any method but GET and HEAD), else
 * 'member'. Session-only ('bearer') routes act on the user's own account unless they say otherwise.
 */
export function requiredRoleOf(method: string, config: FastifyContextConfig): MerchantRole {
  if (config.minRole !== undefined) return config.minRole;
  const writes = method !== 'GET' && method !== 'HEAD';
  return writes && (config.auth ?? 'either') === 'either' ? 'admin' : 'member';
}

/** 403 unless the session's role (its current one when `roleOf` is given) meets the route's. */
async function checkRole(request: FastifyRequest, claims: SessionClaims, options: AuthenticationOptions): Promise<void> {
  if (claims.merchantId === '' || requiredRoleOf(request.method, routeConfigOf(request)) !== 'admin') return;
  // An SSO handoff or super-admin view session holds no membership in the merchant: its token's
  // role (admin, as decision-engine issues them) decides, as decision-engine's permissions do.
  if ((claims.tokenType ?? 'standard') !== 'standard' && claims.role === 'admin') return;
  // No membership (removed, or data drift) is the least privilege, as sessions are issued.
  const role = options.roleOf === undefined ? claims.role : ((await sessionRoleOf(request, options.roleOf, claims.userId, claims.merchantId)) ?? 'member');
  if (role === 'admin') return;
  throw new SwitchyardError('SY_AUTH_FORBIDDEN_ROLE', {
    message: `Forbidden: role '${role}' can only read merchant '${echo(claims.merchantId)}'; ask an admin of the merchant`,
  });
}

/**
 * `onRoute`: records the route in the table (with its declared guard and effective least role),
 * makes /docs* public, and gives the OpenAPI document the route's security requirement.
 */
function recordRoute(app: FastifyInstance, table: RouteTableEntry[], route: RouteOptions): void {
  const config: FastifyContextConfig = route.config ?? {};
  if (config.auth === undefined && (route.url === '/docs' || route.url.startsWith('/docs/'))) {
    route.config = { ...config, auth: 'none' };
  }
  const declared = route.config?.auth;
  for (const method of [route.method].flat()) {
    table.push({
      method,
      url: route.url,
      auth: declared,
      merchantFrom: route.config?.merchantFrom,
      hasBody: route.schema?.body !== undefined,
      minRole: requiredRoleOf(method, route.config ?? {}),
      sessionKinds: route.config?.sessionKinds,
    });
  }
  if (declared === undefined) app.log.warn({ url: route.url }, 'route declares no auth: guarded as either');
  const effective = declared ?? 'either';
  if (effective === 'bearer' || effective === 'either') {
    const security: Record<string, string[]>[] = effective === 'bearer' ? [{ BearerAuth: [] }] : [{ BearerAuth: [] }, { ApiKeyAuth: [] }];
    route.schema = { ...route.schema, security };
  }
}

/**
 * The guard of every route, registered at the root before any route so that no route escapes it.
 *
 * 1. `onRoute` records each route in `app.routeTable`; /docs* (added by @fastify/swagger-ui) is
 *    made public; the OpenAPI document gets each route's security requirement.
 * 2. `onRequest` authenticates, before the body is even read: a caller without a valid credential
 *    costs no body parsing and learns nothing about body shapes. Bearer first, and a Bearer header
 *    that fails never falls back to the API key (a `Bearer DE_…` is the API key itself on 'either' routes);
 *    then `x-api-key` on 'either' routes. All 401s are
 *    decision-engine's plain texts.
 * 3. `preHandler` checks that the merchant the request names is the credential's (403 otherwise).
 *    It runs after validation on purpose: it checks the very values the handler will use, after
 *    ajv's type coercion (which would turn `["b"]` into `"b"`).
 *
 * @remarks Stricter than decision-engine, which trusts the merchant ids in bodies and paths: here a
 * key or a session only ever acts for its own merchant. `apiKeyAuthEnabled=false` (decision-engine's
 * "compat mode", which lets requests through without credentials) is not honoured: credentials
 * are always required.
 */
export function registerAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
  const table: RouteTableEntry[] = [];
  app.decorate('routeTable', table);
  app.decorateRequest('credential', null);
  registerSessionRole(app);

  app.addHook('onRoute', (route: RouteOptions) => recordRoute(app, table, route));

  // Synchronous for public routes and 404s; otherwise the credential check's promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.is404) return done();
    const guard = routeConfigOf(request).auth ?? 'either';
    if (guard === 'none' || guard === 'admin-secret') return done();
    return authenticateRequest(request, guard, options);
  });

  // Synchronous (throws for fastify's error path) unless a session's live role must be read.
  app.addHook('preHandler', (request, _reply, done) => {
    const credential = request.credential;
    if (credential === null) return done();
    const config = routeConfigOf(request);
    const own = merchantOfCredential(credential);
    if (own === '' && (config.auth ?? 'either') === 'either') {
      throw forbidden('Forbidden: this session has no merchant yet; create one with POST /onboarding/merchant or join one with POST /auth/switch-merchant');
    }
    for (const named of namedMerchants(request, config.merchantFrom ?? 'credential')) {
      if (named !== own) throw forbidden(`Forbidden: this credential is for merchant '${echo(own)}', not '${echo(named)}'`);
    }
    if (credential.kind !== 'session') return done();
    checkSessionKind(config.sessionKinds, credential.claims);
    return checkRole(request, credential.claims, options);
  });
}

/** Authenticates a guarded request and sets `request.credential` (throws the 401s). */
async function authenticateRequest(request: FastifyRequest, guard: 'bearer' | 'either', options: AuthenticationOptions): Promise<void> {
  if (guard === 'either' && options.batchLines !== undefined) {
    // An OpenAI batch line run in process as its batch's API key (api/gateway-line-runner.ts).
    const granted = await options.batchLines.credentialOf(headerValue(request, batchLineHeader));
    if (granted === 'revoked') throw credentialError({ kind: 'revoked_api_key' });
    if (granted !== undefined) {
      request.credential = { kind: 'api_key', ...granted };
      return;
    }
  }
  let bearerToken = bearerTokenOf(request);
  let apiKey = guard === 'either' ? headerValue(request, 'x-api-key') : undefined;
  // One credential rule for every route family: an API key is accepted as `x-api-key` or as
  // `Authorization: Bearer DE_…` (the way OpenAI clients send theirs) on every 'either' route.
  if (guard === 'either' && bearerToken?.startsWith(apiKeyPrefix) === true) {
    apiKey = bearerToken;
    bearerToken = undefined;
  }
  const allowRevoked = guard === 'bearer' && routeConfigOf(request).acceptsRevokedSession === true;
  const result = await options.auth.authenticate({ bearerToken, apiKey: apiKey === '' ? undefined : apiKey, allowRevoked, origin: attemptOriginOf(request) });
  if (result.kind !== 'ok') throw credentialError(result);
  const context = result.context;
  request.credential =
    context.via === 'bearer'
      ? { kind: 'session', claims: context.claims }
      : { kind: 'api_key', merchantId: context.merchantId, keyId: context.keyId, ...(context.policy !== undefined ? { policy: context.policy } : {}) };
}
