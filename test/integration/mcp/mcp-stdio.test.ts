import { realpath } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { McpManager, type McpManagerOptions } from '../../../src/adapters/mcp/mcp-manager.js';
import { MCPConfigurationError, MCPConnectionError, MCPToolError } from '../../../src/generation/errors/mcp-errors.js';
import { echoStdioConfig, makeTempDir } from './mcp-test-helpers.js';

const ECHO_TOOLS = ['add', 'crash', 'cwd', 'echo', 'env', 'fail', 'pid', 'register', 'slow'];

describe('McpManager over stdio with the fixture server', () => {
  let temp: { dir: string; cleanup: () => Promise<void> };
  const managers: McpManager[] = [];
  // 60 s to start unless a test is about the start timeout: a stdio server is a Node process importing
  // the MCP SDK, and on a loaded machine with test files side by side that can take longer than 5 s.
  const manager = (options: McpManagerOptions = {}): McpManager => {
    const created = new McpManager({ cwd: temp.dir, connectTimeoutMs: 60_000, ...options });
    managers.push(created);
    return created;
  };

  beforeEach(async () => {
    temp = await makeTempDir('mcp-stdio');
  });
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.close()));
    await temp.cleanup();
  });

  it('connects, lists tools and calls them', async () => {
    const mcp = manager();
    await mcp.addServer('echo', echoStdioConfig(), { persist: false });
    const [info] = mcp.listServers();
    expect(info).toMatchObject({
      id: 'echo',
      name: 'echo',
      source: 'added',
      transport: 'stdio',
      status: 'connected',
      toolCount: 9,
      enabled: true,
      restarts: 0,
    });
    expect(info?.tools.map((tool) => tool.name).sort()).toEqual(ECHO_TOOLS);
    expect(await mcp.executeTool('echo', 'echo', { text: 'hello' })).toMatchObject({ text: 'hello', content: [{ type: 'text', text: 'hello' }] });
    expect(await mcp.executeTool('echo', 'add', { a: 2, b: 40 })).toMatchObject({ text: '42', structuredContent: { sum: 42 } });
  });

  it('reports the status shape the CLI and HTTP routes read', async () => {
    const mcp = manager();
    await mcp.addServer('echo', echoStdioConfig(), { persist: false });
    await expect(mcp.addServer('broken', { command: '/nonexistent/mcp-binary' }, { persist: false })).rejects.toBeInstanceOf(MCPConnectionError);
    const status = mcp.getStatus();
    expect(status).toMatchObject({ totalServers: 2, availableServers: 1, failedServers: 1, autoDiscoveredCount: 0, totalTools: 9, maxConnections: 10 });
    const broken = status.servers.find((server) => server.id === 'broken');
    expect(broken).toMatchObject({ status: 'failed', toolCount: 0 });
    expect(broken?.error).toMatch(/ENOENT/);
  });

  it('turns a tool error, an unknown tool and bad arguments into MCPToolError', async () => {
    const mcp = manager();
    await mcp.addServer('echo', echoStdioConfig(), { persist: false });
    const failure = await mcp.executeTool('echo', 'fail', {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MCPToolError);
    expect(failure).toMatchObject({ server: 'echo', tool: 'fail', code: 'MCP_TOOL' });
    expect((failure as Error).message).toMatch(/this tool always fails/);
    await expect(mcp.executeTool('echo', 'nope', {})).rejects.toThrow(/has no tool "nope".*echo/);
    const badArgs = await mcp.executeTool('echo', 'add', { a: 'two', b: 1 }).catch((error: unknown) => error);
    expect(badArgs).toBeInstanceOf(MCPToolError);
    await expect(mcp.executeTool('ghost', 'echo', {})).rejects.toBeInstanceOf(MCPConnectionError);
  });

  it('exposes tools as ToolDefinitions whose execute never throws', async () => {
    const mcp = manager();
    await mcp.addServer('echo', echoStdioConfig(), { persist: false });
    const tools = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(ECHO_TOOLS);
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo).toMatchObject({ source: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } });
    expect(await echo?.execute({ text: 'via definition' }, { toolCallId: 'c1' })).toMatchObject({ success: true, text: 'via definition' });
    const fail = tools.find((tool) => tool.name === 'fail');
    const failed = (await fail?.execute({}, { toolCallId: 'c2' })) as { success: boolean; error: string };
    expect(failed.success).toBe(false);
    expect(failed.error).toMatch(/always fails/);
    expect(await echo?.execute('not an object', { toolCallId: 'c3' })).toMatchObject({ success: false });
  });

  it('qualifies tool names that clash across servers and keeps them callable', async () => {
    const mcp = manager();
    await mcp.addServer('one', echoStdioConfig(), { persist: false });
    await mcp.addServer('two', echoStdioConfig(), { persist: false });
    const names = (await mcp.listTools()).map((tool) => tool.name);
    expect(names).toContain('one__echo');
    expect(names).toContain('two__echo');
    expect(names).not.toContain('echo');
    expect(await mcp.executeToolByName('two__echo', { text: 'x' })).toMatchObject({ text: 'x' });
    await expect(mcp.executeToolByName('echo', { text: 'x' })).rejects.toBeInstanceOf(MCPToolError);
  });

  it('times a slow tool out (and an abort ends it) while the server stays usable', async () => {
    const mcp = manager({ toolTimeoutMs: 250 });
    await mcp.addServer('echo', echoStdioConfig(), { persist: false });
    const timedOut = await mcp.executeTool('echo', 'slow', { ms: 10_000 }).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(MCPToolError);
    expect((timedOut as Error).message).toMatch(/timed out after 250 ms/);
    const controller = new AbortController();
    const call = mcp.executeTool('echo', 'slow', { ms: 10_000 }, { signal: controller.signal, timeoutMs: 20_000 });
    controller.abort();
    await expect(call).rejects.toThrow(/aborted/);
    expect(await mcp.executeTool('echo', 'slow', { ms: 1 })).toMatchObject({ text: 'slept 1' });
  });

  it('uses the per-server timeout from the config', async () => {
    const mcp = manager({ toolTimeoutMs: 60_000 });
    await mcp.addServer('echo', echoStdioConfig({ timeoutMs: 200 }), { persist: false });
    await expect(mcp.executeTool('echo', 'slow', { ms: 10_000 })).rejects.toThrow(/timed out after 200 ms/);
  });

  it('passes env (with ${VAR} expanded) over a minimal environment, and honours cwd', async () => {
    process.env['SWITCHYARD_MCP_TEST_GREETING'] = 'hi from parent';
    process.env['SWITCHYARD_MCP_TEST_SECRET'] = 'must-not-leak';
    try {
      const mcp = manager();
      await mcp.addServer('echo', echoStdioConfig({ env: { GREETING: '${SWITCHYARD_MCP_TEST_GREETING}', LITERAL: '$${NOT_EXPANDED}' }, cwd: temp.dir }), {
        persist: false,
      });
      expect((await mcp.executeTool('echo', 'env', { name: 'GREETING' })).text).toBe('hi from parent');
      expect((await mcp.executeTool('echo', 'env', { name: 'LITERAL' })).text).toBe('${NOT_EXPANDED}');
      expect((await mcp.executeTool('echo', 'env', { name: 'SWITCHYARD_MCP_TEST_SECRET' })).text).toBe('<unset>');
      expect((await mcp.executeTool('echo', 'env', { name: 'PATH' })).text).not.toBe('<unset>');
      expect((await mcp.executeTool('echo', 'cwd', {})).text).toBe(await realpath(temp.dir));
    } finally {
      delete process.env['SWITCHYARD_MCP_TEST_GREETING'];
      delete process.env['SWITCHYARD_MCP_TEST_SECRET'];
    }
  });

  it('restarts a crashed server; a call made during the restart waits for it', async () => {
    const mcp = manager({ restart: { maxRestarts: 2, backoffMs: 50 } });
    await mcp.addServer('echo', echoStdioConfig(), { persist: false });
    const firstPid = (await mcp.executeTool('echo', 'pid', {})).text;
    const crash = await mcp.executeTool('echo', 'crash', {}).catch((error: unknown) => error);
    expect(crash).toBeInstanceOf(MCPConnectionError);
    expect(mcp.listServers()[0]).toMatchObject({ status: 'disconnected', restarts: 1 });
    const secondPid = (await mcp.executeTool('echo', 'pid', {})).text;
    expect(secondPid).toMatch(/^\d+$/);
    expect(secondPid).not.toBe(firstPid);
    expect(mcp.listServers()[0]).toMatchObject({ status: 'connected', restarts: 1, toolCount: 9 });
  });

  it('marks a server failed once its restarts are used up', async () => {
    const mcp = manager({ restart: { maxRestarts: 0, backoffMs: 10 } });
    await mcp.addServer('echo', echoStdioConfig(), { persist: false });
    await expect(mcp.executeTool('echo', 'crash', {})).rejects.toBeInstanceOf(MCPConnectionError);
    const [info] = mcp.listServers();
    expect(info?.status).toBe('failed');
    expect(info?.error).toMatch(/down after 0 restart/);
  });

  it('refuses connections beyond maxConnections with a clear error, and frees the slot on remove', async () => {
    const mcp = manager({ maxConnections: 1 });
    await mcp.addServer('first', echoStdioConfig(), { persist: false });
    const refused = await mcp.addServer('second', echoStdioConfig(), { persist: false }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MCPConnectionError);
    expect((refused as Error).message).toMatch(/connection limit reached \(1 open\)/);
    expect(mcp.listServers().find((server) => server.id === 'second')?.status).toBe('failed');
    await mcp.removeServer('first', { persist: false });
    const result = await mcp.connectAll();
    expect(result).toEqual({ connected: ['second'], failed: [] });
    expect(mcp.getStatus().availableServers).toBe(1);
  });

  it('fails to connect with the reason: missing binary, early exit with stderr, no handshake', async () => {
    const mcp = manager();
    await expect(mcp.addServer('missing', { command: '/nonexistent/mcp-binary' }, { persist: false })).rejects.toThrow(/ENOENT/);
    // The exit must be seen, not a handshake timeout that a slow Node start on a loaded machine can beat it to.
    await expect(
      mcp.addServer('exits', { command: process.execPath, args: ['-e', "console.error('marker-before-exit'); process.exit(1)"] }, { persist: false }),
    ).rejects.toThrow(/marker-before-exit/);
    const impatient = manager({ connectTimeoutMs: 400 });
    await expect(impatient.addServer('mute', { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }, { persist: false })).rejects.toThrow(
      /no handshake within 400 ms/,
    );
  });

  it('rejects invalid configs naming the field', async () => {
    const mcp = manager();
    await expect(mcp.addServer('x', { transport: 'stdio' }, { persist: false })).rejects.toThrow(/"x": command is required/);
    await expect(mcp.addServer('x', { transport: 'http' }, { persist: false })).rejects.toThrow(/url is required/);
    await expect(mcp.addServer('x', { transport: 'sse', url: 'ftp://host/x' }, { persist: false })).rejects.toThrow(/url must use http/);
    await expect(mcp.addServer('x', { command: 'node', args: [1 as unknown as string] }, { persist: false })).rejects.toThrow(
      /args must be an array of strings/,
    );
    await expect(mcp.addServer('x', { command: 'node', env: { A: 1 as unknown as string } }, { persist: false })).rejects.toThrow(/env\.A must be a string/);
    await expect(mcp.addServer('x', { command: 'node', timeoutMs: -1 }, { persist: false })).rejects.toThrow(/timeoutMs must be/);
    await expect(mcp.addServer('bad id!', { command: 'node' }, { persist: false })).rejects.toBeInstanceOf(MCPConfigurationError);
    expect(mcp.listServers()).toEqual([]);
  });

  it('tests a connected server by ping and an unconnected one with a throwaway connection', async () => {
    const mcp = manager();
    await mcp.addServer('echo', echoStdioConfig(), { persist: false });
    await mcp.addServer('off', echoStdioConfig({ enabled: false }), { persist: false });
    await expect(mcp.testServer('echo')).resolves.toMatchObject({ ok: true, toolCount: 9 });
    const off = await mcp.testServer('off');
    expect(off).toMatchObject({ ok: true, toolCount: 9 });
    expect(off.latencyMs).toBeGreaterThanOrEqual(0);
    expect(mcp.listServers().find((server) => server.id === 'off')?.status).toBe('disconnected');
    await expect(mcp.executeTool('off', 'echo', { text: 'x' })).rejects.toThrow(/disabled/);
    await expect(mcp.testServer('ghost')).rejects.toBeInstanceOf(MCPConfigurationError);
  });

  it('picks up tools the server adds at run time (tools/list_changed)', async () => {
    const mcp = manager();
    await mcp.addServer('echo', echoStdioConfig(), { persist: false });
    expect((await mcp.executeTool('echo', 'register', { name: 'late_tool' })).text).toBe('registered late_tool');
    await vi.waitFor(() => expect(mcp.listServers()[0]?.toolCount).toBe(10), { timeout: 5000, interval: 20 });
    expect((await mcp.listTools()).map((tool) => tool.name)).toContain('late_tool');
    expect((await mcp.executeToolByName('late_tool', {})).text).toBe('late_tool');
  });
});
