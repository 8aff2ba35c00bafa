import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../src/adapters/toolkit/default-neurolink.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';
import { startHttpFixture, type RunningHttpFixture } from '../integration/mcp/mcp-test-helpers.js';

/**
 * `GET /api/mcp/gateway-tools` (the dashboard's MCP page): what /mcp serves the caller, under the
 * same namespaced names, without opening an MCP session; a key sees its allow-list applied and
 * no merchant sees another's servers.
 */

let fixture: RunningHttpFixture;
let t: TestApp;
let keyA: string;
let keyB: string;

type Listing = { path: string; tools: { name: string; kind: string; server: string | null; owner: string | null }[] };
const list = async (headers: Record<string, string>): Promise<Listing> =>
  (await t.app.inject({ method: 'GET', url: '/api/mcp/gateway-tools', headers })).json() as Listing;

beforeAll(async () => {
  fixture = await startHttpFixture('http');
  const toolkit = new DefaultNeuroLink({ env: {}, cwd: mkdtempSync(join(tmpdir(), 'sytest-mcp-tools-')), warn: () => undefined });
  t = await createTestApp({ env: { MCP_ALLOW_PRIVATE_ENDPOINTS: '127.0.0.1/32' }, toolkit });
  keyA = (await createMerchant(t.app, 'mcp-tools-a')).apiKey;
  keyB = (await createMerchant(t.app, 'mcp-tools-b')).apiKey;
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/mcp/servers',
    headers: withKey(keyA),
    payload: { name: 'docs', url: `${fixture.baseUrl}/mcp` },
  });
  expect(created.statusCode, created.body).toBe(201);
});
afterAll(async () => {
  await t?.close();
  await fixture?.stop();
});

describe('GET /api/mcp/gateway-tools', () => {
  it("lists the merchant's server tools and the built-in ones under their /mcp names, and none of them to another merchant", async () => {
    const a = await list(withKey(keyA));
    expect(a.path).toBe('/mcp');
    expect(a.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'docs__echo', kind: 'mcp', server: 'docs', owner: 'merchant' }),
        expect.objectContaining({ name: 'switchyard__getCurrentTime', kind: 'built-in', server: null, owner: null }),
      ]),
    );
    const b = await list(withKey(keyB));
    expect(b.tools.some((tool) => tool.server === 'docs')).toBe(false);
    expect(b.tools.some((tool) => tool.name === 'switchyard__getCurrentTime')).toBe(true);
  });

  it("applies a key's allow-list, as /mcp does", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api-key/create',
      headers: withKey(keyA),
      payload: { merchant_id: 'mcp-tools-a', mcp: { allowed_tools: ['docs__*'] } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const narrowed = await list(withKey((created.json() as { api_key: string }).api_key));
    expect(narrowed.tools.length).toBeGreaterThan(0);
    expect(narrowed.tools.every((tool) => tool.name.startsWith('docs__'))).toBe(true);
  });
});
