import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/time/clock.js';
import { captureMail, tokenOf, type CapturedMail } from './mail-capture.js';
import type { ReplicaStores } from './replica-suite.js';
import { createMerchant, createTestApp, logIn, signUp, testPassword, withToken, type TestApp } from './test-app.js';

const newPassword = 'copper-meadow-lighthouse-77';

/**
 * Session cutoffs across replicas (issue 25): a password changed or reset on replica A ends the
 * user's other sessions on replica B at its very next request. Run against the embedded store
 * (contract) and real Redis (integration).
 */
export function passwordReplicaSuite(label: string, openStores: () => Promise<ReplicaStores>): void {
  describe(`password change and reset across two API replicas (${label})`, () => {
    let stores: ReplicaStores;
    let a: TestApp;
    let b: TestApp;
    let mail: CapturedMail;

    beforeEach(async () => {
      stores = await openStores();
      const clock = createManualClock(Date.now());
      mail = captureMail();
      a = await createTestApp({ state: stores.a, clock, mailer: mail.mailer });
      b = await createTestApp({ state: stores.b, clock });
      await createMerchant(a.app, 'replica-m1');
    });
    afterEach(async () => {
      await a.close();
      await b.close();
      await stores.dispose();
    });

    const me = (app: TestApp, token: string) => app.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(token) });

    it('refuses on replica B a session older than a password change on replica A, keeping the changing session', async () => {
      const { token: onB } = await signUp(b.app, 'replica@example.com', 'replica-m1');
      a.clock.advance(5);
      const onA = await logIn(a.app, 'replica@example.com');
      expect((await me(b, onB)).statusCode).toBe(200);
      a.clock.advance(5);
      const changed = await a.app.inject({
        method: 'POST',
        url: '/auth/change-password',
        headers: withToken(onA),
        payload: { current_password: testPassword, new_password: newPassword },
      });
      expect(changed.statusCode).toBe(200);
      const refused = await me(b, onB);
      expect(refused.statusCode).toBe(401);
      expect(refused.body).toBe('Invalid or expired token');
      expect((await me(b, onA)).statusCode).toBe(200);
    });

    it('refuses on replica B every session older than a reset done on replica A; the reset token works once on either', async () => {
      const { token: onB } = await signUp(b.app, 'replica@example.com', 'replica-m1');
      expect((await a.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: 'replica@example.com' } })).statusCode).toBe(200);
      const resetToken = tokenOf((await mail.nth(0)).text);
      a.clock.advance(5);
      const reset = (app: TestApp) =>
        app.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token: resetToken, new_password: newPassword } });
      expect((await reset(a)).statusCode).toBe(200);
      expect((await reset(b)).statusCode).toBe(400);
      expect((await me(b, onB)).statusCode).toBe(401);
      a.clock.advance(5);
      const fresh = await b.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'replica@example.com', password: newPassword } });
      expect(fresh.statusCode).toBe(200);
      expect((await me(a, fresh.json().token)).statusCode).toBe(200);
    });
  });
}
