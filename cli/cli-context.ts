import pino, { type Logger as PinoLogger } from 'pino';
import { loadToolkitEnv } from '../src/config/load-toolkit-env.js';
import { loadConfig, type Config } from '../src/config/load-config.js';
import type { DynamicModelRegistry } from '../src/generation/models/dynamic-model-registry.js';
import type { NeuroLink } from '../src/toolkit/neurolink.js';
import { createLogger } from './create-logger.js';
import type { ProcessTelemetry } from '../src/adapters/telemetry/process-telemetry.js';
import type { CliIo } from './io.js';

/**
 * What commands share: the io, and the config, logger and toolkit made on first use (a `--help`
 * or a usage error builds none of them, nor loads their code: see program.ts). Command-line tools
 * log only warnings, to standard error.
 */
export class CliContext {
  private cachedConfig: Config | undefined;
  private cachedToolkit: Promise<{ toolkit: NeuroLink; models: DynamicModelRegistry }> | undefined;
  /** `null`: looked at, and the environment did not ask for OpenTelemetry. */
  private telemetry: ProcessTelemetry | null | undefined;

  private mcpLoad: ReturnType<NeuroLink['loadMCPConfig']> | undefined;

  /** Set by a long-running command (serve, worker, models serve): the process stays up after the action. */
  keepRunning = false;

  constructor(readonly io: CliIo) {}

  get config(): Config {
    this.cachedConfig ??= loadConfig(this.io.env);
    return this.cachedConfig;
  }

  /** For the long-running commands (serve, worker): the service logger on standard output. */
  serviceLogger(): PinoLogger {
    return createLogger(this.config);
  }

  /** For one-shot commands: warnings and errors only, on standard error. */
  quietLogger(): PinoLogger {
    return pino({ level: this.io.env['LOG_LEVEL'] === 'debug' ? 'debug' : 'warn' }, pino.destination(2));
  }

  toolkit(): Promise<{ toolkit: NeuroLink; models: DynamicModelRegistry }> {
    this.cachedToolkit ??= this.createToolkit();
    return this.cachedToolkit;
  }

  private async createToolkit(): Promise<{ toolkit: NeuroLink; models: DynamicModelRegistry }> {
    const [{ startTelemetry }, { createToolkit }] = await Promise.all([import('./start-telemetry.js'), import('./create-toolkit.js')]);
    // One-shot commands (generate, stream, batch, …) export their model calls when OTEL_* ask for it.
    this.telemetry ??= (await startTelemetry(this.config, 'switchyard-cli', this.quietLogger())) ?? null;
    return createToolkit({ logger: this.quietLogger(), cwd: this.io.cwd, env: loadToolkitEnv({ cwd: this.io.cwd, processEnv: this.io.env }) });
  }

  /**
   * Connects the servers of `<cwd>/.mcp-config.json` on this run's toolkit, once (the same file the
   * `mcp` commands edit and `serve` loads): a server that fails is reported, not fatal; a malformed
   * file throws MCPConfigurationError (exit 3).
   */
  loadMcpServers(): ReturnType<NeuroLink['loadMCPConfig']> {
    this.mcpLoad ??= this.toolkit().then(({ toolkit }) => toolkit.loadMCPConfig());
    return this.mcpLoad;
  }

  async close(): Promise<void> {
    // A toolkit that failed to build has been reported by the command already; nothing to close.
    const built = await this.cachedToolkit?.catch(() => undefined);
    await built?.toolkit.close();
    await this.telemetry?.shutdown();
  }
}
