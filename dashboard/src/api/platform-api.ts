import type { HttpClient } from './http-client';

/** A stored provider credential as GET /provider-credentials lists it: names and a hint, never a value. */
export interface ProviderCredential {
  readonly provider: string;
  /** `default`: every call of the provider uses it; another name: only route group candidates naming it. */
  readonly name: string;
  readonly variables: readonly string[];
  readonly hint: string;
  readonly key_id: string;
  readonly created_at_ms: number;
  readonly updated_at_ms: number;
  readonly rotated_at_ms: number | null;
}

export interface ProviderCredentialList {
  /** False: the merchant's calls never use the operator's credentials. */
  readonly operator_fallback: boolean;
  readonly credentials: readonly ProviderCredential[];
  /** The providers that take merchant credentials and the variables each one's credential consists of. */
  readonly providers: readonly {
    readonly provider: string;
    readonly variables: readonly { readonly name: string; readonly required: boolean; readonly secret: boolean }[];
  }[];
}

/** One tool as the MCP gateway (/mcp) serves it (GET /api/mcp/gateway-tools). */
export interface GatewayToolView {
  readonly name: string;
  readonly description: string;
  readonly kind: 'mcp' | 'built-in' | 'custom';
  readonly server: string | null;
  readonly owner: 'merchant' | 'operator' | null;
  readonly destructive: boolean;
}

/** One MCP server the merchant may use (GET /api/mcp/servers): its own or the operator's. */
export interface McpServerView {
  readonly id: string;
  readonly name: string;
  readonly owner: 'merchant' | 'operator';
  readonly status: string;
  readonly transport: string;
  readonly toolCount: number;
  readonly error?: string;
}

/**
 * The gateway-as-a-platform routes (issue 39): the merchant's provider credentials
 * (api/routes/provider-credentials.ts) and what its MCP gateway serves (api/routes/mcp*.ts).
 */
export function platformApi(http: HttpClient) {
  return {
    credentials: () => http.request<ProviderCredentialList>('GET', '/provider-credentials'),
    /** Values go in once and never come back: the answer names the variables and a hint only. */
    putCredential: (provider: string, name: string, variables: Readonly<Record<string, string>>) =>
      http.request<ProviderCredential>('PUT', `/provider-credentials/${encodeURIComponent(provider)}`, { body: { name, variables } }),
    deleteCredential: (provider: string, name: string) =>
      http.request<unknown>('DELETE', `/provider-credentials/${encodeURIComponent(provider)}`, { query: name === 'default' ? {} : { name } }),
    setOperatorFallback: (allowed: boolean) => http.request<ProviderCredentialList>('PUT', '/provider-credentials', { body: { operator_fallback: allowed } }),
    mcpServers: () => http.request<{ servers: McpServerView[] }>('GET', '/api/mcp/servers'),
    gatewayTools: () => http.request<{ path: string; tools: GatewayToolView[] }>('GET', '/api/mcp/gateway-tools'),
  };
}
