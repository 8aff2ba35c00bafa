/**
 * The Switchyard generation toolkit as a library (`import { NeuroLink } from 'switchyard'`):
 * a NeuroLink-compatible surface over eleven provider kinds plus `openai-compatible`.
 */
export { DefaultNeuroLink as NeuroLink } from './adapters/toolkit/default-neurolink.js';
export type { NeuroLinkOptions, ToolInfo } from './toolkit/neurolink.js';
export type { ExecutionContext } from './toolkit/execution-context.js';
export type { ConfigMergeStrategy, ConfigUpdateOptions, ConfigUpdateResult, ConfigValidationProblem } from './generation/mcp/mcp-config-update.js';
export {
  AIProviderFactory,
  createAIProvider,
  createAIProviderWithFallback,
  createBestAIProvider,
  getAvailableProviders,
  getBestProvider,
  isValidProvider,
  type ProviderRequest,
} from './adapters/toolkit/provider-factories.js';
export type { AIProvider } from './toolkit/ai-provider.js';
export {
  getTelemetryStatus,
  initializeTelemetry,
  shutdownTelemetry,
  type TelemetryConfig,
  type TelemetryResult,
  type TelemetryStatus,
} from './adapters/telemetry/telemetry-api.js';
export type { ProviderStatus, ProviderStatusOptions } from './toolkit/provider-status.js';
export { createTool, validateTool, type SimpleTool } from './generation/tools/create-tool.js';
export { builtInToolNames } from './generation/tools/built-in-tools.js';
// The file-reaching entry points bound to node:fs (the domain's take the FileSystem port).
export {
  createDefaultBuiltInTools as createBuiltInTools,
  loadDefaultModelRegistryFromDisk as loadDefaultModelRegistry,
  type DefaultBuiltInToolsOptions as BuiltInToolsOptions,
} from './adapters/toolkit/default-local-files.js';
export type { FileSystem } from './ports/file-system.js';
export type { ModelRegistryView } from './toolkit/model-registry-view.js';
export { DynamicModelRegistry } from './generation/models/dynamic-model-registry.js';
export type {
  DynamicModelOptions,
  ModelConfig,
  ModelPricing,
  ModelResolutionResult,
  ModelSearchOptions,
  ToolSupport,
} from './generation/models/model-config.js';
export type { DocumentMimeType, FileInput } from './generation/documents/document-input.js';
export { VERSION } from './toolkit/version.js';

export { AIProviderError, type GenerationErrorCode } from './generation/errors/ai-provider-error.js';
export {
  AuthenticationError,
  ConfigurationError,
  InvalidRequestError,
  QuotaExceededError,
  RateLimitError,
  TimeoutError,
} from './generation/errors/provider-errors.js';
export { MCPConfigurationError, MCPConnectionError, MCPError, MCPToolError } from './generation/errors/mcp-errors.js';
export { UserConfirmationRequiredError } from './generation/errors/user-confirmation-required-error.js';

export { providerNames, type AIProviderName, type ProviderName } from './generation/provider-name.js';
export { parseTimeout } from './generation/parse-timeout.js';
export type { ConversationTurn, EvaluationOptions, GenerateOptions, OutputSchema, StreamOptions } from './generation/generate-options.js';
export type { CallControls, ReasoningLevel, ToolChoice } from './generation/call-controls.js';
export type { EmbedOptions, EmbedResult } from './generation/embeddings/embed-options.js';
export type {
  AlertLevel,
  AnalyticsData,
  EvaluationData,
  GenerateResult,
  ProviderAttempt,
  StreamChunk,
  StreamResult,
  ToolCallData,
  ToolExecutionData,
  ToolResultData,
  UsageData,
} from './generation/generate-result.js';
export type { ProviderSelection } from './generation/select-provider.js';
export type { JsonSchema, ToolCallContext, ToolDefinition } from './generation/tool-definition.js';
export type { McpServerConfig } from './generation/mcp/mcp-server-config.js';
export type { McpServerInfo, McpStatus } from './generation/mcp/mcp-status.js';
export { NeuroLinkWebSocketServer, type ChatIdentity, type StreamingChannel, type WebSocketOptions } from './adapters/websocket/neurolink-websocket-server.js';
export type { ChatMessage, ChatMessageType } from './generation/chat/chat-protocol.js';
export {
  createEnhancedChatService,
  type EnhancedChatService,
  type EnhancedChatServiceOptions,
  type StreamChatRequest,
} from './toolkit/enhanced-chat-service.js';
