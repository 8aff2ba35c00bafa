import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AccountRecovery, ChangePasswordResult, RedeemResult } from '../../src/auth/password-reset/account-recovery.js';
import type { ChangePasswordRequest, ForgotPasswordRequest, ResetPasswordRequest, VerifyEmailQuery } from '../../src/generated/schema-types.js';
import { ref } from '../http-schemas.js';
import { attemptOriginOf, sessionOf } from '../plugins/authentication.js';
import { genericError } from '../wire/generic-error-envelope.js';

export interface AuthPasswordRouteDeps {
  readonly recovery: AccountRecovery;
}

const tags = ['Account'];

/** decision-engine's messages, word for word (src/routes/user_auth.rs, src/error/custom_error.rs). */
export const accountMessages = {
  changed: 'Password updated successfully.',
  forgot: 'If an account exists for that email, a password reset link has been sent.',
  reset: 'Password reset successfully. You can now sign in with your new password.',
  verified: 'Email verified successfully. You can now log in.',
  invalidPassword: 'Invalid email or password',
  unsupported: 'Operation not supported for this session type',
  invalidResetToken: 'Invalid or expired password reset token',
  invalidVerificationToken: 'Invalid or expired verification token',
} as const;

function sendFailure(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send(genericError('TE_04', message));
}

function sendChangeFailure(reply: FastifyReply, result: Exclude<ChangePasswordResult, { kind: 'ok' }>): FastifyReply {
  switch (result.kind) {
    case 'invalid_password':
      return sendFailure(reply, 401, accountMessages.invalidPassword);
    case 'weak_password':
      return sendFailure(reply, 400, result.message);
    case 'unsupported_session':
      return sendFailure(reply, 403, accountMessages.unsupported);
    case 'unknown_user':
      return sendFailure(reply, 403, 'Account is inactive');
  }
}

function sendRedeemFailure(reply: FastifyReply, result: Exclude<RedeemResult, { kind: 'ok' }>, invalidMessage: string): FastifyReply {
  return sendFailure(reply, 400, result.kind === 'weak_password' ? result.message : invalidMessage);
}

function registerChangePassword(app: FastifyInstance, deps: AuthPasswordRouteDeps): void {
  app.post<{ Body: ChangePasswordRequest }>(
    '/auth/change-password',
    {
      schema: {
        tags,
        summary: "Change the signed-in user's password; every other session of the user ends on every replica",
        body: ref('ChangePasswordRequest'),
        response: { 200: ref('AccountMessageResponse') },
      },
      // decision-engine: a super-admin view or SSO handoff session never touches the account's credentials.
      config: { auth: 'bearer', merchantFrom: 'credential', sessionKinds: ['standard'] },
    },
    async (request, reply) => {
      const { current_password: current, new_password: next } = request.body;
      const result = await deps.recovery.changePassword(sessionOf(request), current, next, attemptOriginOf(request));
      if (result.kind !== 'ok') return sendChangeFailure(reply, result);
      request.log.info({ userId: sessionOf(request).userId }, 'password changed; other sessions revoked');
      return { message: accountMessages.changed };
    },
  );
}

function registerForgotPassword(app: FastifyInstance, deps: AuthPasswordRouteDeps): void {
  app.post<{ Body: ForgotPasswordRequest }>(
    '/auth/forgot-password',
    {
      schema: {
        tags,
        summary: 'Mail a one-time password reset link; the answer is the same whether or not the account exists',
        body: ref('ForgotPasswordRequest'),
        response: { 200: ref('AccountMessageResponse') },
      },
      config: { auth: 'none' },
    },
    async (request) => {
      await deps.recovery.forgotPassword(request.body.email, attemptOriginOf(request));
      return { message: accountMessages.forgot };
    },
  );
}

function registerResetPassword(app: FastifyInstance, deps: AuthPasswordRouteDeps): void {
  app.post<{ Body: ResetPasswordRequest }>(
    '/auth/reset-password',
    {
      schema: {
        tags,
        summary: 'Set a new password with a one-time reset token; every session of the user ends',
        body: ref('ResetPasswordRequest'),
        response: { 200: ref('AccountMessageResponse') },
      },
      config: { auth: 'none' },
    },
    async (request, reply) => {
      const result = await deps.recovery.resetPassword(request.body.token, request.body.new_password, attemptOriginOf(request));
      if (result.kind !== 'ok') return sendRedeemFailure(reply, result, accountMessages.invalidResetToken);
      return { message: accountMessages.reset };
    },
  );
}

function registerVerifyEmail(app: FastifyInstance, deps: AuthPasswordRouteDeps): void {
  app.get<{ Querystring: VerifyEmailQuery }>(
    '/auth/verify-email',
    {
      schema: {
        tags,
        summary: 'Mark the email of the account verified with a one-time verification token',
        querystring: ref('VerifyEmailQuery'),
        response: { 200: ref('AccountMessageResponse') },
      },
      config: { auth: 'none' },
    },
    async (request, reply) => {
      const result = await deps.recovery.verifyEmail(request.query.token, attemptOriginOf(request));
      if (result.kind !== 'ok') return sendRedeemFailure(reply, result, accountMessages.invalidVerificationToken);
      return { message: accountMessages.verified };
    },
  );
}

/**
 * Password change, forgotten-password reset and email verification (issue 25), with
 * decision-engine 1.4.x's paths, bodies and messages. Tokens are one-time, hashed at rest and
 * expiring (src/auth/password-reset/account-recovery.ts).
 */
export async function authPasswordRoutes(app: FastifyInstance, deps: AuthPasswordRouteDeps): Promise<void> {
  registerChangePassword(app, deps);
  registerForgotPassword(app, deps);
  registerResetPassword(app, deps);
  registerVerifyEmail(app, deps);
}
