import type { FastifyInstance, FastifyReply } from 'fastify';
import type { MemberFailure, MerchantMembers } from '../../src/auth/members/merchant-members.js';
import type { InviteMemberRequest, InviteMemberResponse, MemberInfo, RemoveMemberResponse } from '../../src/generated/schema-types.js';
import { ref } from '../http-schemas.js';
import { attemptOriginOf, sessionOf } from '../plugins/authentication.js';
import { genericError } from '../wire/generic-error-envelope.js';

export interface MerchantMemberRouteDeps {
  readonly members: MerchantMembers;
}

const tags = ['Members'];

/** decision-engine's TE_04 answers (status, message) for a refused team change; the last two are ours. */
const failures = {
  forbidden: [403, 'Insufficient permissions'],
  already_member: [409, 'User is already a member of this merchant'],
  member_not_found: [404, 'Member not found'],
  last_admin: [409, 'The last admin of a merchant cannot be removed'],
} as const satisfies Record<MemberFailure['kind'], readonly [number, string]>;

function sendFailure(reply: FastifyReply, failure: MemberFailure): FastifyReply {
  const [status, message] = failures[failure.kind];
  return reply.code(status).send(genericError('TE_04', message));
}

function registerList(app: FastifyInstance, deps: MerchantMemberRouteDeps): void {
  app.get(
    '/merchant/members',
    {
      schema: { tags, summary: "The session merchant's members, admins included", response: { 200: { type: 'array', items: ref('MemberInfo') } } },
      config: { auth: 'bearer', merchantFrom: 'credential' },
    },
    async (request): Promise<MemberInfo[]> => {
      const members = await deps.members.list(sessionOf(request));
      return members.map((member) => ({ user_id: member.userId, email: member.email, role: member.role }));
    },
  );
}

function registerInvite(app: FastifyInstance, deps: MerchantMemberRouteDeps): void {
  app.post<{ Body: InviteMemberRequest }>(
    '/merchant/members/invite',
    {
      schema: {
        tags,
        summary: 'Add a user to the session merchant (admins only); a new email gets a generated password, answered once',
        body: ref('InviteMemberRequest'),
        response: { 200: ref('InviteMemberResponse') },
      },
      // decision-engine: only a full standard session manages identity (not an SSO handoff or a super-admin view).
      config: { auth: 'bearer', merchantFrom: 'credential', minRole: 'admin', sessionKinds: ['standard'] },
    },
    async (request, reply): Promise<InviteMemberResponse | FastifyReply> => {
      const result = await deps.members.invite(sessionOf(request), request.body.email, request.body.role, attemptOriginOf(request));
      if (result.kind !== 'ok') return sendFailure(reply, result);
      const { invited } = result;
      request.log.info({ merchantId: sessionOf(request).merchantId, role: invited.role, isNewUser: invited.isNewUser }, 'member invited');
      // The generated password is an answer, never a log field.
      return {
        email: invited.email,
        is_new_user: invited.isNewUser,
        ...(invited.password !== undefined ? { password: invited.password } : {}),
        role: invited.role,
      };
    },
  );
}

function registerRemove(app: FastifyInstance, deps: MerchantMemberRouteDeps): void {
  app.delete<{ Params: { user_id: string } }>(
    '/merchant/members/:user_id',
    {
      schema: {
        tags,
        summary: 'Remove a member from the session merchant (admins only; not its last admin). A Switchyard addition',
        params: { type: 'object', required: ['user_id'], properties: { user_id: { type: 'string', minLength: 1, maxLength: 255 } } },
        response: { 200: ref('RemoveMemberResponse') },
      },
      // decision-engine: only a full standard session manages identity (not an SSO handoff or a super-admin view).
      config: { auth: 'bearer', merchantFrom: 'credential', minRole: 'admin', sessionKinds: ['standard'] },
    },
    async (request, reply): Promise<RemoveMemberResponse | FastifyReply> => {
      const result = await deps.members.remove(sessionOf(request), request.params.user_id, attemptOriginOf(request));
      if (result.kind !== 'ok') return sendFailure(reply, result);
      request.log.info({ merchantId: sessionOf(request).merchantId, memberUserId: result.userId }, 'member removed');
      return { user_id: result.userId, removed: true };
    },
  );
}

/**
 * The merchant's team (decision-engine 1.4.x `GET /merchant/members`, `POST /merchant/members/invite`)
 * plus `DELETE /merchant/members/{user_id}`. Session tokens only; always the session's merchant.
 * Inviting and removing need an admin session (the guard's `minRole`, and again the use case).
 */
export async function merchantMemberRoutes(app: FastifyInstance, deps: MerchantMemberRouteDeps): Promise<void> {
  registerList(app, deps);
  registerInvite(app, deps);
  registerRemove(app, deps);
}
