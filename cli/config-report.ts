import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { nodeFileSystem } from '../src/adapters/fs/node-file-system.js';
import { providerDefinitions } from '../src/adapters/llm/provider-registry.js';
import { readMcpConfigFile } from '../src/adapters/mcp/mcp-config-file.js';
import { assertAdminSecretStrength } from '../src/config/admin-secret-strength.js';
import { envNameOf, loadConfig, type Config } from '../src/config/load-config.js';
import { loadToolkitEnv, type ToolkitEnv } from '../src/config/load-toolkit-env.js';
import { resolveServiceSecurity } from '../src/config/service-security.js';
import { SwitchyardError } from '../src/errors/switchyard-error.js';
import { validateMcpServerConfig } from '../src/generation/mcp/mcp-server-config.js';
import { loadDefaultModelRegistry } from '../src/generation/models/dynamic-model-registry.js';
import { missingProviderEnv } from '../src/generation/provider-env.js';
import { normalizeProviderName } from '../src/generation/provider-name.js';
import type { CliIo } from './io.js';

export const REDACTED = '[redacted]';

/**
 * Service settings (camelCase) and toolkit variables (UPPER_CASE) whose values are credentials, by
 * how the name ends (`adminSecret`, `OPENAI_API_KEY`, `AWS_SESSION_TOKEN`, `otelExporterOtlpHeaders`),
 * so `adminSecretHeader` or `apiKeyAuthEnabled` stay readable. A public key is not a secret.
 */
function isSecretName(name: string): boolean {
  const plain = name.replace(/[_-]/g, '').toLowerCase();
  return !plain.endsWith('publickey') && /(secret|password|key|token|headers|credentials)$/.test(plain);
}

/** A value shown as-is, except a secret (by name) and the password of a URL (`redis://user:pass@host`). */
export function redactValue(name: string, value: unknown): unknown {
  if (value === undefined || value === null || value === '') return value;
  if (isSecretName(name)) return REDACTED;
  if (typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value)) {
    try {
      const url = new URL(value);
      if (url.password !== '') url.password = 'redacted';
      return url.toString();
    } catch {
      return REDACTED;
    }
  }
  return value;
}

/** Prefixes of the toolkit's variables: every provider's (OPENAI_, AWS_, …), plus the toolkit's own. */
function toolkitPrefixes(): string[] {
  const names = Object.values(providerDefinitions).flatMap((definition) => [...definition.requiredEnv.flat(), ...definition.modelEnv]);
  return [...new Set([...names.map((name) => name.slice(0, name.indexOf('_') + 1)), 'DEFAULT_', 'SAGEMAKER_', 'VERTEX_'])].filter((prefix) => prefix !== '');
}

function paths(io: CliIo) {
  return { env: join(io.cwd, '.env'), mcp: join(io.cwd, '.mcp-config.json'), models: join(io.cwd, 'config', 'models.json') };
}

/** `config show`: what this process would run with, secrets redacted. Throws SY_CONFIG_INVALID like a start would. */
export async function effectiveConfig(io: CliIo): Promise<Record<string, unknown>> {
  const config = loadConfig(io.env);
  const toolkitEnv = loadToolkitEnv({ cwd: io.cwd, processEnv: io.env });
  const files = paths(io);
  const prefixes = toolkitPrefixes();
  const toolkit = Object.fromEntries(
    Object.entries(toolkitEnv)
      .filter(([name, value]) => value !== undefined && prefixes.some((prefix) => name.startsWith(prefix)))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => [name, redactValue(name, value)]),
  );
  const mcp = await readMcpConfigFile(files.mcp);
  return {
    files: {
      env: { path: files.env, exists: existsSync(files.env) },
      mcpConfig: { path: files.mcp, exists: mcp.exists, servers: Object.keys(mcp.servers) },
      models: { path: existsSync(files.models) ? files.models : 'shipped registry' },
    },
    service: Object.fromEntries(
      Object.entries(config)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([property, value]) => [envNameOf(property), redactValue(property, value)]),
    ),
    toolkit,
    providers: Object.fromEntries(
      Object.values(providerDefinitions).map((definition) => {
        const missing = missingProviderEnv(definition, toolkitEnv);
        return [definition.name, missing === undefined ? 'configured' : `not configured (set ${missing})`];
      }),
    ),
  };
}

