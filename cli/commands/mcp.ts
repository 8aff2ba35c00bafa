import type { Command } from 'commander';
import { readMcpConfigFile, updateMcpConfigServer } from '../../src/adapters/mcp/mcp-config-file.js';
import type { McpManager } from '../../src/adapters/mcp/mcp-manager.js';
import { MCPConnectionError } from '../../src/generation/errors/mcp-errors.js';
import { validateMcpServerConfig, type McpServerConfig, type McpTransportKind } from '../../src/generation/mcp/mcp-server-config.js';
import type { CliContext } from '../cli-context.js';
import { ExitWith, exitCodes, UsageError } from '../exit-codes.js';
import { parseListFormat, renderList, renderRecord, withSpinner } from '../output.js';

/**
 * Well-known MCP servers `mcp install` registers: the official packages, run with `npx` as an
 * argument vector (never a shell line). `{root}` is replaced by --root (default: the working directory).
 */
const knownServers: Readonly<
  Record<string, { readonly package: string; readonly args?: readonly string[]; readonly env?: readonly string[]; readonly description: string }>
> = {
  filesystem: { package: '@modelcontextprotocol/server-filesystem', args: ['{root}'], description: 'read and write files under a root folder' },
  everything: { package: '@modelcontextprotocol/server-everything', description: 'the MCP reference server (every feature, for testing)' },
  memory: { package: '@modelcontextprotocol/server-memory', description: 'a knowledge-graph memory' },
  github: {
    package: '@modelcontextprotocol/server-github',
    env: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
    description: 'GitHub repositories, issues and pull requests',
  },
  postgres: { package: '@modelcontextprotocol/server-postgres', args: ['{database_url}'], description: 'read-only PostgreSQL queries' },
  'brave-search': { package: '@modelcontextprotocol/server-brave-search', env: ['BRAVE_API_KEY'], description: 'web search with Brave' },
  puppeteer: { package: '@modelcontextprotocol/server-puppeteer', description: 'browser automation' },
};

