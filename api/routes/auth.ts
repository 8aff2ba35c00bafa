import type { FastifyInstance } from 'fastify';
import type { AdminSecretGuard } from '../../src/auth/admin-secret.js';
import type { AuthService } from '../../src/auth/auth-service.js';
import type { SessionClaims } from '../../src/auth/token-service.js';
import { logoutResponse, toAuthResponse, toMeResponse, toMerchantInfo, toOnboardingResponse } from '../../src/auth/auth-views.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { LoginRequest, OnboardingRequest, SignupRequest, SwitchMerchantRequest } from '../../src/generated/schema-types.js';
import { ref } from '../http-schemas.js';
import { attemptOriginOf, sendAdminSecretThrottled, sendAuthFailure, sessionOf } from '../plugins/authentication.js';

export interface AuthRouteDeps {
  readonly auth: AuthService;
  /** Throttled, constant-time, audited check of the admin secret header. */
  readonly adminSecret: AdminSecretGuard;
  readonly adminSecretHeader: string;
  /** Whether a session is a rostered super-admin's (decision-engine's `is_super_admin` in /auth/me). */
  readonly isSuperAdmin?: (claims: SessionClaims) => boolean;
  /** Runs after a successful signup: mails the email verification link (issue 25). */
  readonly onSignedUp?: (session: { readonly userId: string; readonly email: string }) => Promise<void>;
}

const tags = ['Auth'];

function registerSignup(app: FastifyInstance, deps: AuthRouteDeps): void {
  app.post<{ Body: SignupRequest }>(
    '/auth/signup',
    {
      schema: {
        tags,
        summary: 'Create a user, optionally joining an existing merchant (admin secret)',
        body: ref('SignupRequest'),
        response: { 200: ref('AuthResponse') },
      },
      config: { auth: 'none' },
    },
    async (request, reply) => {
      const { email, password, merchant_id: merchantId } = request.body;
      if ((merchantId?.trim() ?? '') !== '') {
        const presented = request.headers[deps.adminSecretHeader.toLowerCase()];
        const check = await deps.adminSecret.check(typeof presented === 'string' ? presented : undefined, attemptOriginOf(request), merchantId ?? undefined);
        if (check.kind === 'throttled') return sendAdminSecretThrottled(request, reply, check.retryAfterMs);
        if (check.kind !== 'ok') throw new SwitchyardError('SY_AUTH_INVALID_ADMIN_SECRET', { message: 'Invalid admin secret' });
      }
      const result = await deps.auth.signup({ email, password, merchantId });
      if (result.kind !== 'ok') return sendAuthFailure(request, reply, result);
      request.log.info({ userId: result.session.userId, merchantId: result.session.merchantId }, 'user signed up');
      await deps.onSignedUp?.(result.session);
      return toAuthResponse(result.session);
    },
  );
}

function registerLogin(app: FastifyInstance, deps: AuthRouteDeps): void {
  app.post<{ Body: LoginRequest }>(
    '/auth/login',
    {
      schema: {
        tags,
        summary: 'Sign in; repeated failures are slowed down per account and per address',
        body: ref('LoginRequest'),
        response: { 200: ref('AuthResponse') },
      },
      config: { auth: 'none' },
    },
    async (request, reply) => {
      // request.ip is the socket's peer unless TRUST_PROXY names the proxy in front (see docs/security.md).
      const result = await deps.auth.login(request.body.email, request.body.password, attemptOriginOf(request));
      if (result.kind !== 'ok') return sendAuthFailure(request, reply, result);
      return toAuthResponse(result.session);
    },
  );
}

function registerLogout(app: FastifyInstance, deps: AuthRouteDeps): void {
  app.post(
    '/auth/logout',
    {
      schema: { tags, summary: 'Revoke this session token on every replica; idempotent for the same token', response: { 200: ref('LogoutResponse') } },
      // decision-engine's logout checks signature and expiry, not its denylist: logging a
      // logged-out token out again is 200. Every other route still refuses it.
      config: { auth: 'bearer', merchantFrom: 'credential', acceptsRevokedSession: true },
    },
    async (request) => {
      await deps.auth.logout(sessionOf(request));
      return logoutResponse;
    },
  );
}

