import { describe, expect, it } from 'vitest';
import { gatewayToolName, isToolAllowed, mcpToolsChangedKey, merchantOfToolsChangedKey } from '../../../src/toolkit/mcp-gateway.js';
import { parseKeyPolicy } from '../../../src/governance/parse-key-policy.js';

describe('MCP gateway tool names', () => {
  it('namespaces a tool by its server, keeping MCP’s tool-name alphabet and 128 characters', () => {
    expect(gatewayToolName('docs', 'search')).toBe('docs__search');
    expect(gatewayToolName('docs.v2', 'find page')).toBe('docs.v2__find_page');
    expect(gatewayToolName('s', 'x'.repeat(200))).toHaveLength(128);
  });

  it('lets every tool through without an allow-list, and only exact names or * prefixes with one', () => {
    expect(isToolAllowed(undefined, 'wiki__echo')).toBe(true);
    expect(isToolAllowed([], 'wiki__echo')).toBe(false);
    expect(isToolAllowed(['docs__*'], 'docs__echo')).toBe(true);
    expect(isToolAllowed(['docs__*'], 'docs2__echo')).toBe(false);
    expect(isToolAllowed(['docs__echo'], 'docs__echo2')).toBe(false);
    expect(isToolAllowed(['*'], 'anything')).toBe(true);
  });

  it('reads back the merchant of a tools-changed key and nothing from other keys', () => {
    expect(merchantOfToolsChangedKey(mcpToolsChangedKey('shop:a'))).toBe('shop:a');
    expect(merchantOfToolsChangedKey('config:shop:a:mcpServers')).toBeUndefined();
  });
});

describe('a key policy’s MCP allow-list', () => {
  it('is read from mcp.allowed_tools', () => {
    expect(parseKeyPolicy(undefined, undefined, { allowed_tools: ['docs__*', 'switchyard__getCurrentTime'] })).toEqual({
      ok: true,
      policy: { mcp: { allowedTools: ['docs__*', 'switchyard__getCurrentTime'] } },
    });
    expect(parseKeyPolicy(undefined, undefined, null)).toEqual({ ok: true, policy: {} });
  });

  it('refuses a malformed allow-list naming the field', () => {
    for (const [mcp, problem] of [
      [['docs__*'], 'mcp must be an object'],
      [{ allowed: [] }, 'mcp.allowed is not a field'],
      [{ allowed_tools: 'docs__*' }, 'mcp.allowed_tools must be an array'],
      [{ allowed_tools: ['docs echo'] }, 'mcp.allowed_tools entries'],
      [{ allowed_tools: ['do*cs'] }, 'mcp.allowed_tools entries'],
      [{ allowed_tools: Array.from({ length: 501 }, (_unused, index) => `t${index}`) }, 'at most 500'],
    ] as const) {
      const parsed = parseKeyPolicy(undefined, undefined, mcp);
      expect(parsed.ok, JSON.stringify(mcp)).toBe(false);
      if (!parsed.ok) expect(parsed.problem).toContain(problem);
    }
  });
});
