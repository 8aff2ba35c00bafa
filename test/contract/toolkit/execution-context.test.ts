import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { type ExecutionContext, InvalidRequestError, MCPToolError, TimeoutError, VERSION } from '../../../src/index.js';
import type { ToolCallContext } from '../../../src/generation/tool-definition.js';
import { type FakeHttpServer, type RecordedRequest, startFakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion } from '../../fixtures/providers/openai-wire.js';

/*
 * Issue 26, interface leftovers: ExecutionContext on executeTool / executeMCPTool (timeout,
 * retries, permissions, ids handed to the tool and to an MCP server as `_meta`, inapplicable
 * fields refused) and ToolInfo's usage fields from real counts, over the real toolkit, a real MCP
 * server (stdio fixture) and a local fake speaking OpenAI's wire for the model-called path.
 */

const contextServerPath = fileURLToPath(new URL('../../fixtures/mcp/context-server.ts', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'toolkit-exec-context-'));

function answer(request: RecordedRequest) {
  const body = request.body as { model: string; messages: { role: string }[] };
  if (body.messages.some((message) => message.role === 'tool')) return chatCompletion({ model: body.model, content: 'It is 4.' });
  return chatCompletion({ model: body.model, toolCalls: [{ id: 'call_1', name: 'calculateMath', arguments: { expression: '2+2' } }] });
}

let provider: FakeHttpServer;
beforeAll(async () => {
  provider = await startFakeHttpServer(answer);
});
afterAll(async () => {
  await provider.close();
  rmSync(workDir, { recursive: true, force: true });
});