export interface ValidationReport {
  readonly valid: boolean;
  readonly errors: string[];
  readonly warnings: string[];
  readonly checked: string[];
}

function messageOf(error: unknown): string {
  if (SwitchyardError.isInstance(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** `config validate`: every setting a start or a command would refuse, all at once (not the first only). */
export async function validateConfig(io: CliIo): Promise<ValidationReport> {
  const errors: string[] = [];
  const warnings: string[] = [];
  const checked: string[] = [];
  const files = paths(io);

  checked.push('service settings (environment)');
  let config: Config | undefined;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    const problems = SwitchyardError.isInstance(error) ? (error.details as { problems?: string[] } | undefined)?.problems : undefined;
    errors.push(...(problems ?? [messageOf(error)]));
  }
  if (config !== undefined) {
    try {
      assertAdminSecretStrength(config);
    } catch (error) {
      errors.push(messageOf(error));
    }
    // TLS files and credentials of Redis, Kafka and ClickHouse, as a start reads them (docs/services-tls.md).
    try {
      resolveServiceSecurity(config);
    } catch (error) {
      const problems = SwitchyardError.isInstance(error) ? (error.details as { problems?: string[] } | undefined)?.problems : undefined;
      errors.push(...(problems ?? [messageOf(error)]));
    }
  }

  checked.push(`toolkit variables (environment and ${files.env})`);
  let toolkitEnv: ToolkitEnv | undefined;
  try {
    toolkitEnv = loadToolkitEnv({ cwd: io.cwd, processEnv: io.env });
  } catch (error) {
    errors.push(`${files.env}: ${messageOf(error)}`);
  }
  if (toolkitEnv !== undefined) {
    const preferred = toolkitEnv['DEFAULT_PROVIDER']?.trim();
    if (preferred !== undefined && preferred !== '' && normalizeProviderName(preferred) === undefined)
      errors.push(`DEFAULT_PROVIDER="${preferred}" names no known provider (use one of ${Object.keys(providerDefinitions).join(', ')} or auto)`);
    const configured = Object.values(providerDefinitions).filter((definition) => missingProviderEnv(definition, toolkitEnv) === undefined);
    if (configured.length === 0) warnings.push('no provider is configured: generate, stream and batch need one (switchyard config init writes a starter .env)');
  }

  checked.push(files.mcp);
  try {
    const mcp = await readMcpConfigFile(files.mcp);
    for (const [id, raw] of Object.entries(mcp.servers)) {
      try {
        validateMcpServerConfig(id, raw);
      } catch (error) {
        errors.push(`${files.mcp}: ${messageOf(error)}`);
      }
    }
  } catch (error) {
    errors.push(messageOf(error));
  }

  checked.push(existsSync(files.models) ? files.models : 'model registry (shipped)');
  try {
    loadDefaultModelRegistry(nodeFileSystem, io.cwd);
  } catch (error) {
    errors.push(`${files.models}: ${messageOf(error)}`);
  }
  return { valid: errors.length === 0, errors, warnings, checked };
}

/** `config init`: a starter `.env` for the toolkit, every provider's variables commented out. */
export function starterEnvFile(): string {
  const providers = Object.values(providerDefinitions).map((definition) => {
    const variables = definition.requiredEnv.map((alternatives) => `# ${alternatives[0]}=`);
    const model = definition.modelEnv[0] !== undefined ? [`# ${definition.modelEnv[0]}=${definition.defaultModel}`] : [];
    return [`# ${definition.name}`, ...(variables.length > 0 ? variables : ['# (no credentials needed)']), ...model].join('\n');
  });
  return `# Switchyard toolkit settings, written by \`switchyard config init\`.
# Read by generate, stream, batch and serve from the working directory; an exported variable wins
# over this file. It holds credentials: keep it out of version control.
# Service settings (PORT, DATA_DIR, REDIS_URL, …) come from the environment: docs/configuration.md.
# Check the result with: switchyard config validate

# Which provider a call without --provider uses: auto (the first configured one) or a provider name.
# DEFAULT_PROVIDER=auto

${providers.join('\n\n')}
`;
}
