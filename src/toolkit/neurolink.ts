import type { EmbedOptions, EmbedResult } from '../generation/embeddings/embed-options.js';
import type { ProviderDefinition, ProviderOverrides } from '../generation/provider-definition.js';
import { loadToolkitEnv, processWorkingDirectory, type ToolkitEnv } from '../config/load-toolkit-env.js';
import { DeprecationNotice, processDeprecationNotice } from '../generation/deprecation-notice.js';
import { InvalidRequestError } from '../generation/errors/provider-errors.js';
import { UserConfirmationRequiredError } from '../generation/errors/user-confirmation-required-error.js';
import type { GenerateOptions, StreamOptions } from '../generation/generate-options.js';
import type { LlmCallRecorder } from '../generation/llm-call-record.js';
import type { GenerateResult, StreamResult } from '../generation/generate-result.js';
import { GenerationService } from '../generation/generation-service.js';
import { ProviderCalls } from '../generation/provider-calls.js';
import { estimateCallInput, type InputEstimate } from '../generation/input-estimate.js';
import { ConversationMemory, type GenerationCalls } from '../generation/memory/conversation-memory.js';
import {
  readConversationMemorySettings,
  type ConversationMemoryOptions,
  type ConversationMemorySettings,
} from '../generation/memory/conversation-memory-settings.js';
import type { ConversationSnapshot, ConversationStore } from '../ports/state/conversation-store.js';
import type { ConfigUpdateOptions, ConfigUpdateResult } from '../generation/mcp/mcp-config-update.js';
import type { McpServerConfig } from '../generation/mcp/mcp-server-config.js';
import type { McpServers, McpToolResult } from '../generation/mcp/mcp-servers.js';
import type { McpServerInfo, McpStatus } from '../generation/mcp/mcp-status.js';
import type { ProviderCatalog } from '../generation/provider-catalog.js';
import { MerchantCatalogs } from './merchant-catalogs.js';
import { normalizeProviderName, type ProviderName } from '../generation/provider-name.js';
import { selectProvider, type ProviderSelection } from '../generation/select-provider.js';
import type { GenerationTelemetry } from '../generation/telemetry.js';
import type { ToolDefinition } from '../generation/tool-definition.js';
import { permitsTool } from '../generation/tools/tool-permissions.js';
import type { CallAttribution } from '../generation/llm-call-record.js';
import { MerchantMcp, type MerchantMcpDeps } from './merchant-mcp.js';
import { auditedTool } from './tool-audit.js';
import { bindProvider, type AIProvider } from './ai-provider.js';
import { applyExecutionContext, permissionDenied, type ExecutionContext } from './execution-context.js';
import { mcpUsageKey, runBounded, ToolUsageStats } from './tool-usage.js';
import { VERSION } from './version.js';
import { toToolDefinition, type SimpleTool } from './custom-tools.js';
import type { ModelRegistryView } from './model-registry-view.js';
import { createProviderCatalog, type ProviderCatalogOptions } from './provider-catalog.js';
import type { MerchantProviderEnv } from '../credentials/merchant-provider-credentials.js';
import { providerStatuses, type ProviderStatus, type ProviderStatusOptions } from './provider-status.js';
import { defaultBuiltInTools, defaultModelRegistry } from './toolkit-defaults.js';
import type { ToolkitAdapters } from './toolkit-adapters.js';
import { readToolkitSettings, type ToolkitSettings } from './toolkit-settings.js';
import { GuardrailResolver } from '../guardrails/guardrail-resolver.js';
import type { GuardSession } from '../guardrails/guard-session.js';
import type { GuardSettings } from '../guardrails/guard-settings.js';
import { checkToolkitInput, guardToolkitOptions, guardToolkitResult, guardToolkitStream } from './guard-toolkit-call.js';
import { providerGuardChecks } from '../generation/guard-checks.js';
import type { GuardCheckScope, GuardChecks } from '../guardrails/run-guard-checks.js';

