import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/auth/api-key.js';
import { createMerchant, createTestApp, decideBody, signUp, withKey, withToken, type TestApp } from '../helpers/test-app.js';

const dbTimestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;

describe('API key routes', () => {
  let t: TestApp;
  let ownKey: string;
  let otherKey: string;
  beforeEach(async () => {
    t = await createTestApp();
    ownKey = (await createMerchant(t.app, 'm1')).apiKey;
    otherKey = (await createMerchant(t.app, 'm2')).apiKey;
  });
  afterEach(async () => t.close());

  const create = (payload: Record<string, unknown>, headers = withKey(ownKey)) => t.app.inject({ method: 'POST', url: '/api-key/create', headers, payload });
  const list = (merchantId: string, headers = withKey(ownKey)) => t.app.inject({ method: 'GET', url: `/api-key/list/${merchantId}`, headers });
  const revoke = (keyId: string, headers = withKey(ownKey)) => t.app.inject({ method: 'DELETE', url: `/api-key/${keyId}`, headers });
  const decide = (apiKey: string) => t.app.inject({ method: 'POST', url: '/decide-gateway', headers: withKey(apiKey), payload: decideBody('m1', 'p1') });

  describe('POST /api-key/create', () => {
    it('mints a DE_ + 64 hex key shown once, storing only its hash and prefix', async () => {
      const response = await create({ merchant_id: 'm1', description: 'ci key' });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      // 1.4.x's fields, plus the key's own limits and cache setting (null: none; issue 14) and MCP tool allow-list (issue 39).
      expect(Object.keys(body).sort()).toEqual(['api_key', 'cache', 'created_at', 'description', 'key_id', 'key_prefix', 'limits', 'mcp', 'merchant_id']);
      expect(body).toMatchObject({ limits: null, cache: null, mcp: null });
      expect(body).toMatchObject({ merchant_id: 'm1', description: 'ci key' });
      expect(body.api_key).toMatch(/^DE_[0-9a-f]{64}$/);
      expect(body.key_prefix).toBe(body.api_key.slice(0, 11));
      expect(body.created_at).toMatch(dbTimestamp);
      const stored = await t.state.apiKeys.findById(body.key_id);
      expect(stored).toMatchObject({ keyHash: hashApiKey(body.api_key), keyPrefix: body.key_prefix, isActive: true });
      expect(JSON.stringify(await t.state.apiKeys.listByMerchant('m1'))).not.toContain(body.api_key);
      expect((await decide(body.api_key)).statusCode).toBe(200);
    });

    it('accepts a session token and a missing description (null)', async () => {
      const { token } = await signUp(t.app, 'ops@example.com', 'm1');
      const response = await create({ merchant_id: 'm1' }, withToken(token));
      expect(response.statusCode).toBe(200);
      expect(response.json().description).toBeNull();
    });

    it("refuses to mint a key for another merchant than the credential's", async () => {
      const response = await create({ merchant_id: 'm2' });
      expect(response.statusCode).toBe(403);
      expect(response.body).toBe("Forbidden: this credential is for merchant 'm1', not 'm2'");
      expect(await t.state.apiKeys.listByMerchant('m2')).toHaveLength(1);
    });

    it('answers 422 when merchant_id is missing', async () => {
      expect((await create({ description: 'x' })).statusCode).toBe(422);
    });
  });

  describe('GET /api-key/list/{merchant_id}', () => {
    it('lists active and revoked keys with is_active, never the raw key', async () => {
      const created = (await create({ merchant_id: 'm1', description: 'ci key' })).json();
      await revoke(created.key_id);
      const response = await list('m1');
      expect(response.statusCode).toBe(200);
      const items = response.json() as Record<string, unknown>[];
      expect(items).toHaveLength(2);
      for (const item of items) {
        // 1.4.x's fields, plus limits (own and enforced), cache and usage (issue 14) and the MCP tool allow-list (issue 39).
        expect(Object.keys(item).sort()).toEqual([
          'cache',
          'created_at',
          'description',
          'effective_limits',
          'is_active',
          'key_id',
          'key_prefix',
          'limits',
          'mcp',
          'merchant_id',
          'usage',
        ]);
        expect(item['created_at']).toMatch(dbTimestamp);
      }
      expect(items.find((item) => item['key_id'] === created.key_id)).toMatchObject({
        is_active: false,
        description: 'ci key',
        key_prefix: created.key_prefix,
      });
      expect(items.find((item) => item['key_id'] !== created.key_id)).toMatchObject({ is_active: true, description: 'Default API key' });
      expect(response.body).not.toContain(created.api_key);
      expect(response.body).not.toContain(ownKey);
    });

    it("refuses to list another merchant's keys", async () => {
      const response = await list('m2');
      expect(response.statusCode).toBe(403);
      expect(response.body).toBe("Forbidden: this credential is for merchant 'm1', not 'm2'");
    });
  });

  describe('DELETE /api-key/{key_id}', () => {
    it('revokes a key so that the next request with it is 401 API key is revoked', async () => {
      const created = (await create({ merchant_id: 'm1' })).json();
      expect((await decide(created.api_key)).statusCode).toBe(200);
      const response = await revoke(created.key_id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ key_id: created.key_id, message: 'API key revoked successfully' });
      const refused = await decide(created.api_key);
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(refused.body).toBe('API key is revoked');
      expect((await decide(ownKey)).statusCode).toBe(200);
    });

    it('rejects the revoked key on the very next request', async () => {
      const created = (await create({ merchant_id: 'm1' })).json();
      const before = await t.app.inject({ method: 'GET', url: '/merchant-account/m1', headers: { 'x-api-key': created.api_key } });
      expect(before.statusCode).toBe(200);
      await revoke(created.key_id);
      const after = await t.app.inject({ method: 'GET', url: '/merchant-account/m1', headers: { 'x-api-key': created.api_key } });
      expect(after.statusCode).toBe(401);
      expect(after.body).toBe('API key is revoked');
    });

    it('answers 200 again when the key is already revoked', async () => {
      const created = (await create({ merchant_id: 'm1' })).json();
      await revoke(created.key_id);
      const again = await revoke(created.key_id);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ key_id: created.key_id, message: 'API key revoked successfully' });
    });

    it('answers 404 API key not found for an unknown key id', async () => {
      const response = await revoke('00000000-0000-4000-8000-000000000000');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'API key not found', data: null });
    });

    it("answers another merchant's key id as an unknown one (404, no owner named), and the key keeps working", async () => {
      const [theirs] = await t.state.apiKeys.listByMerchant('m2');
      const response = await revoke(theirs!.keyId);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'API key not found', data: null });
      const stillWorks = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers: withKey(otherKey), payload: decideBody('m2', 'p1') });
      expect(stillWorks.statusCode).toBe(200);
    });

    it('lets a key revoke itself, after which it is refused', async () => {
      const created = (await create({ merchant_id: 'm1' })).json();
      expect((await revoke(created.key_id, withKey(created.api_key))).statusCode).toBe(200);
      expect((await revoke(created.key_id, withKey(created.api_key))).body).toBe('API key is revoked');
    });
  });
});
