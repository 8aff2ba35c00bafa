import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/generation/tool-definition.js';
import { auditedTool, type ToolRun } from '../../../src/toolkit/tool-audit.js';
import { toolRunPayload } from '../../../src/toolkit/publish-tool-runs.js';
import { validateEvent } from '../../../src/events/validate-event.js';
import { createEvent } from '../../../src/events/event-envelope.js';

/** A tool run by a model during a merchant's call is recorded once, whatever its outcome; never its arguments. */
function tool(execute: ToolDefinition['execute']): ToolDefinition {
  return { name: 'readFile', description: 'reads', inputSchema: { type: 'object' }, source: 'built-in', execute };
}

const attribution = { merchantId: 'm1', requestId: 'req-1', surface: 'websocket' as const };

async function runOnce(definition: ToolDefinition, input: unknown): Promise<{ runs: ToolRun[]; outcome: unknown }> {
  const runs: ToolRun[] = [];
  const audited = auditedTool(definition, { category: 'built-in', owner: null, serverId: null }, attribution, (run) => runs.push(run));
  const outcome = await audited.execute(input, { toolCallId: 'call-1' }).catch((error: unknown) => error);
  return { runs, outcome };
}

describe('auditedTool', () => {
  it('records a success with the argument size and the call attribution', async () => {
    const { runs, outcome } = await runOnce(
      tool(async () => ({ success: true, content: 'file text' })),
      { path: 'secret-name.txt' },
    );
    expect(outcome).toEqual({ success: true, content: 'file text' });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      merchantId: 'm1',
      origin: 'generation',
      category: 'built-in',
      serverId: null,
      tool: 'readFile',
      outcome: 'success',
      errorCode: null,
      argumentBytes: JSON.stringify({ path: 'secret-name.txt' }).length,
      requestId: 'req-1',
      surface: 'websocket',
    });
    expect(JSON.stringify(runs)).not.toContain('secret-name');
  });

  it('records an answer of success:false as TOOL_FAILED and a thrown error by its code, passing both on unchanged', async () => {
    const failed = await runOnce(
      tool(async () => ({ success: false, error: 'outside the sandbox' })),
      {},
    );
    expect(failed.runs[0]).toMatchObject({ outcome: 'failure', errorCode: 'TOOL_FAILED' });
    expect(failed.outcome).toEqual({ success: false, error: 'outside the sandbox' });
    const thrown = await runOnce(
      tool(async () => {
        throw Object.assign(new Error('boom'), { code: 'MCP_CONNECTION' });
      }),
      {},
    );
    expect(thrown.runs[0]).toMatchObject({ outcome: 'failure', errorCode: 'MCP_CONNECTION' });
    expect((thrown.outcome as Error).message).toBe('boom');
  });

  it('makes a tool.executed event that passes the event schema', async () => {
    const { runs } = await runOnce(
      tool(async () => 'ok'),
      { a: 1 },
    );
    const event = createEvent('tool.executed', 'm1', toolRunPayload(runs[0] as ToolRun));
    expect(() => validateEvent(event)).not.toThrow();
    expect(() => validateEvent({ ...event, payload: { ...event.payload, arguments: { a: 1 } } })).toThrow();
  });
});
