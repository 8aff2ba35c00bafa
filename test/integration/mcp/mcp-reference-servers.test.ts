import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/adapters/mcp/mcp-manager.js';
import { MCPToolError } from '../../../src/generation/errors/mcp-errors.js';
import { makeTempDir, repoRoot } from './mcp-test-helpers.js';

const everything = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const filesystem = join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

describe('McpManager against the official reference servers (stdio)', () => {
  let temp: { dir: string; cleanup: () => Promise<void> };
  let root: { dir: string; cleanup: () => Promise<void> };
  let mcp: McpManager;

  beforeAll(async () => {
    temp = await makeTempDir('mcp-ref');
    root = await makeTempDir('mcp-fs-root');
    await writeFile(join(root.dir, 'hello.txt'), 'hello from the root\n');
    mcp = new McpManager({ cwd: temp.dir, connectTimeoutMs: 20_000 });
    await Promise.all([
      mcp.addServer('everything', { command: process.execPath, args: [everything, 'stdio'] }, { persist: false }),
      mcp.addServer('filesystem', { command: process.execPath, args: [filesystem, root.dir] }, { persist: false }),
    ]);
  });
  afterAll(async () => {
    await mcp?.close();
    await Promise.all([temp?.cleanup(), root?.cleanup()]);
  });

  it('server-everything: lists tools and calls echo and get-sum', async () => {
    const info = mcp.listServers().find((server) => server.id === 'everything');
    expect(info?.status).toBe('connected');
    expect(info?.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect((await mcp.executeTool('everything', 'echo', { message: 'ping' })).text).toBe('Echo: ping');
    expect((await mcp.executeTool('everything', 'get-sum', { a: 19, b: 23 })).text).toMatch(/42/);
    await expect(mcp.executeTool('everything', 'get-sum', { a: 'x' })).rejects.toBeInstanceOf(MCPToolError);
  });

  it('server-filesystem: reads and writes inside its root and refuses outside it', async () => {
    const tools = (await mcp.listTools()).filter((tool) => tool.source === 'filesystem').map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['read_text_file', 'write_file', 'list_directory']));
    const read = await mcp.executeTool('filesystem', 'read_text_file', { path: join(root.dir, 'hello.txt') });
    expect(read.text).toContain('hello from the root');
    await mcp.executeTool('filesystem', 'write_file', { path: join(root.dir, 'new.txt'), content: 'written via MCP' });
    expect(await readFile(join(root.dir, 'new.txt'), 'utf8')).toBe('written via MCP');
    const outside = await mcp.executeTool('filesystem', 'read_text_file', { path: '/etc/hostname' }).catch((error: unknown) => error);
    expect(outside).toBeInstanceOf(MCPToolError);
    expect((outside as Error).message).toMatch(/denied|outside|not allowed/i);
  });

  it('tools of both servers come back as one ToolDefinition list with plain names where unique', async () => {
    const tools = await mcp.listTools();
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo?.source).toBe('everything');
    expect(await echo?.execute({ message: 'def' }, { toolCallId: 't' })).toMatchObject({ success: true, text: 'Echo: def' });
    expect(mcp.getStatus().totalTools).toBe(tools.length);
  });
});
