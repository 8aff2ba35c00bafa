import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, signUp, withKey, withToken, type TestApp } from '../helpers/test-app.js';

describe('team changes on the audit trail (embedded, chDB)', () => {
  const now = Date.UTC(2026, 0, 15, 12, 0, 0);
  let analytics: ChdbAnalyticsUnderTest;
  let t: TestApp;
  let key: Record<string, string>;
  let otherKey: Record<string, string>;
  let generatedPassword: string;
  let adminId: string;

  beforeAll(async () => {
    analytics = await openChdbAnalytics('members-audit');
    const clock = createManualClock(now);
    t = await createTestApp({ clock, analytics: analytics.store });
    await analytics.startSink(t.bus, clock);
    key = withKey((await createMerchant(t.app, 'team-shop')).apiKey);
    otherKey = withKey((await createMerchant(t.app, 'other-shop')).apiKey);
    const admin = await signUp(t.app, 'lead@team.example', 'team-shop');
    adminId = admin.userId;
    const headers = { ...withToken(admin.token), 'user-agent': 'members-audit-test' };
    const invited = await t.app.inject({
      method: 'POST',
      url: '/merchant/members/invite',
      remoteAddress: '10.9.8.7',
      headers,
      payload: { email: 'new@team.example' },
    });
    expect(invited.statusCode, invited.body).toBe(200);
    generatedPassword = (invited.json() as { password: string }).password;
    const newUserId = (await t.state.users.findByEmail('new@team.example'))?.userId ?? '';
    const removed = await t.app.inject({ method: 'DELETE', url: `/merchant/members/${newUserId}`, remoteAddress: '10.9.8.7', headers });
    expect(removed.statusCode, removed.body).toBe(200);
    await t.eventsCaughtUp();
    await analytics.caughtUp();
  }, 60_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  it('publishes an auth.attempted event per invite and removal, in the merchant, never the generated password', () => {
    const changes = t.events
      .filter((event): event is EventEnvelope<'auth.attempted'> => event.type === 'auth.attempted')
      .filter((event) => event.payload.credential === 'members');
    expect(changes.map((event) => [event.merchantId, event.payload.outcome, event.payload.action])).toEqual([
      ['team-shop', 'success', 'member_invite new@team.example as member (new user)'],
      ['team-shop', 'success', 'member_remove new@team.example (member)'],
    ]);
    expect(changes[0]!.payload).toMatchObject({
      subject: 'lead@team.example',
      userId: adminId,
      sourceAddress: '10.9.8.7',
      route: '/merchant/members/invite',
      userAgent: 'members-audit-test',
    });
    expect(changes[1]!.payload.route).toBe('/merchant/members/:user_id');
    expect(JSON.stringify(t.events)).not.toContain(generatedPassword);
  });

  it("lists them in the merchant's /analytics/log-summaries, and in no other merchant's", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/analytics/log-summaries', headers: key });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { errors: Record<string, unknown>[]; samples: Record<string, unknown>[] };
    expect(body.errors.map((group) => [group['route'], group['error_message'], group['count']])).toEqual(
      expect.arrayContaining([
        ['/merchant/members/invite', 'Admin lead@team.example: member_invite new@team.example as member (new user)', 1],
        ['/merchant/members/:user_id', 'Admin lead@team.example: member_remove new@team.example (member)', 1],
      ]),
    );
    expect(body.samples.filter((sample) => sample['flow_type'] === 'auth_members_success')).toHaveLength(2);
    expect(response.body).not.toContain(generatedPassword);

    const other = await t.app.inject({ method: 'GET', url: '/analytics/log-summaries', headers: otherKey });
    expect(other.statusCode).toBe(200);
    expect(other.body).not.toContain('member_invite');
  });
});
