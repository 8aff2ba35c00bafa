import type { HttpClient } from './http-client';
import type { AccountMessageResponse } from './server-types';

/** Password change, forgotten-password reset and email verification (api/routes/auth-password.ts). */
export function accountApi(http: HttpClient) {
  return {
    // A wrong current password answers 401 too: that is a refused form, not an ended session.
    changePassword: (currentPassword: string, newPassword: string) =>
      http.request<AccountMessageResponse>('POST', '/auth/change-password', {
        body: { current_password: currentPassword, new_password: newPassword },
        checksCredentials: true,
      }),
    forgotPassword: (email: string) => http.request<AccountMessageResponse>('POST', '/auth/forgot-password', { body: { email } }),
    resetPassword: (token: string, newPassword: string) =>
      http.request<AccountMessageResponse>('POST', '/auth/reset-password', { body: { token, new_password: newPassword } }),
    verifyEmail: (token: string) => http.request<AccountMessageResponse>('GET', '/auth/verify-email', { query: { token } }),
  };
}
