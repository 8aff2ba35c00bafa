import type { HttpClient } from './http-client';
import type { ApiKeyCreated, ApiKeyListItem, ApiKeyRevoked, KeyLimits, KeyMcpPolicy } from './server-types';

/** The API key routes (api/routes/api-keys.ts), for the session's merchant. */
export function apiKeysApi(http: HttpClient, merchantId: () => string) {
  return {
    list: () => http.request<ApiKeyListItem[]>('GET', `/api-key/list/${encodeURIComponent(merchantId())}`),
    create: (description: string) =>
      http.request<ApiKeyCreated>('POST', '/api-key/create', { body: { merchant_id: merchantId(), description: description === '' ? null : description } }),
    /** The merchant's defaults for keys that set none of their own (limits, cache, MCP allow-list). */
    defaults: () => http.request<{ limits: KeyLimits | null; mcp: KeyMcpPolicy | null }>('GET', `/api-key/defaults/${encodeURIComponent(merchantId())}`),
    revoke: (keyId: string) => http.request<ApiKeyRevoked>('DELETE', `/api-key/${encodeURIComponent(keyId)}`),
  };
}
