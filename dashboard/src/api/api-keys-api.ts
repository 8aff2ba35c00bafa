import type { HttpClient } from './http-client';
import type { ApiKeyCreated, ApiKeyListItem, ApiKeyRevoked } from './server-types';

/** The API key routes (api/routes/api-keys.ts), for the session's merchant. */
export function apiKeysApi(http: HttpClient, merchantId: () => string) {
  return {
    list: () => http.request<ApiKeyListItem[]>('GET', `/api-key/list/${encodeURIComponent(merchantId())}`),
    create: (description: string) =>
      http.request<ApiKeyCreated>('POST', '/api-key/create', { body: { merchant_id: merchantId(), description: description === '' ? null : description } }),
    revoke: (keyId: string) => http.request<ApiKeyRevoked>('DELETE', `/api-key/${encodeURIComponent(keyId)}`),
  };
}
