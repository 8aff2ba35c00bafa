import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthAttemptRecorder, AttemptFailureReason } from '../../src/auth/auth-attempt.js';
import { toAuthResponse } from '../../src/auth/auth-views.js';
import type { MerchantLookupEntry, SuperAdminRefusal, SuperAdminView } from '../../src/auth/super-admin/super-admin-view.js';
import type { SessionClaims } from '../../src/auth/token-service.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { EnterMerchantRequest, MerchantLookupResult, SuperAdminLookupRequest } from '../../src/generated/schema-types.js';
import { ref } from '../http-schemas.js';
import { attemptOriginOf, sessionOf } from '../plugins/authentication.js';

export interface SuperAdminRouteDeps {
  readonly view: SuperAdminView;
  /** The audit trail (`auth.attempted`, credential `super_admin`). */
  readonly audit: AuthAttemptRecorder;
}

const tags = ['Auth'];

/** Publishes one super-admin audit event in `merchantId`'s log (null: the reserved `_unattributed`). */
function audit(
  deps: SuperAdminRouteDeps,
  request: FastifyRequest,
  claims: SessionClaims,
  action: string,
  merchantId: string | null,
  reason: AttemptFailureReason | null,
): void {
  deps.audit({
    credential: 'super_admin',
    outcome: reason === null ? 'success' : 'failure',
    reason,
    merchantId: merchantId === '' ? null : merchantId,
    subject: claims.email,
    userId: claims.userId,
    keyId: null,
    origin: attemptOriginOf(request),
    action,
  });
}

/** The wire answer of a refusal (decision-engine's TE_04 statuses and messages). */
function refusal(kind: SuperAdminRefusal): SwitchyardError {
  switch (kind) {
    case 'unsupported_session':
      return new SwitchyardError('SY_AUTH_UNSUPPORTED_SESSION', { message: 'Operation not supported for this session type' });
    case 'not_super_admin':
      return new SwitchyardError('SY_AUTH_NOT_SUPER_ADMIN', { message: 'Insufficient permissions' });
    case 'merchant_not_found':
      return new SwitchyardError('SY_MERCHANT_NOT_FOUND', { message: 'Merchant not found' });
    case 'unknown_user':
      return new SwitchyardError('SY_AUTH_INVALID_TOKEN', { message: 'Invalid or expired token' });
  }
}

function toLookupResult(entry: MerchantLookupEntry): MerchantLookupResult {
  return { merchant_id: entry.merchantId, merchant_name: entry.merchantName, members: entry.members.map(({ email, role }) => ({ email, role })) };
}

function registerEnter(app: FastifyInstance, deps: SuperAdminRouteDeps): void {
  app.post<{ Body: EnterMerchantRequest }>(
    '/auth/super-admin/enter-merchant',
    {
      schema: {
        tags,
        summary: 'Super-admin: a view session in any merchant, keeping your own identity',
        body: ref('EnterMerchantRequest'),
        response: { 200: ref('AuthResponse') },
      },
      // The body names the merchant to enter, not the credential's: the roster decides (in the service).
      config: { auth: 'bearer', merchantFrom: 'credential', sessionKinds: ['standard'], minRole: 'member' },
    },
    async (request) => {
      const claims = sessionOf(request);
      const target = request.body.merchant_id;
      const entered = await deps.view.enter(claims, target);
      if (entered.kind !== 'ok') {
        audit(deps, request, claims, `enter_merchant ${target}`, claims.merchantId, entered.kind === 'unknown_user' ? 'not_super_admin' : entered.kind);
        throw refusal(entered.kind);
      }
      audit(deps, request, claims, 'enter_merchant', entered.session.merchantId, null);
      request.log.info({ userId: claims.userId, merchantId: entered.session.merchantId }, 'super-admin entered merchant');
      return toAuthResponse(entered.session);
    },
  );
}

function registerExit(app: FastifyInstance, deps: SuperAdminRouteDeps): void {
  app.post(
    '/auth/super-admin/exit',
    {
      schema: { tags, summary: 'Super-admin: leave the view session for your own full session', response: { 200: ref('AuthResponse') } },
      config: { auth: 'bearer', merchantFrom: 'credential', sessionKinds: ['super_admin_view'], minRole: 'member' },
    },
    async (request) => {
      const claims = sessionOf(request);
      const exited = await deps.view.exit(claims);
      if (exited.kind !== 'ok') {
        audit(deps, request, claims, 'exit', claims.merchantId, exited.kind === 'unknown_user' ? 'not_super_admin' : exited.kind);
        throw refusal(exited.kind);
      }
      audit(deps, request, claims, 'exit', claims.merchantId, null);
      return toAuthResponse(exited.session);
    },
  );
}

function registerLookup(app: FastifyInstance, deps: SuperAdminRouteDeps): void {
  app.post<{ Body: SuperAdminLookupRequest }>(
    '/auth/super-admin/lookup',
    {
      schema: {
        tags,
        summary: 'Super-admin: find merchants by merchant id or member email, with their members',
        body: ref('SuperAdminLookupRequest'),
        response: { 200: { type: 'array', items: ref('MerchantLookupResult') } },
      },
      config: { auth: 'bearer', merchantFrom: 'credential', sessionKinds: ['standard'], minRole: 'member' },
    },
    async (request) => {
      const claims = sessionOf(request);
      const found = await deps.view.lookup(claims, request.body.query);
      if (found.kind !== 'ok') {
        audit(deps, request, claims, 'lookup', claims.merchantId, found.kind === 'unknown_user' ? 'not_super_admin' : found.kind);
        throw refusal(found.kind);
      }
      audit(deps, request, claims, `lookup (${found.merchants.length} found)`, claims.merchantId, null);
      return found.merchants.map(toLookupResult);
    },
  );
}

/**
 * The platform super-admin view (decision-engine 1.4.x enter_merchant, exit_merchant,
 * lookup_merchants). Enter and lookup need a standard session, exit a view session (route config
 * `sessionKinds`, checked by the guard); the roster (SUPER_ADMIN_EMAILS) is checked by the service.
 * Every call is an `auth.attempted` event (credential `super_admin`), refusals included.
 */
export async function superAdminRoutes(app: FastifyInstance, deps: SuperAdminRouteDeps): Promise<void> {
  registerEnter(app, deps);
  registerExit(app, deps);
  registerLookup(app, deps);
}
