import type { FastifyInstance } from 'fastify';
import type { AdminSecretGuard } from '../../src/auth/admin-secret.js';
import type { AuthAttempt, AuthAttemptRecorder } from '../../src/auth/auth-attempt.js';
import { toAuthResponse } from '../../src/auth/auth-views.js';
import type { AdminSso } from '../../src/auth/sso/admin-sso.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { AdminMerchantTokenRequest, ExchangeMerchantTokenRequest } from '../../src/generated/schema-types.js';
import { ref } from '../http-schemas.js';
import { attemptOriginOf, sendAdminSecretThrottled } from '../plugins/authentication.js';

export interface AdminSsoRouteDeps {
  readonly sso: AdminSso;
  /** Throttled, constant-time, audited check of the admin secret header (as merchant creation). */
  readonly adminSecret: AdminSecretGuard;
  readonly adminSecretHeader: string;
  /** The audit trail (`auth.attempted`, credential `sso_code`). */
  readonly audit: AuthAttemptRecorder;
}

const tags = ['Auth'];

type SsoAudit = Pick<AuthAttempt, 'outcome' | 'reason' | 'merchantId' | 'origin' | 'action'>;

function audited(deps: AdminSsoRouteDeps, attempt: SsoAudit): void {
  deps.audit({ credential: 'sso_code', subject: null, userId: null, keyId: null, ...attempt });
}

function registerMint(app: FastifyInstance, deps: AdminSsoRouteDeps): void {
  app.post<{ Body: AdminMerchantTokenRequest }>(
    '/auth/admin/merchant-token',
    {
      schema: {
        tags,
        summary: 'Mint a one-time SSO handoff code for a merchant (admin secret; server to server)',
        body: ref('AdminMerchantTokenRequest'),
        response: { 200: ref('AdminMerchantCodeResponse') },
      },
      config: { auth: 'admin-secret' },
    },
    async (request, reply) => {
      const merchantId = request.body.merchant_id;
      const presented = request.headers[deps.adminSecretHeader.toLowerCase()];
      const origin = attemptOriginOf(request);
      // Refused and throttled per address exactly as merchant creation; each refusal is audited there.
      const check = await deps.adminSecret.check(typeof presented === 'string' ? presented : undefined, origin, merchantId);
      if (check.kind === 'throttled') return sendAdminSecretThrottled(request, reply, check.retryAfterMs);
      if (check.kind !== 'ok') throw new SwitchyardError('SY_AUTH_INVALID_ADMIN_SECRET', { message: 'Invalid admin secret' });
      const minted = await deps.sso.mint(merchantId);
      if (minted.kind !== 'ok') throw new SwitchyardError('SY_MERCHANT_NOT_FOUND', { message: 'Merchant not found' });
      audited(deps, { outcome: 'success', reason: null, merchantId, origin, action: 'mint' });
      // The code is never logged: it is a bearer secret until redeemed.
      request.log.info({ merchantId }, 'sso code minted');
      return { code: minted.code, expires_in: minted.expiresIn };
    },
  );
}

function registerExchange(app: FastifyInstance, deps: AdminSsoRouteDeps): void {
  app.post<{ Body: ExchangeMerchantTokenRequest }>(
    '/auth/admin/merchant-token/exchange',
    {
      schema: {
        tags,
        summary: 'Redeem a one-time SSO code (once) for a short session limited to its merchant',
        body: ref('ExchangeMerchantTokenRequest'),
        response: { 200: ref('AuthResponse') },
      },
      // Authenticated by the code itself (decision-engine: public router).
      config: { auth: 'none' },
    },
    async (request) => {
      const origin = attemptOriginOf(request);
      const exchanged = await deps.sso.exchange(request.body.code);
      if (exchanged.kind !== 'ok') {
        audited(deps, { outcome: 'failure', reason: 'invalid_code', merchantId: null, origin, action: 'exchange' });
        throw new SwitchyardError('SY_AUTH_INVALID_SSO_CODE', { message: 'Invalid or expired token' });
      }
      const { session } = exchanged;
      audited(deps, { outcome: 'success', reason: null, merchantId: session.merchantId, origin, action: 'exchange' });
      return toAuthResponse(session);
    },
  );
}

/**
 * Admin SSO handoff (decision-engine docs/hs-merchant-sso.md): `POST /auth/admin/merchant-token`
 * mints a one-time code for an existing merchant behind the admin secret; `POST
 * /auth/admin/merchant-token/exchange` redeems it, once, for an `hs_redirect` session.
 */
export async function adminSsoRoutes(app: FastifyInstance, deps: AdminSsoRouteDeps): Promise<void> {
  registerMint(app, deps);
  registerExchange(app, deps);
}
