import { MCPConfigurationError } from '../errors/mcp-errors.js';

/** How a client reaches an MCP server: a spawned process, legacy SSE, or streamable HTTP. */
export type McpTransportKind = 'stdio' | 'sse' | 'http';

/** Fields every server entry may carry, whatever its transport. */
interface McpServerConfigBase {
  /** Display name; defaults to the server id. */
  readonly name?: string;
  readonly description?: string;
  /** A disabled server is listed but never connected. Default true. */
  readonly enabled?: boolean;
  /** Tool-call timeout in ms (file spelling: `timeout`); also lengthens, never shortens, the connect wait. */
  readonly timeoutMs?: number;
}

/** A server spawned as a child process (never through a shell) and spoken to over stdin/stdout. */
export interface McpStdioServerConfig extends McpServerConfigBase {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Added to a minimal safe environment (HOME, PATH, USER, …); `${VAR}` expands at connect time. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over HTTP (`sse` = the 2024-11-05 SSE transport, `http` = streamable HTTP). */
export interface McpUrlServerConfig extends McpServerConfigBase {
  readonly transport: 'sse' | 'http';
  readonly url: string;
  /** Sent with every request (e.g. Authorization); `${VAR}` expands at connect time. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A validated server entry (what `validateMcpServerConfig` returns): the transport decides which fields exist. */
export type ValidatedMcpServerConfig = McpStdioServerConfig | McpUrlServerConfig;

/**
 * What callers may hand in (CLI flags, HTTP bodies, `.mcp-config.json` entries): `transport`
 * defaults to `stdio` with a command and to `http` with a url; `timeout` is accepted as the
 * reference file's spelling of `timeoutMs`.
 */
export interface McpServerConfig {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly transport?: McpTransportKind;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly enabled?: boolean;
  readonly timeoutMs?: number;
  /** The reference file's spelling of `timeoutMs`. */
  readonly timeout?: number;
  readonly name?: string;
  readonly description?: string;
}

/** Server ids double as tool-name prefixes, so they keep to the characters model APIs accept. */
const SERVER_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MAX_TIMEOUT_MS = 600_000;

function fail(id: string, field: string, problem: string): never {
  throw new MCPConfigurationError(`MCP server "${id}": ${field} ${problem}`, id);
}

export function validateMcpServerId(id: unknown): string {
  if (typeof id !== 'string' || !SERVER_ID.test(id)) {
    throw new MCPConfigurationError(
      `MCP server id ${JSON.stringify(id)} is invalid: use 1-64 letters, digits, '_', '-' or '.', starting with a letter or digit`,
      String(id),
    );
  }
  return id;
}

function optionalString(id: string, raw: Record<string, unknown>, field: string): string | undefined {
  const value = raw[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length === 0) fail(id, field, 'must be a non-empty string');
  return value;
}

function stringRecord(id: string, raw: Record<string, unknown>, field: string): Record<string, string> | undefined {
  const value = raw[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) fail(id, field, 'must be an object of strings');
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    if (typeof entry !== 'string') fail(id, `${field}.${key}`, 'must be a string');
    out[key] = entry;
  }
  return out;
}

function readTimeout(id: string, raw: Record<string, unknown>): number | undefined {
  const field = raw['timeoutMs'] !== undefined ? 'timeoutMs' : 'timeout';
  const value = raw[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > MAX_TIMEOUT_MS) {
    fail(id, field, `must be an integer number of milliseconds between 1 and ${MAX_TIMEOUT_MS}`);
  }
  return value;
}

function readTransport(id: string, raw: Record<string, unknown>): McpTransportKind {
  const value = raw['transport'] ?? raw['type'];
  if (value === undefined || value === null) return raw['url'] !== undefined && raw['command'] === undefined ? 'http' : 'stdio';
  // Editors spell streamable HTTP several ways; `ws` has no client here, so it is refused by name.
  if (value === 'streamable-http' || value === 'streamableHttp' || value === 'streamable_http') return 'http';
  if (value === 'stdio' || value === 'sse' || value === 'http') return value;
  return fail(id, 'transport', `must be "stdio", "sse" or "http" (got ${JSON.stringify(value)})`);
}

/**
 * Checks one server entry and returns it in its canonical shape. Throws MCPConfigurationError
 * naming the offending field. Unknown fields are ignored here (the config file keeps them).
 */
export function validateMcpServerConfig(id: string, input: unknown): ValidatedMcpServerConfig {
  validateMcpServerId(id);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) fail(id, 'config', 'must be an object');
  const raw = input as Record<string, unknown>;
  const transport = readTransport(id, raw);
  const enabledRaw = raw['enabled'];
  if (enabledRaw !== undefined && typeof enabledRaw !== 'boolean') fail(id, 'enabled', 'must be a boolean');
  const base = {
    ...(optionalString(id, raw, 'name') !== undefined ? { name: optionalString(id, raw, 'name') } : {}),
    ...(optionalString(id, raw, 'description') !== undefined ? { description: optionalString(id, raw, 'description') } : {}),
    ...(enabledRaw !== undefined ? { enabled: enabledRaw } : {}),
    ...(readTimeout(id, raw) !== undefined ? { timeoutMs: readTimeout(id, raw) } : {}),
  };
  if (transport === 'stdio') {
    const command = raw['command'];
    if (typeof command !== 'string' || command.trim().length === 0) fail(id, 'command', 'is required for the stdio transport');
    if (command.includes('\0')) fail(id, 'command', 'must not contain NUL');
    const argsRaw = raw['args'] ?? [];
    if (!Array.isArray(argsRaw) || argsRaw.some((arg) => typeof arg !== 'string' || arg.includes('\0'))) {
      fail(id, 'args', 'must be an array of strings');
    }
    const env = stringRecord(id, raw, 'env');
    const cwd = optionalString(id, raw, 'cwd');
    if (raw['url'] !== undefined) fail(id, 'url', 'is not used by the stdio transport (set transport to "sse" or "http")');
    return { ...base, transport, command, args: argsRaw as string[], ...(env ? { env } : {}), ...(cwd ? { cwd } : {}) };
  }
  const url = raw['url'];
  if (typeof url !== 'string' || url.length === 0) fail(id, 'url', `is required for the ${transport} transport`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail(id, 'url', `is not a valid URL (${JSON.stringify(url)})`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail(id, 'url', 'must use http: or https:');
  const headers = stringRecord(id, raw, 'headers');
  return { ...base, transport, url, ...(headers ? { headers } : {}) };
}

/**
 * Replaces `${VAR}` with the variable's value (empty when unset), so secrets stay out of the
 * config file; `$${VAR}` is a literal `${VAR}`.
 */
export function expandEnvReferences(value: string, env: Readonly<Record<string, string | undefined>>): string {
  return value.replace(/\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match: string, name: string) => (match.startsWith('$$') ? match.slice(1) : (env[name] ?? '')));
}

/** The entry as written to `.mcp-config.json` (the reference's field names: `timeout`, not `timeoutMs`). */
export function toConfigFileEntry(config: ValidatedMcpServerConfig): Record<string, unknown> {
  const { timeoutMs, ...rest } = config;
  return { ...rest, ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}) };
}