const toolkit = () => new DefaultNeuroLink({ cwd: workDir, env: { OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${provider.url}/v1` } });

describe('ExecutionContext on executeTool', () => {
  it('abandons a tool after context.timeout with a TimeoutError carrying it, and aborts the tool', async () => {
    const neurolink = toolkit();
    let aborted = false;
    neurolink.registerTool('waitForever', {
      description: 'Answers only when aborted',
      execute: (_args: never, context?: ToolCallContext) =>
        new Promise((resolve) =>
          context?.abortSignal?.addEventListener('abort', () => {
            aborted = true;
            resolve('aborted');
          }),
        ),
    });
    const error = await neurolink.executeTool('waitForever', {}, { context: { timeout: '50ms' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeout).toBe(50);
    expect((error as Error).message).toMatch(/tool "waitForever" timed out after 50 ms/);
    expect(aborted).toBe(true);
  });

  it('runs a throwing tool again up to context.retries times, and counts every run', async () => {
    const neurolink = toolkit();
    let calls = 0;
    neurolink.registerTool('flaky', {
      description: 'Throws twice, then answers',
      execute: () => {
        calls += 1;
        if (calls <= 2) throw new Error(`attempt ${calls} failed`);
        return `ok on ${calls}`;
      },
    });
    // A custom tool reports a throw as `{ success: false }`: that is a failed try too.
    expect(await neurolink.executeTool('flaky', {}, { context: { retries: 1 } })).toEqual({ success: false, error: 'attempt 2 failed' });
    calls = 0;
    expect(JSON.stringify(await neurolink.executeTool('flaky', {}, { context: { retries: 2 } }))).toContain('ok on 3');
    const info = (await neurolink.getAllAvailableTools()).find((tool) => tool.name === 'flaky');
    expect(info?.usageCount).toBe(5);
  });

  it('refuses a tool context.permissions does not name, before it runs', async () => {
    const neurolink = toolkit();
    const context: ExecutionContext = { permissions: ['tool:getCurrentTime'] };
    const error = await neurolink.executeTool('calculateMath', { expression: '1+1' }, { context }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).option).toBe('context.permissions');
    expect((error as Error).message).toMatch(/tool "calculateMath" is not allowed by context.permissions/);
    expect(await neurolink.executeTool('getCurrentTime', {}, { context })).toMatchObject({ success: true });
    expect(await neurolink.executeTool('calculateMath', { expression: '1+1' }, { context: { permissions: ['built-in:*'] } })).toMatchObject({ success: true });
    const calculate = (await neurolink.getAllAvailableTools()).find((tool) => tool.name === 'calculateMath');
    expect(calculate?.usageCount).toBe(1);
  });

  it('hands the ids to the tool as ToolCallContext.execution', async () => {
    const neurolink = toolkit();
    neurolink.registerTool('whoami', {
      description: 'Answers its execution context',
      execute: (_args: never, context?: ToolCallContext) => context?.execution,
    });
    const result = await neurolink.executeTool(
      'whoami',
      {},
      { context: { sessionId: 's-1', userId: 'u-1', correlationId: 'corr-1', requestId: 'req-1', environment: 'test', metadata: { team: 'pay' } } },
    );
    expect(result).toEqual({ sessionId: 's-1', userId: 'u-1', correlationId: 'corr-1', requestId: 'req-1', environment: 'test', metadata: { team: 'pay' } });
  });

  it.each([
    ['aiProvider', { aiProvider: 'openai' }, /context.aiProvider does not apply to a tool run/],
    ['priority', { priority: 'high' }, /context.priority does not apply to a tool run/],
    ['cacheOptions', { cacheOptions: { ttl: 60 } }, /context.cacheOptions does not apply/],
    ['fallbackOptions', { fallbackOptions: { enabled: true } }, /context.fallbackOptions does not apply/],
    ['an unknown field', { tenant: 'x' }, /context.tenant is not an ExecutionContext field/],
    ['a bad timeout', { timeout: 'soon' }, /context.timeout/],
    ['too many retries', { retries: 9 }, /context.retries must be an integer from 0 to 5/],
  ])('refuses %s with a clear error instead of ignoring it', async (_label, context, message) => {
    const neurolink = toolkit();
    const error = await neurolink.executeTool('getCurrentTime', {}, { context: context as ExecutionContext }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toMatch(message);
    expect((await neurolink.getAllAvailableTools()).find((tool) => tool.name === 'getCurrentTime')?.usageCount).toBe(0);
  });
});

describe('ExecutionContext on executeMCPTool (real MCP server over stdio)', () => {
  let neurolink: DefaultNeuroLink;
  beforeAll(async () => {
    neurolink = new DefaultNeuroLink({ cwd: mkdtempSync(join(workDir, 'mcp-')), env: {} });
    await neurolink.addMCPServer('ctx', { command: process.execPath, args: [contextServerPath], transport: 'stdio' });
  });
  afterAll(async () => {
    await neurolink.close();
  });

  it('sends the ids to the server as the request _meta', async () => {
    const result = await neurolink.executeMCPTool('ctx', 'whoami', {}, { context: { correlationId: 'corr-9', requestId: 'req-9', sessionId: 'sess-9' } });
    expect(JSON.parse(result.text)).toMatchObject({ correlationId: 'corr-9', requestId: 'req-9', sessionId: 'sess-9' });
  });

  it('retries a failed call per context.retries', async () => {
    const result = await neurolink.executeMCPTool('ctx', 'flaky', {}, { context: { retries: 1 } });
    expect(result.text).toBe('ok after 2');
  });

  it('uses context.timeout as the tool-call timeout', async () => {
    const error = await neurolink.executeMCPTool('ctx', 'hang', {}, { context: { timeout: 100 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MCPToolError);
    expect((error as Error).message).toMatch(/timed out after 100 ms/);
  });

  it('refuses a server the permissions do not name', async () => {
    await expect(neurolink.executeMCPTool('ctx', 'whoami', {}, { context: { permissions: ['mcp:other'] } })).rejects.toThrow(
      /tool "whoami" is not allowed by context.permissions/,
    );
    expect(JSON.parse((await neurolink.executeMCPTool('ctx', 'whoami', {}, { context: { permissions: ['mcp:ctx'] } })).text)).toEqual({});
  });

  it('counts MCP runs in ToolInfo, direct and through executeTool alike', async () => {
    const before = (await neurolink.getAllAvailableTools()).find((tool) => tool.name === 'whoami');
    await neurolink.executeTool('whoami', {}, { context: { requestId: 'via-execute-tool' } });
    const after = (await neurolink.getAllAvailableTools()).find((tool) => tool.name === 'whoami');
    expect(before?.usageCount).toBe(2);
    expect(after?.usageCount).toBe(3);
    expect(after?.category).toBe('mcp');
    expect(after?.version).toBeUndefined();
  });
});

describe('ToolInfo usage fields from real counts', () => {
  it('starts at zero, then reports count, last use and mean time of direct and model-called runs', async () => {
    const neurolink = toolkit();
    neurolink.registerTool('stamp', {
      description: 'Answers a fixed stamp',
      execute: () => 'stamped',
      metadata: { version: '2.1.0' },
      requiresConfirmation: true,
    });
    const fresh = await neurolink.getAllAvailableTools();
    const calculateBefore = fresh.find((tool) => tool.name === 'calculateMath');
    expect(calculateBefore).toMatchObject({ usageCount: 0, averageExecutionTime: 0, version: VERSION, capabilities: ['direct-execution', 'model-callable'] });
    expect(calculateBefore?.lastUsed).toBeUndefined();
    expect(fresh.find((tool) => tool.name === 'stamp')).toMatchObject({
      version: '2.1.0',
      capabilities: ['direct-execution', 'model-callable', 'requires-confirmation'],
    });

    const startedAt = Date.now();
    await neurolink.executeTool('calculateMath', { expression: '3*3' });
    const generated = await neurolink.generate({ input: { text: 'what is 2+2?' }, provider: 'openai' });
    expect(generated.content).toBe('It is 4.');
    await neurolink.executeTool('stamp', {}, { confirm: true });

    const tools = await neurolink.getAllAvailableTools();
    const calculate = tools.find((tool) => tool.name === 'calculateMath');
    expect(calculate?.usageCount).toBe(2);
    expect(calculate?.averageExecutionTime).toBeGreaterThanOrEqual(0);
    expect(Date.parse(calculate?.lastUsed ?? '')).toBeGreaterThanOrEqual(startedAt - 1);
    expect(tools.find((tool) => tool.name === 'stamp')?.usageCount).toBe(1);
    expect(tools.find((tool) => tool.name === 'readFile')?.usageCount).toBe(0);
    // Per instance: a new NeuroLink starts again at zero.
    expect((await toolkit().getAllAvailableTools()).find((tool) => tool.name === 'calculateMath')?.usageCount).toBe(0);
  });
});
