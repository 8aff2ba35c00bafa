import type { HttpClient } from './http-client';
import type { InviteMemberResponse, MemberInfo, RemoveMemberResponse } from './server-types';

/** The team routes (api/routes/merchant-members.ts): always the session's merchant, session tokens only. */
export function membersApi(http: HttpClient) {
  return {
    list: () => http.request<MemberInfo[]>('GET', '/merchant/members'),
    invite: (email: string, role: 'admin' | 'member') => http.request<InviteMemberResponse>('POST', '/merchant/members/invite', { body: { email, role } }),
    remove: (userId: string) => http.request<RemoveMemberResponse>('DELETE', `/merchant/members/${encodeURIComponent(userId)}`),
  };
}
