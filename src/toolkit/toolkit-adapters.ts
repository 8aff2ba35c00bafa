import type { EndpointPolicy, ResolveHost } from '../generation/mcp/endpoint-policy.js';
import type { McpServers } from '../generation/mcp/mcp-servers.js';
import type { ConversationStore } from '../ports/state/conversation-store.js';
import type { FileSystem } from '../ports/file-system.js';
import type { ProviderDefinition } from '../generation/provider-definition.js';
import type { ProviderName } from '../generation/provider-name.js';
import type { GenerationTelemetry } from '../generation/telemetry.js';

/**
 * What `NeuroLink` is built over: the infrastructure it reaches, handed in by a composition root
 * (`cli/create-toolkit.ts` for the service, `src/adapters/toolkit/default-neurolink.ts` for the
 * library's `new NeuroLink()`), so the toolkit itself constructs no adapter.
 */
export interface ToolkitAdapters {
  /** Every provider kind: its variables and how a client is made (the AI SDK providers, SageMaker). */
  readonly providerDefinitions: Readonly<Record<ProviderName, ProviderDefinition>>;
  /** The MCP servers of a working directory; made on first use, so a toolkit without MCP spawns nothing. */
  createMcpServers(cwd: string): McpServers;
  /**
   * The MCP servers of one merchant (no config file, no `${VAR}` expansion, HTTP/SSE through a
   * fetch that refuses what `policy` refuses, checked again after DNS at connect time).
   */
  createMerchantMcpServers?(policy: EndpointPolicy): McpServers;
  /** Resolves a host name to every address (the registration-time SSRF check). */
  readonly resolveHost?: ResolveHost;
  /** The process telemetry at call time (`initializeTelemetry`'s), used when the options give none. */
  processTelemetry(): GenerationTelemetry;
  /** Local files: the default built-in file tools' sandbox and `<cwd>/config/models.json` (unless the options replace them). */
  readonly fileSystem: FileSystem;
  /** Conversation memory's store when the options give none (the library's: in process memory, at most `maxSessions` sessions). */
  createConversationStore?(maxSessions: number): ConversationStore;
}