function registerMe(app: FastifyInstance, deps: AuthRouteDeps): void {
  app.get(
    '/auth/me',
    { schema: { tags, summary: 'The signed-in user', response: { 200: ref('MeResponse') } }, config: { auth: 'bearer', merchantFrom: 'credential' } },
    async (request, reply) => {
      const claims = sessionOf(request);
      const result = await deps.auth.me(claims);
      if (result.kind !== 'ok') return sendAuthFailure(request, reply, result);
      return {
        ...toMeResponse(result.profile),
        is_super_admin: deps.isSuperAdmin?.(claims) ?? false,
        is_super_admin_view: claims.tokenType === 'super_admin_view',
      };
    },
  );
}

function registerMerchants(app: FastifyInstance, deps: AuthRouteDeps): void {
  app.get(
    '/auth/merchants',
    {
      schema: { tags, summary: 'The merchants the signed-in user belongs to', response: { 200: { type: 'array', items: ref('MerchantInfo') } } },
      config: { auth: 'bearer', merchantFrom: 'credential' },
    },
    async (request, reply) => {
      const result = await deps.auth.merchants(sessionOf(request));
      if (result.kind !== 'ok') return sendAuthFailure(request, reply, result);
      return result.merchants.map(toMerchantInfo);
    },
  );
}

function registerSwitchMerchant(app: FastifyInstance, deps: AuthRouteDeps): void {
  app.post<{ Body: SwitchMerchantRequest }>(
    '/auth/switch-merchant',
    {
      schema: {
        tags,
        summary: 'A new token for another merchant the user belongs to',
        body: ref('SwitchMerchantRequest'),
        response: { 200: ref('AuthResponse') },
      },
      // The body names the target, not the current merchant: only membership decides (in the service).
      config: { auth: 'bearer', merchantFrom: 'credential' },
    },
    async (request, reply) => {
      const result = await deps.auth.switchMerchant(sessionOf(request), request.body.merchant_id);
      if (result.kind !== 'ok') return sendAuthFailure(request, reply, result);
      return toAuthResponse(result.session);
    },
  );
}

function registerOnboarding(app: FastifyInstance, deps: AuthRouteDeps): void {
  app.post<{ Body: OnboardingRequest }>(
    '/onboarding/merchant',
    {
      schema: {
        tags,
        summary: 'Create a merchant owned by the signed-in user and switch to it',
        body: ref('OnboardingRequest'),
        response: { 200: ref('OnboardingResponse') },
      },
      // decision-engine: an SSO handoff or super-admin view session cannot create merchants.
      config: { auth: 'bearer', merchantFrom: 'credential', sessionKinds: ['standard'] },
    },
    async (request, reply) => {
      const result = await deps.auth.onboardMerchant(sessionOf(request), request.body.merchant_name);
      if (result.kind !== 'ok') return sendAuthFailure(request, reply, result);
      request.log.info({ merchantId: result.onboarded.session.merchantId }, 'merchant onboarded');
      return toOnboardingResponse(result.onboarded);
    },
  );
}

/**
 * Auth: signup, login, logout, me, merchants, switch-merchant and merchant onboarding, with
 * decision-engine 1.4.x's shapes and messages. Session routes take a Bearer token only.
 *
 * @remarks Stricter than decision-engine: signing up into an existing merchant (`merchant_id`)
 * makes the new user that merchant's admin, so it needs the admin secret header; otherwise anyone
 * who knows a merchant id could take it over. Signup without a merchant needs nothing.
 */
export async function authRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  registerSignup(app, deps);
  registerLogin(app, deps);
  registerLogout(app, deps);
  registerMe(app, deps);
  registerMerchants(app, deps);
  registerSwitchMerchant(app, deps);
  registerOnboarding(app, deps);
}
