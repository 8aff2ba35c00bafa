import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../src/time/clock.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../../helpers/test-app.js';
import { redisReplicas, type ReplicaPair } from '../adapters/redis-replicas.js';
import { startHttpFixture, type RunningHttpFixture } from './mcp-test-helpers.js';

/**
 * A merchant's MCP servers on real Redis (issue 28): two API replicas, each with its own connections
 * and its own cache in front (as the runtime composes them), see the same registrations; a server
 * registered on one is listed and run on the other, removed on the other and gone on the first.
 * A real MCP server over HTTP on loopback (allowed by the operator in this test).
 */
const replicas = redisReplicas('mcp-replica');

describe("a merchant's MCP servers across two replicas on Redis", () => {
  let stores: ReplicaPair;
  let mcp: RunningHttpFixture;
  let one: TestApp;
  let two: TestApp;
  let key: Record<string, string>;

  beforeAll(async () => {
    stores = await replicas.cached();
    mcp = await startHttpFixture('http');
    const clock = createManualClock(Date.now());
    const env = { MCP_ALLOW_PRIVATE_ENDPOINTS: '127.0.0.1/32' };
    one = await createTestApp({ state: stores.a, clock, env });
    two = await createTestApp({ state: stores.b, clock, env });
    key = withKey((await createMerchant(one.app, 'mcp-redis-shop')).apiKey);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await mcp?.stop();
    await stores?.dispose();
  });

  const execute = (t: TestApp, text: string) =>
    t.app.inject({ method: 'POST', url: '/api/mcp/execute', headers: key, payload: { serverName: 'shared', toolName: 'echo', params: { text } } });

  it('registers on one, lists and runs on the other, removes on the other, refuses on the first', async () => {
    const created = await one.app.inject({ method: 'POST', url: '/api/mcp/servers', headers: key, payload: { name: 'shared', url: `${mcp.baseUrl}/mcp` } });
    expect(created.statusCode, created.body).toBe(201);
    const listed = (await two.app.inject({ method: 'GET', url: '/api/mcp/servers', headers: key })).json() as {
      servers: { id: string; owner: string; status: string }[];
    };
    expect(listed.servers.map((server) => [server.id, server.owner, server.status])).toEqual([['shared', 'merchant', 'connected']]);
    expect((await execute(two, 'over redis')).json()).toMatchObject({ output: 'over redis' });
    expect((await execute(one, 'on the first too')).json()).toMatchObject({ output: 'on the first too' });
    expect((await two.app.inject({ method: 'DELETE', url: '/api/mcp/servers/shared', headers: key })).statusCode).toBe(200);
    expect((await execute(one, 'gone')).statusCode).toBe(404);
    expect(((await one.app.inject({ method: 'GET', url: '/api/mcp/servers', headers: key })).json() as { totalServers: number }).totalServers).toBe(0);
  });
});
