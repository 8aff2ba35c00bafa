import type { Config } from '../src/config/load-config.js';
import { mcpTenancySettings } from '../src/config/mcp-settings.js';
import { mcpToolsChangedKey } from '../src/toolkit/mcp-gateway.js';
import { toolRunPublisher } from '../src/toolkit/publish-tool-runs.js';
import type { MerchantMcp } from '../src/toolkit/merchant-mcp.js';
import type { AppDeps } from './app-deps.js';

/**
 * The MCP tenancy of the app's toolkit (docs/toolkit-mcp.md, "MCP per merchant"): registrations in
 * the StateStore's ConfigStore, the operator's allow-list and SSRF policy from the config, every
 * tool run published as `tool.executed`, every change of a merchant's servers told to every replica
 * (the MCP gateway's `tools/list_changed`). Connects nothing: a merchant's servers connect on first use.
 */
export function merchantMcpOf(config: Config, deps: Pick<AppDeps, 'toolkit' | 'state' | 'bus' | 'logger' | 'clock'>): MerchantMcp {
  const settings = mcpTenancySettings(config);
  const now = () => deps.clock.now();
  return deps.toolkit.scopeMcpToMerchants({
    configs: deps.state.configs,
    operatorAccess: settings.operatorAccess,
    endpointPolicy: settings.endpointPolicy,
    recordToolRun: toolRunPublisher(deps.bus, { logger: deps.logger, now }),
    onServersChanged: (merchantId) => {
      deps.state.publishInvalidation(mcpToolsChangedKey(merchantId)).catch((error: unknown) => {
        deps.logger.warn({ err: error, merchantId }, 'mcp servers change not published: open MCP gateway sessions miss tools/list_changed');
      });
    },
    now,
  });
}