export interface NeuroLinkOptions {
  /** Where `.env`, `config/models.json` and `.mcp-config.json` are read, and the file tools' sandbox root. Default: the working directory. */
  readonly cwd?: string;
  /** Use exactly these variables instead of the process environment merged with `<cwd>/.env`. */
  readonly env?: ToolkitEnv;
  /** Test seam: e.g. a `fetch` that reaches a local fake provider. */
  readonly providerOverrides?: ProviderOverrides;
  readonly providerDefinitions?: Readonly<Record<ProviderName, ProviderDefinition>>;
  readonly modelRegistry?: ModelRegistryView;
  /** Replaces the six built-in tools (an empty list turns them off). */
  readonly builtInTools?: readonly ToolDefinition[];
  /**
   * The built-in tools a merchant's call gets instead of `builtInTools` (the service: file tools
   * rooted in that merchant's own directory, so one merchant's model never reads another's files).
   */
  readonly merchantBuiltInTools?: (merchantId: string) => readonly ToolDefinition[];
  /** These MCP servers instead of the working directory's (made by the adapters on first use). */
  readonly mcpManager?: McpServers;
  /** Default: the process telemetry set up by `initializeTelemetry`. */
  readonly telemetry?: GenerationTelemetry;
  /** Where deprecation warnings go (default `console.warn`, once per process). */
  readonly warn?: (message: string) => void;
  /**
   * Receives a record of every model call (provider attempt, stream, judge): usage, cost, latency,
   * outcome, attribution; never prompt or completion text. The service publishes them as `llm.call`.
   */
  readonly onCall?: LlmCallRecorder;
  /**
   * Conversation memory for calls carrying `context.sessionId` (on by default; settings over the
   * `NEUROLINK_MEMORY_*` variables): see docs/toolkit-memory.md.
   */
  readonly conversationMemory?: ConversationMemoryOptions;
  /** Where conversations are kept (the service passes its StateStore's); default: the adapters' in-memory store. */
  readonly conversationStore?: ConversationStore;
  /**
   * Guards every call of this instance adds (issue 38) to the defaults (card numbers masked, which nothing
   * can weaken): PII, credentials, injection heuristics, deny-lists, custom patterns. A call's own
   * `guardrails` option adds more.
   */
  readonly guardrails?: GuardSettings;
  /** Where calls' guard settings come from (the service: one that reads each merchant's settings); default: the defaults and `guardrails`. */
  readonly guardrailResolver?: GuardrailResolver;
  /** Receives each call's guard outcomes (the service publishes them as `guard.applied`); never the matched text. */
  readonly onGuarded?: (session: GuardSession, attribution: CallAttribution | undefined) => void;
}

/** The options without their `guardrails` (the guards have been applied; the generation layer does not take them). */
function withoutGuardrails<T extends GenerateOptions>(options: T): T {
  const { guardrails: _applied, ...rest } = options;
  return rest as T;
}

/** Whose call the asynchronous guards' provider calls are made for (merchant credentials, key budget, request, surface). */
function checkScopeOf(attribution: CallAttribution | undefined): GuardCheckScope {
  return {
    merchantId: attribution?.merchantId,
    apiKeyId: attribution?.apiKeyId,
    requestId: attribution?.requestId,
    surface: attribution?.surface,
  };
}

function isKnownProvider(name: string): boolean {
  const normalized = normalizeProviderName(name);
  return normalized !== undefined && normalized !== 'auto';
}

/**
 * A tool as `getAllAvailableTools` lists it (the interface's ToolInfo). The usage fields count
 * this NeuroLink instance's runs of the tool (direct `executeTool`/`executeMCPTool` and calls by
 * models during generate/stream), in process memory: a new instance starts at zero.
 */
export interface ToolInfo {
  readonly name: string;
  readonly description: string;
  readonly serverId: string;
  readonly category: 'built-in' | 'custom' | 'mcp';
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly requiresConfirmation: boolean;
  /** Built-in tools: the toolkit's version; custom tools: their `metadata.version`; MCP tools: absent (servers do not version tools). */
  readonly version?: string;
  /** How the tool can be used: `direct-execution`, `model-callable`, and `requires-confirmation` when it is gated. */
  readonly capabilities: readonly string[];
  /** When the last run ended (ISO 8601); absent until the tool has run. */
  readonly lastUsed?: string;
  /** Runs that ended, successful or not (each retry counts). */
  readonly usageCount: number;
  /** Mean run time in ms over those runs (0 before the first). */
  readonly averageExecutionTime: number;
}

