import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/adapters/mcp/mcp-manager.js';
import { MCPConnectionError, MCPToolError } from '../../../src/generation/errors/mcp-errors.js';
import { makeTempDir, startHttpFixture, type RunningHttpFixture } from './mcp-test-helpers.js';

describe('McpManager over streamable HTTP and SSE with the fixture server', () => {
  let http: RunningHttpFixture;
  let sse: RunningHttpFixture;
  let temp: { dir: string; cleanup: () => Promise<void> };
  let mcp: McpManager;

  beforeAll(async () => {
    temp = await makeTempDir('mcp-http');
    [http, sse] = await Promise.all([startHttpFixture('http', { REQUIRED_HEADER: 'let-me-in' }), startHttpFixture('sse')]);
    mcp = new McpManager({ cwd: temp.dir, toolTimeoutMs: 300 });
  });
  afterAll(async () => {
    await mcp?.close();
    await Promise.all([http?.stop(), sse?.stop()]);
    await temp?.cleanup();
  });

  it('connects over streamable HTTP, sending the configured headers', async () => {
    process.env['SWITCHYARD_MCP_TEST_TOKEN'] = 'let-me-in';
    try {
      await mcp.addServer(
        'remote',
        { transport: 'http', url: `${http.baseUrl}/mcp`, headers: { 'x-required': '${SWITCHYARD_MCP_TEST_TOKEN}' } },
        { persist: false },
      );
    } finally {
      delete process.env['SWITCHYARD_MCP_TEST_TOKEN'];
    }
    expect(mcp.listServers().find((server) => server.id === 'remote')).toMatchObject({ transport: 'http', status: 'connected', toolCount: 9 });
    expect(await mcp.executeTool('remote', 'echo', { text: 'over http' })).toMatchObject({ text: 'over http' });
    await expect(mcp.executeTool('remote', 'fail', {})).rejects.toBeInstanceOf(MCPToolError);
    await expect(mcp.executeTool('remote', 'slow', { ms: 10_000 })).rejects.toThrow(/timed out after 300 ms/);
  });

  it('fails with MCPConnectionError when the server refuses the headers', async () => {
    await expect(
      mcp.addServer('refused', { transport: 'http', url: `${http.baseUrl}/mcp`, headers: { 'x-required': 'wrong' } }, { persist: false }),
    ).rejects.toBeInstanceOf(MCPConnectionError);
    expect(mcp.listServers().find((server) => server.id === 'refused')?.status).toBe('failed');
  });

  it('connects over SSE', async () => {
    await mcp.addServer('legacy', { transport: 'sse', url: `${sse.baseUrl}/sse` }, { persist: false });
    expect(await mcp.executeTool('legacy', 'add', { a: 1, b: 2 })).toMatchObject({ text: '3', structuredContent: { sum: 3 } });
  });

  it('fails with MCPConnectionError when nothing listens', async () => {
    await expect(mcp.addServer('nobody', { transport: 'http', url: 'http://127.0.0.1:9/mcp' }, { persist: false })).rejects.toBeInstanceOf(MCPConnectionError);
    const test = await mcp.testServer('nobody');
    expect(test.ok).toBe(false);
    expect(test.error).toMatch(/Cannot connect/);
  });

  it('reports a server that went away as MCPConnectionError, not a tool error', async () => {
    const doomed = await startHttpFixture('http');
    try {
      await mcp.addServer('doomed', { transport: 'http', url: `${doomed.baseUrl}/mcp` }, { persist: false });
      expect((await mcp.executeTool('doomed', 'echo', { text: 'alive' })).text).toBe('alive');
      await doomed.stop();
      await expect(mcp.executeTool('doomed', 'echo', { text: 'dead' })).rejects.toBeInstanceOf(MCPConnectionError);
    } finally {
      await doomed.stop();
    }
  });
});
