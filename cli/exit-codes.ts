import { AIProviderError } from '../src/generation/errors/ai-provider-error.js';
import { MCPConfigurationError, MCPError } from '../src/generation/errors/mcp-errors.js';
import { UserConfirmationRequiredError } from '../src/generation/errors/user-confirmation-required-error.js';
import { SwitchyardError } from '../src/errors/switchyard-error.js';

/**
 * Exit codes of `switchyard`, so scripts can tell what to fix: the command line (2), the setup —
 * settings, credentials, MCP configuration (3) — or the provider / network (4, 5 for a timeout).
 */
export const exitCodes = {
  ok: 0,
  failure: 1,
  usage: 2,
  configuration: 3,
  provider: 4,
  timeout: 5,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** A command-line mistake found by a command itself (commander finds the rest). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A command that printed its own report and only needs to end with `code` (e.g. a failed `mcp test`). */
export class ExitWith extends Error {
  constructor(readonly code: ExitCode) {
    super(`exit ${code}`);
    this.name = 'ExitWith';
  }
}

export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof ExitWith) return error.code;
  if (error instanceof UsageError) return exitCodes.usage;
  if (error instanceof UserConfirmationRequiredError) return exitCodes.usage;
  if (error instanceof MCPConfigurationError) return exitCodes.configuration;
  if (error instanceof MCPError) return exitCodes.provider;
  if (error instanceof AIProviderError) {
    switch (error.code) {
      case 'INVALID_REQUEST':
        return error.statusCode === undefined ? exitCodes.usage : exitCodes.provider;
      case 'CONFIGURATION':
      case 'AUTHENTICATION':
        return exitCodes.configuration;
      case 'TIMEOUT':
        return exitCodes.timeout;
      default:
        return exitCodes.provider;
    }
  }
  if (SwitchyardError.isInstance(error)) return error.code === 'SY_CONFIG_INVALID' ? exitCodes.configuration : exitCodes.failure;
  return exitCodes.failure;
}