/**
 * The toolkit's main entry: generate and stream over every provider kind with automatic
 * selection and fallback, built-in, custom and MCP tools, analytics, evaluation and telemetry.
 * Construction reads settings only; nothing connects or spawns until a method needs it.
 */
export class NeuroLink {
  readonly settings: ToolkitSettings;
  readonly env: ToolkitEnv;
  /** The dynamic model registry in use (pricing, defaults, `findBestModel`), when one is loaded. */
  readonly modelRegistry: ModelRegistryView | undefined;
  /**
   * The provider-protocol layer under this toolkit's calls: model calls to resolved candidates with
   * failover, deadlines and `llm.call` records, and the native pass-through. The LLM gateway calls
   * models through it directly, never through the toolkit's options and their defaults.
   */
  readonly providerCalls: ProviderCalls;
  private readonly cwd: string;
  private readonly catalog: ProviderCatalog;
  private readonly service: GenerationService;
  /** The service, behind conversation memory when that is on. */
  private readonly calls: GenerationCalls;
  private readonly memory: ConversationMemory | undefined;
  /** Conversation memory in effect (`enabled: false` when off or no store could be had). */
  readonly conversationMemory: ConversationMemorySettings;
  private readonly customTools = new Map<string, ToolDefinition>();
  private readonly customToolVersions = new Map<string, string>();
  /** Per-instance counts of tool runs behind ToolInfo's usage fields. */
  private readonly toolUsage = new ToolUsageStats();
  private readonly builtIns: readonly ToolDefinition[];
  private readonly merchantBuiltIns: ((merchantId: string) => readonly ToolDefinition[]) | undefined;
  private mcp: McpServers | undefined;
  /** Set by `scopeMcpToMerchants` (the service): a merchant's calls see only its MCP servers. */
  private merchantMcp: MerchantMcp | undefined;
  private readonly adapters: ToolkitAdapters;
  /** Set by `useMerchantProviderCredentials` (the service): the catalogs of merchants' own provider accounts. */
  private merchantCatalogs: MerchantCatalogs | undefined;
  private readonly catalogOptions: Omit<ProviderCatalogOptions, 'env'>;
  private readonly guardrails: {
    readonly resolver: GuardrailResolver;
    readonly settings: GuardSettings | undefined;
    readonly onGuarded: NeuroLinkOptions['onGuarded'];
    /** The moderation and judge guards' provider calls (made only for a policy that has them). */
    readonly checks: GuardChecks;
  };

  /** `adapters`: the infrastructure the toolkit reaches (see ToolkitAdapters); the library's `new NeuroLink()` passes the shipped ones. */
  constructor(options: NeuroLinkOptions, adapters: ToolkitAdapters) {
    this.adapters = adapters;

    this.cwd = options.cwd ?? processWorkingDirectory();
    this.env = options.env ?? loadToolkitEnv({ cwd: this.cwd });
    this.settings = readToolkitSettings(this.env);
    const notice = options.warn !== undefined ? new DeprecationNotice(options.warn, this.settings.suppressDeprecation) : processDeprecationNotice;
    if (options.warn === undefined && this.settings.suppressDeprecation) processDeprecationNotice.suppress(true);
    const registry = options.modelRegistry ?? defaultModelRegistry(this.cwd, adapters.fileSystem);
    this.modelRegistry = registry;
    this.catalogOptions = { definitions: options.providerDefinitions ?? adapters.providerDefinitions, registry, overrides: options.providerOverrides };
    this.catalog = createProviderCatalog({ ...this.catalogOptions, env: this.env });
    this.builtIns = options.builtInTools ?? defaultBuiltInTools(this.cwd, adapters.fileSystem);
    this.merchantBuiltIns = options.merchantBuiltInTools;
    this.mcp = options.mcpManager;
    const recording =
      options.onCall !== undefined
        ? {
            recordCall: options.onCall,
            onRecorderError: (error: unknown) =>
              (options.warn ?? console.warn)(`a call record could not be handed on: ${error instanceof Error ? error.message : String(error)}`),
          }
        : {};
    const pricing = {
      priceOf: (modelId: string) => registry?.getModelConfig(modelId)?.pricing ?? registry?.getEmbeddingPricing?.(modelId),
      env: this.env,
    };
    const telemetry = (): GenerationTelemetry => options.telemetry ?? adapters.processTelemetry();
    this.providerCalls = new ProviderCalls({
      catalog: this.catalog,
      catalogFor: async (merchantId) => this.merchantCatalogs?.scopeOf(merchantId),
      ...pricing,
      maxOutputTokensOf: (modelId) => registry?.getModelConfig(modelId)?.maxOutputTokens,
      telemetry,
      ...recording,
    });
    this.guardrails = {
      resolver: options.guardrailResolver ?? new GuardrailResolver(),
      settings: options.guardrails,
      onGuarded: options.onGuarded,
      checks: providerGuardChecks(this.providerCalls, 'library'),
    };
    this.service = new GenerationService({
      catalog: this.catalog,
      providerCalls: this.providerCalls,
      tools: (attribution) => this.toolsForCall(attribution),
      ...pricing,
      telemetry,
      notice,
      ...(this.settings.defaultProvider !== undefined ? { defaultProvider: this.settings.defaultProvider } : {}),
      evaluation: this.settings.evaluation,
      ...recording,
    });
    const memorySettings = readConversationMemorySettings(this.env, options.conversationMemory);
    const store = memorySettings.enabled ? (options.conversationStore ?? adapters.createConversationStore?.(memorySettings.maxSessions)) : undefined;
    this.conversationMemory = store === undefined ? { ...memorySettings, enabled: false } : memorySettings;
    this.memory =
      store === undefined ? undefined : new ConversationMemory(this.service, { store, settings: memorySettings, warn: options.warn ?? console.warn });
    this.calls = this.memory ?? this.service;
  }

