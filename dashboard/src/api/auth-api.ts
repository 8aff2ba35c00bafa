import type { HttpClient } from './http-client';
import type { AuthResponse, MeResponse, MerchantInfo, OnboardingResponse } from './server-types';

/** The session routes (api/routes/auth.ts). */
export function authApi(http: HttpClient) {
  return {
    login: (email: string, password: string) => http.request<AuthResponse>('POST', '/auth/login', { body: { email, password } }),
    signup: (email: string, password: string) => http.request<AuthResponse>('POST', '/auth/signup', { body: { email, password } }),
    logout: () => http.request<{ message: string }>('POST', '/auth/logout'),
    me: () => http.request<MeResponse>('GET', '/auth/me'),
    merchants: () => http.request<MerchantInfo[]>('GET', '/auth/merchants'),
    switchMerchant: (merchantId: string) => http.request<AuthResponse>('POST', '/auth/switch-merchant', { body: { merchant_id: merchantId } }),
    onboard: (merchantName: string) => http.request<OnboardingResponse>('POST', '/onboarding/merchant', { body: { merchant_name: merchantName } }),
  };
}
