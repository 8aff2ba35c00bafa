import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedLookup, guardedFetch } from '../../../src/adapters/mcp/guarded-fetch.js';
import { defaultToolkitAdapters } from '../../../src/adapters/toolkit/default-neurolink.js';
import { parseEndpointPolicy, publicOnly } from '../../../src/generation/mcp/endpoint-policy.js';
import { startHttpFixture, type RunningHttpFixture } from './mcp-test-helpers.js';

/**
 * The connect-time half of the SSRF guard for merchant MCP servers: every request's URL is checked,
 * names are resolved and every address checked by the socket's own lookup (the connection goes to
 * the checked address: no second, rebindable resolution), and redirects are refused. Real sockets,
 * the system resolver (`localhost` resolves to loopback on every host), a real MCP server.
 */

let redirector: Server;
let redirectorUrl: string;
let mcp: RunningHttpFixture;

beforeAll(async () => {
  // Answers every request with a redirect to the cloud metadata address.
  redirector = createServer((_request, response) => {
    response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
    response.end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/`;
  mcp = await startHttpFixture('http');
});
afterAll(async () => {
  await new Promise<void>((resolve) => redirector.close(() => resolve()));
  await mcp?.stop();
});

function lookupOf(policy: ReturnType<typeof parseEndpointPolicy>, host: string, all: boolean) {
  return new Promise<{ error: Error | null; address: unknown }>((resolve) =>
    checkedLookup(policy)(host, { all }, (error, address) => resolve({ error: error as Error | null, address })),
  );
}

describe('checkedLookup', () => {
  it('refuses a name that resolves to loopback under the default policy, naming the address', async () => {
    const { error } = await lookupOf(publicOnly, 'localhost', true);
    expect(error?.message).toMatch(/MCP endpoint refused: localhost \((127\.0\.0\.1|::1)\) is a loopback address/);
  });

  it('hands the socket exactly the addresses it checked when they are allowed', async () => {
    const { error, address } = await lookupOf(parseEndpointPolicy('127.0.0.0/8,::1/128'), 'localhost', true);
    expect(error).toBeNull();
    const addresses = (address as { address: string }[]).map((entry) => entry.address);
    expect(addresses.length).toBeGreaterThan(0);
    for (const entry of addresses) expect(['127.0.0.1', '::1']).toContain(entry);
  });

  it('refuses the whole name when one of its addresses is not allowed', async () => {
    // localhost is 127.0.0.1 (and ::1 on most hosts): allowing only ::1 leaves 127.0.0.1 refused.
    const { error } = await lookupOf(parseEndpointPolicy('::1/128'), 'localhost', true);
    expect(error?.message).toMatch(/localhost \(127\.0\.0\.1\) is a loopback address/);
  });
});

describe('guardedFetch', () => {
  it('refuses IP-literal loopback in any spelling before connecting', async () => {
    const port = new URL(redirectorUrl).port;
    for (const url of [redirectorUrl, `http://2130706433:${port}/`, `http://0177.0.0.1:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`]) {
      await expect(guardedFetch(publicOnly)(url), url).rejects.toThrow(/MCP endpoint refused: (127\.0\.0\.1|::ffff:7f00:1) is a loopback address/);
    }
  });

  it('checks the name at connect time, after DNS: localhost passes the URL check when ::1 is allowed, but connects nowhere', async () => {
    const port = new URL(redirectorUrl).port;
    await expect(guardedFetch(parseEndpointPolicy('::1/128'))(`http://localhost:${port}/`)).rejects.toThrow(/localhost \(127\.0\.0\.1\) is a loopback address/);
  });

  it('refuses redirects (a redirect could name any host)', async () => {
    await expect(guardedFetch(parseEndpointPolicy('127.0.0.1/32'))(redirectorUrl)).rejects.toThrow();
  });

  it('reaches an allowed address', async () => {
    const response = await guardedFetch(parseEndpointPolicy('127.0.0.0/8,::1/128'))(`${mcp.baseUrl.replace('127.0.0.1', 'localhost')}/mcp`, { method: 'GET' });
    expect(response.status).toBeGreaterThanOrEqual(200);
  });
});

describe("a merchant's MCP servers (the adapters' manager)", () => {
  it('connects to an allowed endpoint and fails the connect of a refused one with the reason, never reaching it', async () => {
    const allowed = defaultToolkitAdapters.createMerchantMcpServers!(parseEndpointPolicy('127.0.0.1/32'));
    const refused = defaultToolkitAdapters.createMerchantMcpServers!(publicOnly);
    try {
      await allowed.addServer('echo', { transport: 'http', url: `${mcp.baseUrl}/mcp` }, { persist: false });
      expect((await allowed.executeTool('echo', 'echo', { text: 'pinned' })).text).toBe('pinned');
      await expect(refused.addServer('echo', { transport: 'http', url: `${mcp.baseUrl}/mcp` }, { persist: false })).rejects.toThrow(
        /MCP endpoint refused: 127\.0\.0\.1 is a loopback address/,
      );
      expect(refused.listServers()[0]).toMatchObject({ id: 'echo', status: 'failed' });
    } finally {
      await allowed.close();
      await refused.close();
    }
  });

  it('expands no ${VAR} from the process environment into a merchant’s headers', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(String(request.headers['x-leak'] ?? ''));
      response.writeHead(404);
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const servers = defaultToolkitAdapters.createMerchantMcpServers!(parseEndpointPolicy('127.0.0.1/32'));
    try {
      await servers
        .addServer(
          'leak',
          { transport: 'http', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, headers: { 'x-leak': '${PATH}' } },
          { persist: false },
        )
        .catch(() => undefined);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((value) => value === '')).toBe(true);
    } finally {
      await servers.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
