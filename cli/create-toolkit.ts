import { nodeFileSystem } from '../src/adapters/fs/node-file-system.js';
import { DefaultNeuroLink } from '../src/adapters/toolkit/default-neurolink.js';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger as PinoLogger } from 'pino';
import type { ProviderOverrides } from '../src/generation/provider-definition.js';
import type { Config } from '../src/config/load-config.js';
import type { ToolkitEnv } from '../src/config/load-toolkit-env.js';
import { SwitchyardError } from '../src/errors/switchyard-error.js';
import type { LlmCallRecorder } from '../src/generation/llm-call-record.js';
import type { ToolDefinition } from '../src/generation/tool-definition.js';
import type { ConversationStore } from '../src/ports/state/conversation-store.js';
import { loadDefaultModelRegistry, type DynamicModelRegistry } from '../src/generation/models/dynamic-model-registry.js';
import { isInside } from '../src/generation/tools/sandbox-path.js';
import { GuardrailResolver } from '../src/guardrails/guardrail-resolver.js';
import type { GuardSession } from '../src/guardrails/guard-session.js';
import { guardOutcomePublisher } from '../src/guardrails/publish-guard-outcomes.js';
import type { CallAttribution } from '../src/generation/llm-call-record.js';
import type { EventBus } from '../src/ports/event-bus.js';
import type { StateStore } from '../src/ports/state-store.js';
import type { NeuroLink, NeuroLinkOptions } from '../src/toolkit/neurolink.js';
import { defaultBuiltInTools } from '../src/toolkit/toolkit-defaults.js';

export interface ToolkitWiring {
  readonly logger: PinoLogger;
  /** Where `.env`, `config/models.json` and `.mcp-config.json` are read (default: the working directory). */
  readonly cwd?: string;
  /** Exact variables instead of the process environment merged with `<cwd>/.env` (tests). */
  readonly env?: ToolkitEnv;
  readonly providerOverrides?: ProviderOverrides;
  /** Where every model call's record goes (the `llm.call` publisher). */
  readonly onCall?: LlmCallRecorder;
  /**
   * The only directory the built-in file tools reach (default `cwd`, as the library does for a
   * local user). The service passes `serviceToolFilesRoot(config)`: its callers are merchants, and
   * its working directory holds `.env` and, by default, `DATA_DIR` (the JWT secret, the state).
   */
  readonly toolFilesRoot?: string;
  /** Conversation memory's store (the service's StateStore's); default: the library's in-memory store. */
  readonly conversationStore?: ConversationStore;
  /** Where calls' guard settings come from (the service: each merchant's, from its StateStore); default: the defaults only. */
  readonly guardrailResolver?: GuardrailResolver;
  /** Where each call's guard outcomes go (the `guard.applied` publisher). */
  readonly onGuarded?: NeuroLinkOptions['onGuarded'];
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
  const models = loadDefaultModelRegistry(nodeFileSystem, cwd);
  const toolkit = new DefaultNeuroLink({
    cwd,
    modelRegistry: models,
    ...(wiring.env !== undefined ? { env: wiring.env } : {}),
    ...(wiring.providerOverrides !== undefined ? { providerOverrides: wiring.providerOverrides } : {}),
    ...(wiring.onCall !== undefined ? { onCall: wiring.onCall } : {}),
    ...(wiring.conversationStore !== undefined ? { conversationStore: wiring.conversationStore } : {}),
    ...(wiring.guardrailResolver !== undefined ? { guardrailResolver: wiring.guardrailResolver } : {}),
    ...(wiring.onGuarded !== undefined ? { onGuarded: wiring.onGuarded } : {}),
    ...(wiring.toolFilesRoot !== undefined
      ? { builtInTools: defaultBuiltInTools(wiring.toolFilesRoot, nodeFileSystem), merchantBuiltInTools: merchantFileTools(wiring.toolFilesRoot) }
      : {}),
    warn: (notice) => wiring.logger.warn({ notice }, 'toolkit deprecation notice'),
  });
  return { toolkit, models };
}

/**
 * A merchant's own file-tool directory under the service's: `<root>/merchants/<id>`, the id
 * percent-encoded with dots too, so no id (`..`, `a/b`) can name another directory.
 */
export function merchantToolFilesDir(root: string, merchantId: string): string {
  return join(root, 'merchants', encodeURIComponent(merchantId).replaceAll('.', '%2E'));
}

/** Built-in tools per merchant, made (with the directory, 0700) on a merchant's first call and kept. */
function merchantFileTools(root: string): (merchantId: string) => readonly ToolDefinition[] {
  const made = new Map<string, readonly ToolDefinition[]>();
  return (merchantId) => {
    let tools = made.get(merchantId);
    if (tools === undefined) {
      const dir = merchantToolFilesDir(root, merchantId);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      tools = defaultBuiltInTools(dir, nodeFileSystem);
      made.set(merchantId, tools);
    }
    return tools;
  };
}

/**
 * The service's file-tool directory: `TOOL_FILES_DIR`, else `<DATA_DIR>/tool-files`, created
 * (0700) if missing. Refused at start when it would contain the data directory or a working
 * directory (`.env`): a model asked by any merchant could then read the JWT secret or provider keys.
 */
export function serviceToolFilesRoot(config: Pick<Config, 'dataDir' | 'toolFilesDir'>, toolkitCwd: string = process.cwd()): string {
  const root = resolve(config.toolFilesDir ?? join(config.dataDir, 'tool-files'));
  const secrets = [
    { path: resolve(config.dataDir), what: 'the data directory (DATA_DIR)' },
    { path: resolve(toolkitCwd), what: 'the working directory (where .env is read)' },
    { path: process.cwd(), what: 'the working directory (where .env is read)' },
  ];
  const refuse = (held: string, what: string) => {
    throw new SwitchyardError('SY_CONFIG_INVALID', {
      message: `invalid configuration: TOOL_FILES_DIR (toolFilesDir) ${root} contains ${what} ${held}; point it at a directory of its own`,
      details: { problems: [`TOOL_FILES_DIR (toolFilesDir) must not contain ${what}`] },
    });
  };
  for (const secret of secrets) if (isInside(root, secret.path)) refuse(secret.path, secret.what);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  // Again on real paths: a symlinked TOOL_FILES_DIR must not lead around the check above.
  const real = realpathSync(root);
  for (const secret of secrets) if (existsSync(secret.path) && isInside(real, realpathSync(secret.path))) refuse(secret.path, secret.what);
  return real;
}

/**
 * The toolkit's guardrails in a service process (issue 38): each merchant's settings read from the state
 * store, and every call's outcomes published as `guard.applied` events.
 */
export function toolkitGuardrails(runtime: { readonly state: Pick<StateStore, 'configs'>; readonly bus: EventBus }, logger: PinoLogger) {
  const publish = guardOutcomePublisher(runtime.bus, { logger: logger.child({ component: 'guardrails' }) });
  return {
    guardrailResolver: new GuardrailResolver({ configs: runtime.state.configs }),
    onGuarded: (session: GuardSession, attribution: CallAttribution | undefined) =>
      publish(session, {
        merchantId: attribution?.merchantId ?? '',
        surface: attribution?.surface ?? 'library',
        requestId: attribution?.requestId,
        apiKeyId: attribution?.apiKeyId,
      }),
  };
}
