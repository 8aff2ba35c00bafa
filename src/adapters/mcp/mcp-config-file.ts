import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { MCPConfigurationError } from '../../generation/errors/mcp-errors.js';
import { toConfigFileEntry, type ValidatedMcpServerConfig } from '../../generation/mcp/mcp-server-config.js';

/**
 * `.mcp-config.json` as the reference lays it out: `{ mcpServers: { id: entry }, global?: {
 * timeout, maxConnections, logLevel }, …other keys kept verbatim }`.
 */
export interface McpConfigFile {
  readonly path: string;
  /** Raw entries by id, unvalidated (validation reports per entry, so one bad entry does not hide the rest). */
  readonly servers: Readonly<Record<string, unknown>>;
  readonly global: { readonly timeout?: number; readonly maxConnections?: number };
  /** Whether the file existed. */
  readonly exists: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function readRaw(path: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MCPConfigurationError(`Cannot read MCP config file ${path}: ${(error as Error).message}`, path, error);
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new MCPConfigurationError(`Malformed JSON in MCP config file ${path}: ${(error as Error).message}`, path, error);
  }
  if (!isObject(parsed)) throw new MCPConfigurationError(`MCP config file ${path} must hold a JSON object`, path);
  if (parsed['mcpServers'] !== undefined && !isObject(parsed['mcpServers'])) {
    throw new MCPConfigurationError(`MCP config file ${path}: "mcpServers" must be an object`, path);
  }
  return parsed;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

export async function readMcpConfigFile(path: string): Promise<McpConfigFile> {
  const raw = await readRaw(path);
  const global = isObject(raw?.['global']) ? raw['global'] : {};
  const timeout = positiveInt(global['timeout']);
  const maxConnections = positiveInt(global['maxConnections']);
  return {
    path,
    servers: isObject(raw?.['mcpServers']) ? raw['mcpServers'] : {},
    global: { ...(timeout !== undefined ? { timeout } : {}), ...(maxConnections !== undefined ? { maxConnections } : {}) },
    exists: raw !== undefined,
  };
}

/** Writes are serialised per path inside this process, so two quick edits never lose one. */
const queues = new Map<string, Promise<unknown>>();

export function serialise<T>(path: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(path) ?? Promise.resolve();
  const next = previous.then(task, task);
  const settled = next.catch(() => undefined);
  queues.set(path, settled);
  void settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path);
  });
  return next;
}

/** Write to a sibling temp file and rename over the target: readers see the old or the new file, never half. */
export async function writeAtomic(path: string, document: Record<string, unknown>): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // 0600: entries may carry tokens in env or headers.
    await writeFile(temp, `${JSON.stringify(document, null, 2)}\n`, { encoding: 'utf8', mode: 0o600 });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new MCPConfigurationError(`Cannot write MCP config file ${path}: ${(error as Error).message}`, path, error);
  }
}

/**
 * Sets (or, with `undefined`, removes) one server entry. Keys of the old entry that the config
 * does not model (`autoRestart`, `healthCheckInterval`, …) and every other top-level key survive.
 */
export function updateMcpConfigServer(path: string, id: string, config: ValidatedMcpServerConfig | undefined): Promise<void> {
  return serialise(path, async () => {
    const document = (await readRaw(path)) ?? {};
    const servers: Record<string, unknown> = isObject(document['mcpServers']) ? { ...document['mcpServers'] } : {};
    if (config === undefined) {
      if (!(id in servers)) return;
      delete servers[id];
    } else {
      const previous = isObject(servers[id]) ? servers[id] : {};
      const kept = Object.fromEntries(Object.entries(previous).filter(([key]) => !MODELLED_KEYS.has(key)));
      servers[id] = { ...kept, ...toConfigFileEntry(config) };
    }
    await writeAtomic(path, { ...document, mcpServers: servers });
  });
}

/** Fields our config owns; a rewrite drops stale ones (e.g. `url` after switching to stdio). */
const MODELLED_KEYS = new Set([
  'name',
  'description',
  'enabled',
  'timeout',
  'timeoutMs',
  'transport',
  'type',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
]);