  /** Generates text; without `provider`, walks the configured providers in order on retryable failures. */
  async generate(options: GenerateOptions | string): Promise<GenerateResult> {
    const { session, guarded, attribution } = await this.guardCall(options);
    try {
      return guardToolkitResult(await this.calls.generate(guarded), session);
    } finally {
      this.guardrails.onGuarded?.(session, attribution);
    }
  }

  /**
   * The input stage of a call (issue 38): its guard session (defaults, the merchant's and key's settings,
   * this instance's, the call's own) and its options with every text guarded; a blocking guard throws
   * `GuardrailBlocked` here, before any provider call.
   */
  private async guardCall<T extends GenerateOptions>(
    options: T | string,
  ): Promise<{ session: GuardSession; guarded: T | string; attribution: CallAttribution | undefined }> {
    const attribution = typeof options === 'string' ? undefined : options.attribution;
    const own = typeof options === 'string' ? undefined : options.guardrails;
    const session = await this.guardrails.resolver.sessionFor({
      merchantId: attribution?.merchantId,
      apiKeyId: attribution?.apiKeyId,
      extra: [this.guardrails.settings, own],
    });
    const plain = typeof options === 'string' || own === undefined ? options : withoutGuardrails(options);
    const checks = { checks: this.guardrails.checks, scope: checkScopeOf(attribution) };
    try {
      const guarded = guardToolkitOptions(plain, session, checks);
      // Moderation and the judge are provider calls: awaited only when the call's policy has them.
      if (session.policy.checksAsync) await checkToolkitInput(session, checks);
      return { session, guarded, attribution };
    } catch (error) {
      this.guardrails.onGuarded?.(session, attribution);
      throw error;
    }
  }

  /**
   * Embeds one text or several (`/v1/embeddings`): one vector per text, in order. Without a
   * provider, the configured providers that have embeddings are tried in auto order.
   */
  embed(options: EmbedOptions): Promise<EmbedResult> {
    return this.service.embed(options);
  }

  /** Alias of `generate`. */
  gen(options: GenerateOptions | string): Promise<GenerateResult> {
    return this.generate(options);
  }

  /** Streams text; the provider may change only before the first chunk. */
  async stream(options: StreamOptions | string): Promise<StreamResult> {
    const { session, guarded, attribution } = await this.guardCall(options);
    const result = guardToolkitStream(await this.calls.stream(guarded), session);
    // Evidence once the stream has ended (or failed): its streamed-output outcomes are known then.
    void result.final.then(
      () => this.guardrails.onGuarded?.(session, attribution),
      () => this.guardrails.onGuarded?.(session, attribution),
    );
    return result;
  }

