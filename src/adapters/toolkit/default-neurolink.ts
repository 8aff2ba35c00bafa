import type { NeuroLinkOptions } from '../../toolkit/neurolink.js';
import { NeuroLink } from '../../toolkit/neurolink.js';
import type { ToolkitAdapters } from '../../toolkit/toolkit-adapters.js';
import { nodeFileSystem } from '../fs/node-file-system.js';
import { providerDefinitions } from '../llm/provider-registry.js';
import { guardedFetch, resolveHostAddresses } from '../mcp/guarded-fetch.js';
import { McpManager } from '../mcp/mcp-manager.js';
import { createMemoryConversationStore } from '../memory/memory-conversation-store.js';
import { currentTelemetry } from '../telemetry/telemetry-api.js';
import { systemClock } from '../../time/clock.js';

/** The shipped adapters: the AI SDK providers (and SageMaker), the MCP SDK, the process's OpenTelemetry setup, node:fs. */
export const defaultToolkitAdapters: ToolkitAdapters = {
  providerDefinitions,
  createMcpServers: (cwd) => new McpManager({ cwd }),
  // A merchant's servers: nothing read from disk, no variables expanded into headers, the guarded fetch.
  createMerchantMcpServers: (policy) => new McpManager({ configPath: '/dev/null/merchant-mcp-has-no-file', env: {}, fetch: guardedFetch(policy) }),
  resolveHost: resolveHostAddresses,
  processTelemetry: currentTelemetry,
  fileSystem: nodeFileSystem,
  // Each toolkit gets a store of its own: conversations of one `new NeuroLink()` are not another's.
  createConversationStore: (maxSessions) => createMemoryConversationStore({ maxSessions, clock: systemClock }),
};

/**
 * The library's `new NeuroLink(options?)`: the toolkit over the shipped adapters. This file is the
 * library's composition root, as `cli/` is the service's; `src/index.ts` exports it as `NeuroLink`.
 */
export class DefaultNeuroLink extends NeuroLink {
  constructor(options: NeuroLinkOptions = {}) {
    super(options, defaultToolkitAdapters);
  }
}
