import type { GenerationErrorCode } from './ai-provider-error.js';

/** Base of MCP failures: which server (and tool) failed, and why. */
export class MCPError extends Error {
  readonly server: string;
  readonly tool: string | undefined;
  readonly originalError: unknown;
  readonly code: GenerationErrorCode;
  constructor(message: string, server: string, tool?: string, originalError?: unknown, code: GenerationErrorCode = 'MCP_ERROR') {
    super(message, originalError === undefined ? undefined : { cause: originalError });
    this.name = 'MCPError';
    this.server = server;
    this.tool = tool;
    this.originalError = originalError;
    this.code = code;
  }
}

/** The server could not be started, reached or kept alive. */
export class MCPConnectionError extends MCPError {
  constructor(message: string, server: string, originalError?: unknown) {
    super(message, server, undefined, originalError, 'MCP_CONNECTION');
    this.name = 'MCPConnectionError';
  }
}

/** A tool call failed: unknown tool, invalid arguments, the tool's own error, or a timeout. */
export class MCPToolError extends MCPError {
  constructor(message: string, server: string, tool: string, originalError?: unknown) {
    super(message, server, tool, originalError, 'MCP_TOOL');
    this.name = 'MCPToolError';
  }
}

/** A server entry in `.mcp-config.json` (or given to `addMCPServer`) is invalid. */
export class MCPConfigurationError extends MCPError {
  constructor(message: string, server: string, originalError?: unknown) {
    super(message, server, undefined, originalError, 'MCP_CONFIGURATION');
    this.name = 'MCPConfigurationError';
  }
}