  /** The models a call naming `provider` and `model` (either may be absent) can be answered by (see GenerationService). */
  candidateModels(options: { readonly provider?: string | undefined; readonly model?: string | undefined }): string[] {
    return this.service.candidateModels(options);
  }

  /**
   * What a generate/stream call will send, before it is made (for a budget reservation): the
   * prompt, the session's remembered history and summarising call, the documents' text, and the
   * definitions of the tools it will offer the model (the call's own, the toolkit's for its
   * merchant, less what `disableTools` or `context.permissions` leave out).
   */
  async estimateInput(options: GenerateOptions): Promise<InputEstimate> {
    return estimateCallInput(options, this.memory, options.disableTools === true ? [] : await this.toolsForCall(options.attribution));
  }

  /** What conversation memory holds for a session of this process's own calls (no merchant); empty when memory is off. */
  async getConversationHistory(sessionId: string): Promise<ConversationSnapshot> {
    return this.memory === undefined ? { turns: [] } : this.memory.read({ merchantId: '', sessionId });
  }

  /** Forgets a session of this process's own calls; false when there was none (or memory is off). */
  async clearConversationSession(sessionId: string): Promise<boolean> {
    return this.memory === undefined ? false : this.memory.clear({ merchantId: '', sessionId });
  }

  /** @deprecated Legacy form (`prompt`); use `generate`. The result also carries `text`. */
  async generateText(options: GenerateOptions | string): Promise<GenerateResult & { readonly text: string }> {
    const result = await this.generate(options);
    return { ...result, text: result.content };
  }

  /** @deprecated Legacy form: yields plain strings; use `stream`. */
  async *streamText(prompt: string, options: Omit<StreamOptions, 'input' | 'prompt'> = {}): AsyncIterable<string> {
    const result = await this.stream({ ...options, input: { text: prompt } });
    for await (const chunk of result.stream) yield chunk.content;
  }

  /** An `AIProvider` pinned to one provider (ConfigurationError naming the variable when it is not configured). */
  createProvider(name: string, model?: string): AIProvider {
    const selection = this.getProviderSelection(name);
    return bindProvider(this.calls, selection.provider, model);
  }

  registerTool(name: string, tool: SimpleTool | ToolDefinition): void {
    this.customTools.set(name, toToolDefinition(name, tool));
    this.noteCustomVersion(name, tool);
  }

  registerTools(
    tools: Readonly<Record<string, SimpleTool | ToolDefinition>> | readonly { readonly name: string; readonly tool: SimpleTool | ToolDefinition }[],
  ): void {
    const entries = Array.isArray(tools) ? tools.map((entry) => [entry.name, entry.tool] as const) : Object.entries(tools);
    const converted = entries.map(([name, tool]) => toToolDefinition(name, tool));
    for (const tool of converted) this.customTools.set(tool.name, tool);
    for (const [name, tool] of entries) this.noteCustomVersion(name, tool);
  }

  unregisterTool(name: string): boolean {
    this.customToolVersions.delete(name);
    return this.customTools.delete(name);
  }

  private noteCustomVersion(name: string, tool: SimpleTool | ToolDefinition): void {
    const version = 'metadata' in tool ? tool.metadata?.version : undefined;
    if (typeof version === 'string') this.customToolVersions.set(name, version);
    else this.customToolVersions.delete(name);
  }

  getCustomTools(): ReadonlyMap<string, ToolDefinition> {
    return new Map(this.customTools);
  }

