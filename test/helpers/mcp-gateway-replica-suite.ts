import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StateStore } from '../../src/ports/state-store.js';
import { createManualClock } from '../../src/time/clock.js';
import { startHttpFixture, type RunningHttpFixture } from '../integration/mcp/mcp-test-helpers.js';
import { createMerchant, createTestApp, withKey, type TestApp } from './test-app.js';

/** Two API replicas' views of one state store. */
export interface GatewayReplicaStores {
  readonly a: StateStore;
  readonly b: StateStore;
  dispose(): Promise<void>;
}

interface Replica {
  readonly app: TestApp;
  readonly url: URL;
}

/**
 * MCP gateway sessions across replicas (issue 39): a session initialised on replica one goes on on
 * replica two after replica one is gone (the stored handshake replayed into a fresh transport), a
 * server registered on one replica sends `tools/list_changed` to a session held by another, and a
 * session ended on one is refused 404 on the others. Real HTTP, the official MCP SDK client.
 */
export function mcpGatewayReplicaSuite(label: string, openStores: () => Promise<GatewayReplicaStores>): void {
  describe(`MCP gateway sessions across replicas (${label})`, () => {
    let stores: GatewayReplicaStores;
    let fixture: RunningHttpFixture;
    let one: Replica;
    let two: Replica;
    /** Replica one come back after its restart: a new app on the same store. */
    let three: Replica;
    let headers: Record<string, string>;
    const clock = createManualClock(Date.now());
    const env = { MCP_ALLOW_PRIVATE_ENDPOINTS: '127.0.0.1/32' };

    const start = async (state: StateStore): Promise<Replica> => {
      const app = await createTestApp({ state, clock, env });
      const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
      return { app, url: new URL(`${address}/mcp`) };
    };
    const client = async (replica: Replica, sessionId?: string): Promise<Client> => {
      const connected = new Client({ name: 'replica-test', version: '1.0.0' });
      await connected.connect(new StreamableHTTPClientTransport(replica.url, { requestInit: { headers }, ...(sessionId !== undefined ? { sessionId } : {}) }));
      return connected;
    };
    const register = (replica: Replica, name: string) =>
      replica.app.app.inject({ method: 'POST', url: '/api/mcp/servers', headers, payload: { name, url: `${fixture.baseUrl}/mcp` } });

    beforeAll(async () => {
      stores = await openStores();
      fixture = await startHttpFixture('http');
      one = await start(stores.a);
      two = await start(stores.b);
      headers = withKey((await createMerchant(one.app.app, 'mcp-gw-replicas')).apiKey);
      expect((await register(one, 'docs')).statusCode).toBe(201);
    });
    afterAll(async () => {
      await one?.app.close();
      await two?.app.close();
      await three?.app.close();
      await fixture?.stop();
      await stores?.dispose();
    });

    it('goes on with a session on replica two after replica one, which opened it, is gone', async () => {
      const first = await client(one);
      expect((await first.listTools()).tools.map((tool) => tool.name)).toContain('docs__echo');
      const sessionId = (first.transport as StreamableHTTPClientTransport).sessionId;
      expect(sessionId).toBeDefined();
      await one.app.close();

      const resumed = await client(two, sessionId);
      expect((resumed.transport as StreamableHTTPClientTransport).sessionId).toBe(sessionId);
      expect((await resumed.listTools()).tools.map((tool) => tool.name)).toContain('docs__echo');
      const echoed = (await resumed.callTool({ name: 'docs__echo', arguments: { text: 'after the restart' } })) as { content: unknown[] };
      expect(echoed.content).toEqual([{ type: 'text', text: 'after the restart' }]);

      // Replica one is back (a new process on the same store): it takes the session over too.
      three = await start(stores.a);
      const back = await client(three, sessionId);
      expect((await back.listTools()).tools.map((tool) => tool.name)).toContain('docs__add');

      // Ended on replica two: refused 404 everywhere, so the client starts a new session.
      await (resumed.transport as StreamableHTTPClientTransport).terminateSession();
      const refused = await fetch(three.url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId ?? '' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      });
      // Replica three still held a transport for it: the ended session is refused there too.
      expect([refused.status, ((await refused.json()) as { error: { code: number } }).error.code]).toEqual([404, -32001]);
      await first.close();
    });

    it('sends tools/list_changed to a session on replica two when a server is registered on another replica', async () => {
      let streamOpen!: () => void;
      const opened = new Promise<void>((resolve) => {
        streamOpen = resolve;
      });
      const watching: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if ((init?.method ?? 'GET') === 'GET' && response.status === 200) streamOpen();
        return response;
      };
      const watcher = new Client({ name: 'replica-watcher', version: '1.0.0' });
      await watcher.connect(new StreamableHTTPClientTransport(two.url, { requestInit: { headers }, fetch: watching }));
      const changed = new Promise<void>((resolve) => watcher.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
      await opened;
      expect((await register(three, 'wiki')).statusCode).toBe(201);
      await changed;
      expect((await watcher.listTools()).tools.map((tool) => tool.name)).toContain('wiki__echo');
      await watcher.close();
    });
  });
}
