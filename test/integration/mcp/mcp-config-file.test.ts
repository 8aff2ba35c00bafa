import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMcpConfigFile, updateMcpConfigServer } from '../../../src/adapters/mcp/mcp-config-file.js';
import { McpManager } from '../../../src/adapters/mcp/mcp-manager.js';
import { MCPConfigurationError } from '../../../src/generation/errors/mcp-errors.js';
import { echoStdioConfig, echoServerPath, makeTempDir } from './mcp-test-helpers.js';

describe('.mcp-config.json persistence', () => {
  let temp: { dir: string; cleanup: () => Promise<void> };
  let configPath: string;
  const managers: McpManager[] = [];
  const manager = (options: ConstructorParameters<typeof McpManager>[0] = {}): McpManager => {
    const created = new McpManager({ cwd: temp.dir, ...options });
    managers.push(created);
    return created;
  };
  const readJson = async (): Promise<Record<string, unknown>> => JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>;

  beforeEach(async () => {
    temp = await makeTempDir('mcp-config');
    configPath = join(temp.dir, '.mcp-config.json');
  });
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.close()));
    await temp.cleanup();
  });

  it('round-trips: addServer writes the file, a new manager loads and connects it, removeServer deletes it', async () => {
    const first = manager();
    await first.addServer('echo', echoStdioConfig({ env: { TOKEN: '${SOME_TOKEN}' }, timeoutMs: 5000 }));
    expect(await readJson()).toEqual({
      mcpServers: { echo: { transport: 'stdio', command: process.execPath, args: [echoServerPath], env: { TOKEN: '${SOME_TOKEN}' }, timeout: 5000 } },
    });
    expect((await stat(configPath)).mode & 0o777).toBe(0o600);
    await first.close();

    const second = manager();
    expect(await second.loadConfig()).toEqual({ servers: ['echo'], errors: [] });
    expect(second.listServers()[0]).toMatchObject({ id: 'echo', source: 'config', status: 'disconnected' });
    expect(await second.connectAll()).toEqual({ connected: ['echo'], failed: [] });
    expect((await second.executeTool('echo', 'echo', { text: 'persisted' })).text).toBe('persisted');
    await second.removeServer('echo');
    expect(await readJson()).toEqual({ mcpServers: {} });
    expect(second.listServers()).toEqual([]);
    expect((await readdir(temp.dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps unknown top-level and per-server keys, and drops stale modelled ones', async () => {
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: { echo: { command: 'old', url: 'http://stale', autoRestart: true, healthCheckInterval: 30 } },
        autoDiscovery: { enabled: true, autoRegister: true },
        defaultRegistry: { enabled: true },
      }),
    );
    await updateMcpConfigServer(configPath, 'echo', { transport: 'stdio', command: 'node', args: ['server.js'] });
    await updateMcpConfigServer(configPath, 'other', {
      transport: 'http',
      url: 'https://example.test/mcp',
      headers: { Authorization: 'Bearer ${T}' },
      enabled: false,
    });
    expect(await readJson()).toEqual({
      mcpServers: {
        echo: { autoRestart: true, healthCheckInterval: 30, transport: 'stdio', command: 'node', args: ['server.js'] },
        other: { transport: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${T}' }, enabled: false },
      },
      autoDiscovery: { enabled: true, autoRegister: true },
      defaultRegistry: { enabled: true },
    });
  });

  it('serialises concurrent writes so none is lost', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => updateMcpConfigServer(configPath, `s${i}`, { transport: 'stdio', command: 'node', args: [String(i)] })),
    );
    expect(Object.keys((await readJson())['mcpServers'] as object).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `s${i}`).sort());
  });

  it('names the file when its JSON is malformed, and treats a missing file as empty', async () => {
    expect(await readMcpConfigFile(configPath)).toMatchObject({ exists: false, servers: {} });
    await writeFile(configPath, '{ "mcpServers": { "a": ');
    const error = await manager()
      .loadConfig()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MCPConfigurationError);
    expect((error as Error).message).toContain(configPath);
    expect((error as Error).message).toMatch(/Malformed JSON/);
    await expect(manager().addServer('x', echoStdioConfig())).rejects.toThrow(/Malformed JSON/);
  });

  it('reports invalid entries without hiding valid ones, and applies the global block', async () => {
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: {
          good: { command: process.execPath, args: [echoServerPath], transport: 'stdio' },
          second: { command: process.execPath, args: [echoServerPath] },
          nocommand: { transport: 'stdio', args: [] },
          badtransport: { command: 'x', transport: 'websocket' },
          off: { command: process.execPath, args: [echoServerPath], enabled: false },
        },
        // A generous connect timeout: a stdio server starting at load 30 took longer than 7 s.
        global: { timeout: 60_000, maxConnections: 1, logLevel: 'info' },
      }),
    );
    const mcp = manager();
    const loaded = await mcp.loadConfig();
    expect(loaded.servers).toEqual(['good', 'second', 'off']);
    expect(loaded.errors.map((entry) => entry.id)).toEqual(['nocommand', 'badtransport']);
    expect(loaded.errors[0]?.error).toMatch(/command is required/);
    expect(loaded.errors[1]?.error).toMatch(/transport must be/);
    expect(mcp.getStatus().maxConnections).toBe(1);
    const result = await mcp.connectAll();
    expect(result.connected).toHaveLength(1);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]?.error).toMatch(/connection limit reached \(1 open\)/);
    expect(mcp.listServers().find((server) => server.id === 'off')).toMatchObject({ enabled: false, status: 'disconnected' });
  });

  it('does not persist when told not to', async () => {
    await manager().addServer('echo', echoStdioConfig(), { persist: false });
    await expect(stat(configPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
