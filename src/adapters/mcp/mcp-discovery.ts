import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MCPConfigurationError } from '../../generation/errors/mcp-errors.js';
import { validateMcpServerConfig } from '../../generation/mcp/mcp-server-config.js';
import type { DiscoveredServer, McpDiscoveryResult, McpDiscoveryTool } from '../../generation/mcp/mcp-status.js';

export interface McpDiscoveryOptions {
  readonly homeDir: string;
  readonly cwd: string;
  readonly platform: NodeJS.Platform;
  /** Windows `%APPDATA%`; defaults to `<home>/AppData/Roaming`. */
  readonly appData?: string;
}

/** Where, in one config file, the servers live. */
type Extractor = (document: Record<string, unknown>) => Record<string, unknown> | undefined;

interface Source {
  readonly tool: McpDiscoveryTool;
  readonly scope: 'global' | 'workspace';
  readonly priority: number;
  readonly path: string;
  readonly extract: Extractor;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const mcpServersKey: Extractor = (doc) => (isObject(doc['mcpServers']) ? doc['mcpServers'] : undefined);
/** VS Code: `.vscode/mcp.json` has `servers`; settings.json has `mcp.servers` (nested or as a dotted key). */
const vscodeServers: Extractor = (doc) => {
  if (isObject(doc['servers'])) return doc['servers'];
  if (isObject(doc['mcp']) && isObject(doc['mcp']['servers'])) return doc['mcp']['servers'];
  if (isObject(doc['mcp.servers'])) return doc['mcp.servers'];
  return undefined;
};
/** Continue: `mcpServers` (object or array of `{name, transport|command…}`) or the older experimental list. */
const continueServers: Extractor = (doc) => {
  const experimental = isObject(doc['experimental']) ? doc['experimental']['modelContextProtocolServers'] : undefined;
  const list = doc['mcpServers'] ?? experimental;
  if (isObject(list)) return list;
  if (!Array.isArray(list)) return undefined;
  const out: Record<string, unknown> = {};
  list.forEach((entry: unknown, index) => {
    if (!isObject(entry)) return;
    const inner = isObject(entry['transport']) ? entry['transport'] : entry;
    const name = typeof entry['name'] === 'string' ? entry['name'] : `continue-${index + 1}`;
    out[name] = inner;
  });
  return out;
};
/** Zed: `context_servers: { id: { command: {path, args, env} } | { command, args, env } }`. */
const zedServers: Extractor = (doc) => {
  if (!isObject(doc['context_servers'])) return undefined;
  const out: Record<string, unknown> = {};
  for (const [id, entry] of Object.entries(doc['context_servers'])) {
    if (isObject(entry) && isObject(entry['command'])) {
      const command = entry['command'];
      out[id] = { command: command['path'], args: command['args'], env: command['env'] };
    } else {
      out[id] = entry;
    }
  }
  return out;
};

function sources(options: McpDiscoveryOptions): Source[] {
  const home = options.homeDir;
  const appData = options.appData ?? join(home, 'AppData', 'Roaming');
  const userConfigDir =
    options.platform === 'darwin' ? join(home, 'Library', 'Application Support') : options.platform === 'win32' ? appData : join(home, '.config');
  const claudeDesktop = options.platform === 'linux' ? [join(home, '.config', 'Claude'), join(home, '.config', 'claude')] : [join(userConfigDir, 'Claude')];
  const codeUser = (flavour: string): string => join(userConfigDir, flavour, 'User');
  const global = (tool: McpDiscoveryTool, priority: number, path: string, extract: Extractor = mcpServersKey): Source => ({
    tool,
    scope: 'global',
    priority,
    path,
    extract,
  });
  const workspace = (tool: McpDiscoveryTool, path: string, extract: Extractor = mcpServersKey): Source => ({
    tool,
    scope: 'workspace',
    priority: 9,
    path: join(options.cwd, path),
    extract,
  });
  return [
    ...claudeDesktop.map((dir) => global('claude-desktop', 8, join(dir, 'claude_desktop_config.json'))),
    global('claude-code', 8, join(home, '.claude.json')),
    global('cursor', 8, join(home, '.cursor', 'mcp.json')),
    global('windsurf', 8, join(home, '.codeium', 'windsurf', 'mcp_config.json')),
    ...['Code', 'Code - Insiders'].flatMap((flavour) => [
      global('cline', 8, join(codeUser(flavour), 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json')),
      global('vscode', 7, join(codeUser(flavour), 'mcp.json'), vscodeServers),
      global('vscode', 7, join(codeUser(flavour), 'settings.json'), vscodeServers),
    ]),
    global('continue', 7, join(home, '.continue', 'config.json'), continueServers),
    global('zed', 6, join(options.platform === 'darwin' || options.platform === 'linux' ? join(home, '.config') : appData, 'zed', 'settings.json'), zedServers),
    workspace('claude-code', '.mcp.json'),
    workspace('cursor', join('.cursor', 'mcp.json')),
    workspace('vscode', join('.vscode', 'mcp.json'), vscodeServers),
    workspace('vscode', join('.vscode', 'settings.json'), vscodeServers),
    workspace('zed', join('.zed', 'settings.json'), zedServers),
  ];
}

/**
 * Editor settings are JSON with comments and trailing commas (JSONC). Strips both outside
 * strings, then parses; anything still malformed is reported by the caller.
 */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      out += char;
      i += 1;
    }
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

/** Windsurf writes `serverUrl`; VS Code `type`; some clients `disabled`. Normalised before validation. */
function normaliseEntry(entry: unknown): unknown {
  if (!isObject(entry)) return entry;
  const { serverUrl, disabled, type, ...rest } = entry;
  return {
    ...rest,
    ...(rest['url'] === undefined && typeof serverUrl === 'string' ? { url: serverUrl } : {}),
    ...(rest['transport'] === undefined && typeof type === 'string' ? { transport: type } : {}),
    ...(typeof disabled === 'boolean' && rest['enabled'] === undefined ? { enabled: !disabled } : {}),
  };
}

/**
 * Reads every known editor/desktop-client config and returns the MCP servers they define,
 * deduplicated by id (higher priority wins; workspace beats global). Missing files are silent;
 * unreadable or malformed files and invalid entries land in `skipped` with the reason.
 */
export async function discoverMcpServers(options: McpDiscoveryOptions): Promise<McpDiscoveryResult> {
  const found: DiscoveredServer[] = [];
  const seenSources: { tool: McpDiscoveryTool; path: string; serverCount: number }[] = [];
  const skipped: { path: string; reason: string }[] = [];
  for (const source of sources(options)) {
    let text: string;
    try {
      text = await readFile(source.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') skipped.push({ path: source.path, reason: `unreadable: ${(error as Error).message}` });
      continue;
    }
    let document: unknown;
    try {
      document = parseJsonc(text);
    } catch (error) {
      skipped.push({ path: source.path, reason: `malformed JSON: ${(error as Error).message}` });
      continue;
    }
    const entries = isObject(document) ? source.extract(document) : undefined;
    let count = 0;
    for (const [id, entry] of Object.entries(entries ?? {})) {
      try {
        const config = validateMcpServerConfig(id, normaliseEntry(entry));
        found.push({ id, config, tool: source.tool, scope: source.scope, priority: source.priority, configPath: source.path });
        count += 1;
      } catch (error) {
        const reason = error instanceof MCPConfigurationError ? error.message : String(error);
        skipped.push({ path: source.path, reason: `server "${id}" skipped: ${reason}` });
      }
    }
    seenSources.push({ tool: source.tool, path: source.path, serverCount: count });
  }
  const byId = new Map<string, DiscoveredServer>();
  for (const server of found) {
    const current = byId.get(server.id);
    if (current === undefined || server.priority > current.priority) byId.set(server.id, server);
  }
  return { servers: [...byId.values()], sources: seenSources, skipped, duplicatesRemoved: found.length - byId.size };
}