  /**
   * Runs a tool directly (custom, built-in, then MCP). A tool flagged `requiresConfirmation`
   * (e.g. writeFile) runs only with `{ confirm: true }`; otherwise `UserConfirmationRequiredError`.
   * `context` (ExecutionContext) bounds and attributes the run: timeout, retries, permissions,
   * ids handed to the tool; fields that cannot apply are refused (see execution-context.ts).
   */
  async executeTool(
    name: string,
    params: Readonly<Record<string, unknown>> = {},
    options: { readonly confirm?: boolean; readonly signal?: AbortSignal; readonly context?: ExecutionContext } = {},
  ): Promise<unknown> {
    const applied = applyExecutionContext(options.context);
    const custom = this.customTools.get(name);
    const builtIn = custom === undefined ? this.builtIns.find((tool) => tool.name === name) : undefined;
    const local = custom ?? builtIn;
    const tool = local ?? (this.mcp !== undefined ? (await this.mcp.listTools()).find((candidate) => candidate.name === name) : undefined);
    if (tool === undefined) throw new InvalidRequestError(`no tool named "${name}"`, 'toolkit', 'name');
    const category = custom !== undefined ? 'custom' : builtIn !== undefined ? 'built-in' : 'mcp';
    const permissions = options.context?.permissions;
    if (!permitsTool(permissions, { name, category, serverId: tool.source })) throw permissionDenied(name, permissions ?? []);
    if (tool.requiresConfirmation === true && options.confirm !== true) throw new UserConfirmationRequiredError(name);
    const key = category === 'mcp' ? mcpUsageKey(tool.source, name) : `${category}:${name}`;
    return runBounded(
      `tool "${name}"`,
      {
        retries: applied.retries,
        ...(applied.timeoutMs !== undefined ? { timeoutMs: applied.timeoutMs } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (signal) =>
        this.toolUsage.time(key, () =>
          tool.execute(params, {
            toolCallId: `direct-${crypto.randomUUID()}`,
            ...(signal !== undefined ? { abortSignal: signal } : {}),
            ...(options.confirm === true ? { confirmedTools: new Set([name]) } : {}),
            ...(applied.identity !== undefined ? { execution: applied.identity } : {}),
          }),
        ),
      (result) => typeof result === 'object' && result !== null && (result as { success?: unknown }).success === false,
    );
  }

  async getAllAvailableTools(): Promise<ToolInfo[]> {
    const describe = (tool: ToolDefinition, category: ToolInfo['category']): ToolInfo => {
      const usage = this.toolUsage.get(category === 'mcp' ? mcpUsageKey(tool.source, tool.name) : `${category}:${tool.name}`);
      const version = category === 'built-in' ? VERSION : category === 'custom' ? this.customToolVersions.get(tool.name) : undefined;
      return {
        name: tool.name,
        description: tool.description,
        serverId: category === 'mcp' ? tool.source : category === 'built-in' ? 'switchyard-built-in' : `custom-tool-${tool.name}`,
        category,
        parameters: tool.inputSchema,
        requiresConfirmation: tool.requiresConfirmation === true,
        ...(version !== undefined ? { version } : {}),
        capabilities: ['direct-execution', 'model-callable', ...(tool.requiresConfirmation === true ? ['requires-confirmation'] : [])],
        ...(usage?.lastUsed !== undefined ? { lastUsed: usage.lastUsed } : {}),
        usageCount: usage?.usageCount ?? 0,
        averageExecutionTime: usage?.averageExecutionTime ?? 0,
      };
    };
    const mcpTools = this.mcp !== undefined ? await this.mcp.listTools() : [];
    return [
      ...this.builtIns.map((tool) => describe(tool, 'built-in')),
      ...[...this.customTools.values()].map((tool) => describe(tool, 'custom')),
      ...mcpTools.map((tool) => describe(tool, 'mcp')),
    ];
  }

  /**
   * Calls one tool of one MCP server (the HTTP `/api/mcp/execute` and the CLI `mcp execute` use
   * this): over the MCP protocol only, never a shell. Unknown server or tool → MCP error naming it.
   * `context` (ExecutionContext): `timeout` is the tool-call timeout (unless `timeoutMs` is given),
   * `retries` re-runs a failed call, `permissions` must allow `mcp:<serverId>` or the tool, and the
   * ids go to the server as the request's `_meta`; inapplicable fields are refused.
   */
  async executeMCPTool(
    serverId: string,
    toolName: string,
    params: Readonly<Record<string, unknown>> = {},
    options: { readonly signal?: AbortSignal; readonly timeoutMs?: number; readonly context?: ExecutionContext } = {},
  ): Promise<McpToolResult> {
    const applied = applyExecutionContext(options.context);
    const permissions = options.context?.permissions;
    if (!permitsTool(permissions, { name: toolName, category: 'mcp', serverId })) throw permissionDenied(toolName, permissions ?? []);
    const manager = this.mcpManager();
    const timeoutMs = options.timeoutMs ?? applied.timeoutMs;
    return runBounded(
      `MCP tool "${toolName}" on "${serverId}"`,
      { retries: applied.retries, ...(options.signal ? { signal: options.signal } : {}) },
      (signal) =>
        this.toolUsage.time(`mcp:${serverId}/${toolName}`, () =>
          manager.executeTool(serverId, toolName, params, {
            ...(signal !== undefined ? { signal } : {}),
            ...(timeoutMs !== undefined ? { timeoutMs } : {}),
            ...(applied.identity !== undefined ? { meta: applied.identity } : {}),
          }),
        ),
    );
  }

  /**
   * Updates `<cwd>/.mcp-config.json` (the interface's ConfigUpdateOptions: `createBackup`,
   * `validateBeforeUpdate`, `mergeStrategy` replace|merge|deep-merge, `backupRetention`,
   * `callbacks`) and reloads it; `loadMCPConfig()` then connects what it enables.
   */
  updateMCPConfig(update: Readonly<Record<string, unknown>>, options: ConfigUpdateOptions = {}): Promise<ConfigUpdateResult> {
    return this.mcpManager().updateConfig(update, options);
  }

  /** Adds and connects an MCP server for this process (`persist: true` also writes `.mcp-config.json`). */
  async addMCPServer(serverId: string, config: McpServerConfig, options: { readonly persist?: boolean } = {}): Promise<void> {
    await this.mcpManager().addServer(serverId, config, { persist: options.persist ?? false });
  }

  async removeMCPServer(serverId: string, options: { readonly persist?: boolean } = {}): Promise<void> {
    await this.mcpManager().removeServer(serverId, { persist: options.persist ?? false });
  }

  /** Reads `<cwd>/.mcp-config.json` and connects its enabled servers (explicit: nothing is spawned implicitly). */
  async loadMCPConfig(): Promise<{ readonly connected: readonly string[]; readonly failed: readonly { readonly id: string; readonly error: string }[] }> {
    await this.mcpManager().loadConfig();
    return this.mcpManager().connectAll();
  }

  getMCPStatus(): McpStatus & { readonly customToolsCount: number } {
    const status = this.mcpManager().getStatus();
    return { ...status, customToolsCount: this.customTools.size };
  }

  listMCPServers(): McpServerInfo[] {
    return this.mcpManager().listServers();
  }

  /** Settings-only status of every provider; `{ probe: true }` makes a 1-token call to each configured one. */
  getProviderStatus(options: ProviderStatusOptions = {}): Promise<ProviderStatus[]> {
    return providerStatuses(this.catalog, options);
  }

  /** Which provider a call without `provider` would use, and why (offline, deterministic). */
  getProviderSelection(requested?: string): ProviderSelection {
    const name = requested === undefined ? undefined : normalizeProviderName(requested);
    if (requested !== undefined && name === undefined) throw new InvalidRequestError(`provider names no known provider: "${requested}"`, 'toolkit', 'provider');
    return selectProvider(this.catalog, name, this.settings.defaultProvider);
  }

  async getBestProvider(requested?: string): Promise<ProviderName> {
    return this.getProviderSelection(requested).provider;
  }

  async getAvailableProviders(): Promise<ProviderName[]> {
    return this.catalog.names.filter((name) => this.catalog.isConfigured(name));
  }

  isValidProvider(name: string): boolean {
    return isKnownProvider(name);
  }

  /** Closes MCP connections. */
  async close(): Promise<void> {
    await this.merchantMcp?.close();
    await this.mcp?.close();
  }

  private mcpManager(): McpServers {
    this.mcp ??= this.adapters.createMcpServers(this.cwd);
    return this.mcp;
  }

  /**
   * Scopes MCP per merchant (the service's composition does this once): a call attributed to a
   * merchant is offered only that merchant's registered servers' tools plus the operator's when
   * the operator allows it, and every tool it runs is recorded; calls without a merchant (the
   * library, the CLI) still see every server. Returns the use case behind /api/mcp/*.
   */
  /**
   * Merchants' own provider credentials (the service's, src/credentials/): a merchant's calls use
   * its stored variables over the operator's environment, or, when it forbade the operator's, over
   * the operator's environment without its credentials.
   */
  useMerchantProviderCredentials(envOf: (merchantId: string) => Promise<MerchantProviderEnv | undefined>): void {
    this.merchantCatalogs = new MerchantCatalogs(envOf, this.env, this.catalogOptions);
  }

  scopeMcpToMerchants(deps: Omit<MerchantMcpDeps, 'operator' | 'executeOperatorTool' | 'createServers' | 'resolveHost'>): MerchantMcp {
    const createServers = this.adapters.createMerchantMcpServers?.bind(this.adapters);
    const scoped = new MerchantMcp({
      ...deps,
      operator: () => this.mcpManager(),
      executeOperatorTool: (serverId, toolName, params, options) => this.executeMCPTool(serverId, toolName, params, options),
      ...(createServers !== undefined ? { createServers } : {}),
      ...(this.adapters.resolveHost !== undefined ? { resolveHost: this.adapters.resolveHost } : {}),
    });
    this.merchantMcp = scoped;
    return scoped;
  }

  /** The tools offered to a model call, each run counted for ToolInfo's usage fields. */
  private async toolsForCall(attribution?: CallAttribution): Promise<readonly ToolDefinition[]> {
    const merchantId = attribution?.merchantId;
    if (this.merchantMcp !== undefined && attribution !== undefined && merchantId !== undefined && merchantId !== '') {
      return this.merchantToolsForCall(this.merchantMcp, { ...attribution, merchantId });
    }
    const mcpTools = this.mcp !== undefined ? await this.mcp.listTools() : [];
    return [
      ...[...this.customTools.values()].map((tool) => this.toolUsage.counting(tool, `custom:${tool.name}`)),
      ...this.builtInsFor(merchantId).map((tool) => this.toolUsage.counting(tool, `built-in:${tool.name}`)),
      ...mcpTools.map((tool) => this.toolUsage.counting(tool, mcpUsageKey(tool.source, tool.name))),
    ];
  }

  /**
   * The tools of a merchant that are not on an MCP server: the built-in ones (the merchant's own
   * when the service set them) and the custom ones registered on this toolkit, each run counted
   * for ToolInfo's usage fields. The MCP gateway (src/toolkit/mcp-gateway.ts) serves them.
   */
  localToolsFor(merchantId: string): readonly { readonly tool: ToolDefinition; readonly category: 'built-in' | 'custom' }[] {
    return [
      ...this.builtInsFor(merchantId).map((tool) => ({ tool: this.toolUsage.counting(tool, `built-in:${tool.name}`), category: 'built-in' as const })),
      ...[...this.customTools.values()].map((tool) => ({ tool: this.toolUsage.counting(tool, `custom:${tool.name}`), category: 'custom' as const })),
    ];
  }

  /** The built-in tools of a call: a merchant's own when the service set them, else the shared ones. */
  private builtInsFor(merchantId: string | undefined): readonly ToolDefinition[] {
    return merchantId !== undefined && merchantId !== '' && this.merchantBuiltIns !== undefined ? this.merchantBuiltIns(merchantId) : this.builtIns;
  }

  /** A merchant's call: built-in and custom tools, its own and allowed operator MCP tools; every run audited. */
  private async merchantToolsForCall(scope: MerchantMcp, attribution: CallAttribution & { readonly merchantId: string }): Promise<readonly ToolDefinition[]> {
    const recorder = scope.toolRunRecorder;
    const audit = (tool: ToolDefinition, category: 'mcp' | 'built-in' | 'custom', owner: 'merchant' | 'operator' | null): ToolDefinition =>
      recorder === undefined ? tool : auditedTool(tool, { category, owner, serverId: category === 'mcp' ? tool.source : null }, attribution, recorder);
    const mcpTools = await scope.toolsFor(attribution.merchantId);
    return [
      ...[...this.customTools.values()].map((tool) => audit(this.toolUsage.counting(tool, `custom:${tool.name}`), 'custom', null)),
      ...this.builtInsFor(attribution.merchantId).map((tool) => audit(this.toolUsage.counting(tool, `built-in:${tool.name}`), 'built-in', null)),
      ...mcpTools.map(({ tool, owner }) => audit(this.toolUsage.counting(tool, mcpUsageKey(tool.source, tool.name)), 'mcp', owner)),
    ];
  }
}
