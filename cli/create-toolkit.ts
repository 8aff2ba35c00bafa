import type { Logger as PinoLogger } from 'pino';
import type { ProviderOverrides } from '../src/adapters/llm/provider-definition.js';
import type { ToolkitEnv } from '../src/config/load-toolkit-env.js';
import type { LlmCallRecorder } from '../src/generation/llm-call-record.js';
import { loadDefaultModelRegistry, type DynamicModelRegistry } from '../src/generation/models/dynamic-model-registry.js';
import { NeuroLink } from '../src/toolkit/neurolink.js';

export interface ToolkitWiring {
  readonly logger: PinoLogger;
  /** Where `.env`, `config/models.json` and `.mcp-config.json` are read (default: the working directory). */
  readonly cwd?: string;
  /** Exact variables instead of the process environment merged with `<cwd>/.env` (tests). */
  readonly env?: ToolkitEnv;
  readonly providerOverrides?: ProviderOverrides;
  /** Where every model call's record goes (the `llm.call` publisher). */
  readonly onCall?: LlmCallRecorder;
}

export interface Toolkit {
  readonly toolkit: NeuroLink;
  readonly models: DynamicModelRegistry;
}

/**
 * The one place a process makes its generation toolkit (the API, the generation worker, the CLI):
 * one model registry shared by the toolkit's pricing and the /models routes, deprecation notices
 * to the log, call records to `onCall`.
 */
export function createToolkit(wiring: ToolkitWiring): Toolkit {
  const cwd = wiring.cwd ?? process.cwd();
  const models = loadDefaultModelRegistry(cwd);
  const toolkit = new NeuroLink({
    cwd,
    modelRegistry: models,
    ...(wiring.env !== undefined ? { env: wiring.env } : {}),
    ...(wiring.providerOverrides !== undefined ? { providerOverrides: wiring.providerOverrides } : {}),
    ...(wiring.onCall !== undefined ? { onCall: wiring.onCall } : {}),
    warn: (notice) => wiring.logger.warn({ notice }, 'toolkit deprecation notice'),
  });
  return { toolkit, models };
}
