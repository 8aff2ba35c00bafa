import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReplicaStores } from './replica-suite.js';
import { createMerchant, createTestApp, signUp, testPassword, withToken, type TestApp } from './test-app.js';

/**
 * The team across replicas (issue 25): an invite made on replica A is listed on replica B, and a
 * member removed on replica A has its session refused on replica B at its very next request (the
 * membership is read live from the shared store). Run against the embedded store (contract) and
 * real Redis (integration).
 */
export function membersReplicaSuite(label: string, openStores: () => Promise<ReplicaStores>): void {
  describe(`merchant members across two API replicas (${label})`, () => {
    let stores: ReplicaStores;
    let a: TestApp;
    let b: TestApp;
    let leadOnA: string;

    beforeEach(async () => {
      stores = await openStores();
      a = await createTestApp({ state: stores.a });
      b = await createTestApp({ state: stores.b });
      await createMerchant(a.app, 'team-replica');
      leadOnA = (await signUp(a.app, 'lead@replica.example', 'team-replica')).token;
    });
    afterEach(async () => {
      await a.close();
      await b.close();
      await stores.dispose();
    });

    const members = (app: TestApp, token: string) => app.app.inject({ method: 'GET', url: '/merchant/members', headers: withToken(token) });
    const emailsOf = (body: unknown) => (body as { email: string }[]).map((member) => member.email).sort();

    /** Invites `email` on replica A; answers the generated password and the user id. */
    async function inviteOnA(email: string): Promise<{ password: string; userId: string }> {
      const invited = await a.app.inject({ method: 'POST', url: '/merchant/members/invite', headers: withToken(leadOnA), payload: { email } });
      expect(invited.statusCode, invited.body).toBe(200);
      const userId = (await stores.a.users.findByEmail(email))?.userId ?? '';
      return { password: (invited.json() as { password: string }).password, userId };
    }

    const loginOn = async (app: TestApp, email: string, password: string) => {
      const response = await app.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { token: string; merchant_id: string };
    };

    it('lists on replica B a member invited on replica A, who signs in on B into the merchant', async () => {
      const leadOnB = (await loginOn(b, 'lead@replica.example', testPassword)).token;
      expect(emailsOf((await members(b, leadOnB)).json())).toEqual(['lead@replica.example']);
      const { password } = await inviteOnA('clerk@replica.example');
      const listed = await members(b, leadOnB);
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toEqual(expect.arrayContaining([expect.objectContaining({ email: 'clerk@replica.example', role: 'member' })]));
      expect(emailsOf(listed.json())).toEqual(['clerk@replica.example', 'lead@replica.example']);
      const clerk = await loginOn(b, 'clerk@replica.example', password);
      expect(clerk.merchant_id).toBe('team-replica');
      expect((await members(b, clerk.token)).statusCode).toBe(200);
    });

    it("refuses on replica B the session of a member removed on replica A; the lead's session stays", async () => {
      const { password, userId } = await inviteOnA('clerk@replica.example');
      const clerkOnB = (await loginOn(b, 'clerk@replica.example', password)).token;
      expect((await members(b, clerkOnB)).statusCode).toBe(200);
      expect((await b.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(clerkOnB) })).statusCode).toBe(200);

      const removed = await a.app.inject({ method: 'DELETE', url: `/merchant/members/${userId}`, headers: withToken(leadOnA) });
      expect(removed.statusCode, removed.body).toBe(200);

      for (const url of ['/merchant/members', '/auth/me', '/analytics/log-summaries']) {
        const refused = await b.app.inject({ method: 'GET', url, headers: withToken(clerkOnB) });
        expect(refused.statusCode, url).toBe(401);
        expect(refused.body, url).toBe('Invalid or expired token');
      }
      // Replica A agrees, and the lead is unaffected on both.
      expect((await members(a, clerkOnB)).statusCode).toBe(401);
      expect(emailsOf((await members(b, leadOnA)).json())).toEqual(['lead@replica.example']);
      // Signing in again gives a session outside the merchant (no membership left), never one into it.
      const again = await loginOn(b, 'clerk@replica.example', password);
      expect(again.merchant_id).toBe('');
      expect((await b.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(again.token) })).statusCode).toBe(200);
      // A session with no merchant sees no team: the merchant's members stay out of reach.
      const none = await members(b, again.token);
      expect(none.statusCode).toBe(200);
      expect(none.json()).toEqual([]);
    });
  });
}
