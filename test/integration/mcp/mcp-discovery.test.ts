import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverMcpServers, parseJsonc } from '../../../src/adapters/mcp/mcp-discovery.js';
import { McpManager } from '../../../src/adapters/mcp/mcp-manager.js';
import { MCPConnectionError } from '../../../src/generation/errors/mcp-errors.js';
import { echoServerPath, makeTempDir } from './mcp-test-helpers.js';

async function put(path: string, content: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
}

describe('MCP discovery from editors and desktop clients', () => {
  let temp: { dir: string; cleanup: () => Promise<void> };
  let home: string;
  let cwd: string;

  beforeEach(async () => {
    temp = await makeTempDir('mcp-discovery');
    home = join(temp.dir, 'home');
    cwd = join(temp.dir, 'project');
    await mkdir(home, { recursive: true });
    await mkdir(cwd, { recursive: true });
  });
  afterEach(() => temp.cleanup());

  it('finds servers in each known file on Linux, normalising their formats', async () => {
    await put(join(home, '.config/Claude/claude_desktop_config.json'), {
      mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] } },
    });
    await put(join(home, '.cursor/mcp.json'), { mcpServers: { remote: { url: 'https://cursor.example/mcp' } } });
    await put(join(home, '.codeium/windsurf/mcp_config.json'), { mcpServers: { wind: { serverUrl: 'https://wind.example/sse', transport: 'sse' } } });
    await put(join(home, '.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json'), {
      mcpServers: { cline: { command: 'cline-mcp', disabled: true } },
    });
    await put(
      join(home, '.config/Code/User/settings.json'),
      '{\n  // user settings\n  "editor.fontSize": 14,\n  "mcp": { "servers": { "vsuser": { "type": "stdio", "command": "vs-mcp", } } },\n}\n',
    );
    await put(join(home, '.continue/config.json'), {
      experimental: { modelContextProtocolServers: [{ transport: { type: 'stdio', command: 'cont-mcp', args: ['a'] } }] },
    });
    await put(join(home, '.config/zed/settings.json'), { context_servers: { zedsrv: { command: { path: 'zed-mcp', args: ['--x'], env: { A: 'b' } } } } });
    await put(join(home, '.claude.json'), { mcpServers: { claudecode: { type: 'http', url: 'https://cc.example/mcp' } } });
    await put(
      join(cwd, '.vscode/mcp.json'),
      '{ "servers": { "vsws": { "type": "http", "url": "https://vs.example/mcp", "headers": { "x": "/* not a comment */" } } }, "inputs": [] }',
    );

    const result = await discoverMcpServers({ homeDir: home, cwd, platform: 'linux' });
    const byId = Object.fromEntries(result.servers.map((server) => [server.id, server]));
    expect(Object.keys(byId).sort()).toEqual(['claudecode', 'cline', 'continue-1', 'fs', 'remote', 'vsuser', 'vsws', 'wind', 'zedsrv']);
    expect(byId['fs']).toMatchObject({
      tool: 'claude-desktop',
      scope: 'global',
      config: { transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
    });
    expect(byId['remote']?.config).toEqual({ transport: 'http', url: 'https://cursor.example/mcp' });
    expect(byId['wind']?.config).toEqual({ transport: 'sse', url: 'https://wind.example/sse' });
    expect(byId['cline']).toMatchObject({ tool: 'cline', config: { command: 'cline-mcp', enabled: false } });
    expect(byId['vsuser']).toMatchObject({ tool: 'vscode', config: { command: 'vs-mcp', transport: 'stdio' } });
    expect(byId['continue-1']).toMatchObject({ tool: 'continue', config: { command: 'cont-mcp', args: ['a'] } });
    expect(byId['zedsrv']).toMatchObject({ tool: 'zed', config: { command: 'zed-mcp', args: ['--x'], env: { A: 'b' } } });
    expect(byId['claudecode']).toMatchObject({ tool: 'claude-code', config: { transport: 'http' } });
    expect(byId['vsws']).toMatchObject({ tool: 'vscode', scope: 'workspace', config: { headers: { x: '/* not a comment */' } } });
    expect(result.skipped).toEqual([]);
  });

  it('uses the macOS and Windows Claude Desktop locations', async () => {
    await put(join(home, 'Library/Application Support/Claude/claude_desktop_config.json'), { mcpServers: { mac: { command: 'm' } } });
    await put(join(temp.dir, 'appdata/Claude/claude_desktop_config.json'), { mcpServers: { win: { command: 'w' } } });
    expect((await discoverMcpServers({ homeDir: home, cwd, platform: 'darwin' })).servers.map((s) => s.id)).toEqual(['mac']);
    expect((await discoverMcpServers({ homeDir: home, cwd, platform: 'win32', appData: join(temp.dir, 'appdata') })).servers.map((s) => s.id)).toEqual(['win']);
    expect((await discoverMcpServers({ homeDir: home, cwd, platform: 'linux' })).servers).toEqual([]);
  });

  it('skips malformed files and invalid entries with a reason, and lets the workspace win a duplicate id', async () => {
    await put(join(home, '.cursor/mcp.json'), '{ "mcpServers": { broken');
    await put(join(home, '.config/Claude/claude_desktop_config.json'), {
      mcpServers: { dup: { command: 'global-one' }, nocmd: { args: ['x'] }, 'bad id!': { command: 'x' } },
    });
    await put(join(cwd, '.cursor/mcp.json'), { mcpServers: { dup: { command: 'workspace-one' } } });
    await put(join(cwd, '.vscode/settings.json'), '[1, 2]');
    const result = await discoverMcpServers({ homeDir: home, cwd, platform: 'linux' });
    expect(result.servers).toHaveLength(1);
    expect(result.servers[0]).toMatchObject({ id: 'dup', scope: 'workspace', config: { command: 'workspace-one' } });
    expect(result.duplicatesRemoved).toBe(1);
    const reasons = result.skipped.map((entry) => `${entry.path}: ${entry.reason}`);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\.cursor\/mcp\.json: malformed JSON/),
        expect.stringMatching(/server "nocmd" skipped: .*command is required/),
        expect.stringMatching(/server "bad id!" skipped: .*invalid/),
      ]),
    );
  });

  it('lists discovered servers as discovered (not connected) until added', async () => {
    await put(join(home, '.cursor/mcp.json'), { mcpServers: { found: { command: process.execPath, args: [echoServerPath] } } });
    const mcp = new McpManager({ cwd, discovery: { homeDir: home, platform: 'linux' } });
    try {
      const discovered = await mcp.discover();
      expect(discovered.map((server) => server.id)).toEqual(['found']);
      expect(mcp.listServers()).toEqual([expect.objectContaining({ id: 'found', source: 'discovered', status: 'discovered', toolCount: 0 })]);
      expect(mcp.getStatus()).toMatchObject({ totalServers: 1, availableServers: 0, autoDiscoveredCount: 1 });
      await expect(mcp.executeTool('found', 'echo', { text: 'x' })).rejects.toBeInstanceOf(MCPConnectionError);
      expect(await mcp.connectAll()).toEqual({ connected: [], failed: [] });
      await mcp.addServer('found', (discovered[0] as (typeof discovered)[number]).config, { persist: false });
      expect(mcp.listServers()[0]).toMatchObject({ source: 'added', status: 'connected' });
      expect((await mcp.executeTool('found', 'echo', { text: 'activated' })).text).toBe('activated');
    } finally {
      await mcp.close();
    }
  });

  it('parses JSONC: comments and trailing commas outside strings', () => {
    expect(parseJsonc('{\n // c\n "a": "http://x//y", /* b */ "b": [1, 2,],\n}')).toEqual({ a: 'http://x//y', b: [1, 2] });
  });
});
