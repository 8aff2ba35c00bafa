import { SwitchyardError } from '../errors/switchyard-error.js';
import { parseEndpointPolicy, type EndpointPolicy } from '../generation/mcp/endpoint-policy.js';
import type { Config } from './load-config.js';

/** Which merchants may use the operator's MCP servers (`.mcp-config.json`). */
export interface OperatorServerAccess {
  /** `*`: every merchant. */
  readonly everyone: boolean;
  readonly merchants: ReadonlySet<string>;
}

/** The service's MCP tenancy settings (docs/toolkit-mcp.md, "MCP per merchant"). */
export interface McpTenancySettings {
  readonly operatorAccess: OperatorServerAccess;
  readonly endpointPolicy: EndpointPolicy;
}

/** `MCP_OPERATOR_SERVERS_MERCHANTS`: `*`, or merchant ids separated by commas; empty = nobody (the default). */
export function parseOperatorServerAccess(value: string | undefined): OperatorServerAccess {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return { everyone: entries.includes('*'), merchants: new Set(entries.filter((entry) => entry !== '*')) };
}

export function mayUseOperatorServers(access: OperatorServerAccess, merchantId: string): boolean {
  return access.everyone || access.merchants.has(merchantId);
}

/** Reads both settings from the config; a malformed `MCP_ALLOW_PRIVATE_ENDPOINTS` fails naming the variable. */
export function mcpTenancySettings(config: Pick<Config, 'mcpOperatorServersMerchants' | 'mcpAllowPrivateEndpoints'>): McpTenancySettings {
  let endpointPolicy: EndpointPolicy;
  try {
    endpointPolicy = parseEndpointPolicy(config.mcpAllowPrivateEndpoints);
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    throw new SwitchyardError('SY_CONFIG_INVALID', { message: `invalid configuration: ${problem}`, details: { problems: [problem] } });
  }
  return { operatorAccess: parseOperatorServerAccess(config.mcpOperatorServersMerchants), endpointPolicy };
}