function parseJsonObject(flag: string, text: string | undefined): Record<string, string> | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag} must be a JSON object: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${flag} must be a JSON object`);
  return parsed as Record<string, string>;
}

const serverColumns = ['id', 'status', 'source', 'transport', 'toolCount', 'error'];

/** `mcp discover|list|install|add|remove|test|tools|execute|config`, on `<cwd>/.mcp-config.json`. */
export function registerMcpCommands(program: Command, context: CliContext): void {
  const mcp = program.command('mcp').description('MCP servers: discover, list, install, add, remove, test, list tools, execute a tool, show the config');
  // The MCP client (its SDK and transports) loads only when an mcp command runs: see program.ts.
  const manager = async () => {
    const { McpManager } = await import('../../src/adapters/mcp/mcp-manager.js');
    return new McpManager({
      cwd: context.io.cwd,
      logger: { info: () => undefined, warn: (fields, message) => context.io.stderr.write(`warning: ${message} ${JSON.stringify(fields)}\n`) },
    });
  };
  const formatted = (command: Command) => command.option('-f, --format <format>', 'table, json or yaml', 'table');
  const persist = async (id: string, config: McpServerConfig, verb: string) => {
    const validated = validateMcpServerConfig(id, config);
    const path = (await manager()).configPath;
    await updateMcpConfigServer(path, id, validated);
    context.io.stdout.write(`${verb} MCP server "${id}" in ${path}; check it with: switchyard mcp test ${id}\n`);
  };
  const withManager = async <T>(work: (m: McpManager) => Promise<T>): Promise<T> => {
    const m = await manager();
    try {
      return await work(m);
    } finally {
      await m.close();
    }
  };

  formatted(
    mcp
      .command('discover')
      .description("Servers configured in editors' and desktop clients' files (Claude Desktop, Cursor, VS Code, …): discovered, not connected"),
  ).action(async (flags: { format?: string }) => {
    const format = parseListFormat(flags.format);
    const report = await withManager((m) => m.discoverWithReport());
    const rows = report.servers.map((server) => ({
      id: server.id,
      tool: server.tool,
      scope: server.scope,
      transport: server.config.transport,
      path: server.configPath,
    }));
    context.io.stdout.write(renderList(format, report, rows, ['id', 'tool', 'scope', 'transport', 'path']));
  });

  formatted(
    mcp
      .command('list')
      .description('Servers of .mcp-config.json with their status (--connect tries each)')
      .option('--connect', 'connect each enabled server to report its status and tools'),
  ).action(async (flags: { format?: string; connect?: boolean }) => {
    const format = parseListFormat(flags.format);
    const servers = await withManager(async (m) => {
      const loaded = await m.loadConfig();
      for (const problem of loaded.errors) context.io.stderr.write(`warning: ${problem.id}: ${problem.error}\n`);
      if (flags.connect === true) await m.connectAll();
      return m.listServers();
    });
    context.io.stdout.write(renderList(format, servers, servers, serverColumns));
  });

  mcp
    .command('install')
    .argument('<server>', `one of ${Object.keys(knownServers).join(', ')}`)
    .description('Register a well-known MCP server package in .mcp-config.json')
    .option('--root <folder>', 'filesystem: the folder it may use (default: the working directory)')
    .option('--database-url <url>', 'postgres: the connection URL')
    .option('--env <json>', 'extra environment variables as a JSON object')
    .action(async (server: string, flags: { root?: string; databaseUrl?: string; env?: string }) => {
      const known = knownServers[server];
      if (known === undefined)
        throw new UsageError(
          `unknown server "${server}": choose one of ${Object.keys(knownServers).join(', ')}, or register any server with switchyard mcp add`,
        );
      const args = (known.args ?? []).map((arg) =>
        arg === '{root}' ? (flags.root ?? context.io.cwd) : arg === '{database_url}' ? (flags.databaseUrl ?? '') : arg,
      );
      if (args.includes('')) throw new UsageError(`${server} needs --database-url`);
      const env = { ...Object.fromEntries((known.env ?? []).map((name) => [name, `\${${name}}`])), ...parseJsonObject('--env', flags.env) };
      await persist(
        server,
        {
          transport: 'stdio',
          command: 'npx',
          args: ['-y', known.package, ...args],
          ...(Object.keys(env).length > 0 ? { env } : {}),
          description: known.description,
        },
        'installed',
      );
    });

  mcp
    .command('add')
    .argument('<name>', 'server id (letters, digits, . _ -)')
    .argument('[command]', 'stdio: the program to run')
    .argument('[args...]', 'stdio: its arguments (each one as given, never through a shell)')
    .description('Register any MCP server (stdio command, or --url for streamable HTTP / SSE) in .mcp-config.json')
    .option('--transport <kind>', 'stdio, http or sse', 'stdio')
    .option('--url <url>', 'http/sse: the server URL')
    .option('--env <json>', 'stdio: environment variables as a JSON object')
    .option('--timeout <ms>', 'per-call timeout in milliseconds')
    .action(async (name: string, command: string | undefined, args: string[], flags: { transport: string; url?: string; env?: string; timeout?: string }) => {
      if (!['stdio', 'http', 'sse'].includes(flags.transport)) throw new UsageError(`--transport must be stdio, http or sse (got "${flags.transport}")`);
      const transport = flags.transport as McpTransportKind;
      const timeoutMs = flags.timeout === undefined ? undefined : Number(flags.timeout);
      if (timeoutMs !== undefined && !Number.isInteger(timeoutMs)) throw new UsageError(`--timeout must be whole milliseconds (got "${flags.timeout}")`);
      const common = { ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
      if (transport === 'stdio') {
        if (command === undefined) throw new UsageError('a stdio server needs its command: switchyard mcp add <name> <command> [args...]');
        const env = parseJsonObject('--env', flags.env);
        await persist(name, { transport, command, args, ...(env !== undefined ? { env } : {}), ...common }, 'added');
      } else {
        if (flags.url === undefined) throw new UsageError(`a ${transport} server needs --url`);
        await persist(name, { transport, url: flags.url, ...common }, 'added');
      }
    });

  mcp
    .command('remove')
    .argument('<name>', 'server id')
    .description('Delete a server from .mcp-config.json')
    .action(async (name: string) => {
      const path = (await manager()).configPath;
      const file = await readMcpConfigFile(path);
      if (file.servers[name] === undefined) throw new UsageError(`no MCP server "${name}" in ${path}`);
      await updateMcpConfigServer(path, name, undefined);
      context.io.stdout.write(`removed MCP server "${name}" from ${path}\n`);
    });

  formatted(
    mcp
      .command('test')
      .argument('[name]', 'server id (default: every configured server)')
      .description('Connect and ping servers; exit 4 when one fails')
      .option('-q, --quiet', 'no progress output'),
  ).action(async (name: string | undefined, flags: { format?: string; quiet?: boolean }) => {
    const format = parseListFormat(flags.format);
    const results = await withManager(async (m) => {
      await m.loadConfig();
      const ids = name !== undefined ? [name] : m.listServers().map((server) => server.id);
      if (name !== undefined && !m.listServers().some((server) => server.id === name)) throw new UsageError(`no MCP server "${name}" in ${m.configPath}`);
      return withSpinner(context.io, flags.quiet === true, 'Testing MCP servers…', () =>
        Promise.all(ids.map(async (id) => ({ id, ...(await m.testServer(id)) }))),
      );
    });
    context.io.stdout.write(renderList(format, results, results, ['id', 'ok', 'toolCount', 'latencyMs', 'error']));
    if (results.some((result) => !result.ok)) throw new ExitWith(exitCodes.provider);
  });

  formatted(mcp.command('tools').argument('<name>', 'server id').description("A server's tools with their descriptions")).action(
    async (name: string, flags: { format?: string }) => {
      const format = parseListFormat(flags.format);
      const tools = await withManager(async (m) => {
        await m.loadConfig();
        if (!m.listServers().some((server) => server.id === name)) throw new UsageError(`no MCP server "${name}" in ${m.configPath}`);
        const { failed } = await m.connectAll();
        const failure = failed.find((entry) => entry.id === name);
        if (failure !== undefined) throw new MCPConnectionError(`MCP server "${name}" could not be reached: ${failure.error}`, name);
        const all = await m.listTools();
        return all.filter((tool) => tool.source === name).map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema }));
      });
      context.io.stdout.write(renderList(format, tools, tools, ['name', 'description']));
    },
  );

  formatted(
    mcp
      .command('execute')
      .alias('exec')
      .argument('<server>', 'server id')
      .argument('<tool>', 'tool name')
      .option('--params <json>', 'the tool arguments as a JSON object', '{}')
      .description('Call one tool of one server and print its result'),
  ).action(async (server: string, tool: string, flags: { params: string; format?: string }) => {
    const format = parseListFormat(flags.format === 'table' ? 'yaml' : flags.format);
    const params = parseJsonObject('--params', flags.params) ?? {};
    const result = await withManager(async (m) => {
      await m.loadConfig();
      if (!m.listServers().some((entry) => entry.id === server)) throw new UsageError(`no MCP server "${server}" in ${m.configPath}`);
      return m.executeTool(server, tool, params);
    });
    if (flags.format === 'table') context.io.stdout.write(`${result.text}\n`);
    else context.io.stdout.write(renderRecord(format, { server, tool, params, result: result.structuredContent ?? result.text, content: result.content }));
  });

  formatted(mcp.command('config').description('Show .mcp-config.json (--reset empties it)').option('--reset', 'remove every server')).action(
    async (flags: { format?: string; reset?: boolean }) => {
      const format = parseListFormat(flags.format === 'table' ? 'json' : flags.format);
      const path = (await manager()).configPath;
      if (flags.reset === true) {
        const file = await readMcpConfigFile(path);
        for (const id of Object.keys(file.servers)) await updateMcpConfigServer(path, id, undefined);
        context.io.stdout.write(`removed ${Object.keys(file.servers).length} MCP server(s) from ${path}\n`);
        return;
      }
      const file = await readMcpConfigFile(path);
      context.io.stdout.write(renderRecord(format, { path, exists: file.exists, global: file.global, servers: file.servers }));
    },
  );
}
