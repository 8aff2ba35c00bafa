import { describe, expect, it, onTestFinished } from 'vitest';
import { AdminSecretGuard, defaultAdminSecretThrottlePolicy } from '../../../src/auth/admin-secret.js';
import type { AuthAttempt } from '../../../src/auth/auth-attempt.js';
import { AuthService } from '../../../src/auth/auth-service.js';
import { authAttemptPayload, authAttemptPublisher } from '../../../src/auth/publish-auth-attempts.js';
import { createTokenService } from '../../../src/auth/token-service.js';
import { createMemoryEventBus } from '../../../src/adapters/memory/memory-event-bus.js';
import { type EventEnvelope, topicOf } from '../../../src/events/event-envelope.js';
import { validateEvent } from '../../../src/events/validate-event.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const password = 'violet stapler orbit';
const origin = { sourceAddress: '10.0.0.1', requestId: 'req-1', route: '/auth/login', userAgent: 'curl/8' };

function setup() {
  const clock = createManualClock(1_700_000_000_000);
  const { sessions, merchants, users, apiKeys } = memoryStateStore(clock);
  const attempts: AuthAttempt[] = [];
  const tokens = createTokenService(
    { algorithms: ['HS256'], secret: 's'.repeat(32), issuer: 'switchyard', audience: 'dashboard', ttlSeconds: 3_600 },
    { sessions, clock },
  );
  const auth = new AuthService({
    users,
    apiKeys,
    sessions,
    merchants,
    tokens,
    clock,
    passwordHashing: { logN: 4, r: 8, p: 1 },
    audit: (attempt) => attempts.push(attempt),
  });
  const guard = new AdminSecretGuard({ secret: 'the-admin-secret-0123456789abcdef', sessions, merchants, audit: (attempt) => attempts.push(attempt) });
  return { auth, guard, clock, merchants, attempts };
}

describe('AuthService audit records', () => {
  it('records every login outcome with the email and the user merchant, never the password', async () => {
    const { auth, merchants, attempts } = setup();
    await merchants.create({ merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: 0 });
    await auth.signup({ email: 'a@b.com', password, merchantId: 'm1' });
    await auth.login('a@b.com', 'wrong password!', origin);
    await auth.login('nobody@b.com', password, origin);
    await auth.login('a@b.com', password, origin);
    expect(attempts.map(({ credential, outcome, reason, merchantId, subject }) => ({ credential, outcome, reason, merchantId, subject }))).toEqual([
      { credential: 'password', outcome: 'failure', reason: 'invalid_credentials', merchantId: 'm1', subject: 'a@b.com' },
      { credential: 'password', outcome: 'failure', reason: 'invalid_credentials', merchantId: null, subject: 'nobody@b.com' },
      { credential: 'password', outcome: 'success', reason: null, merchantId: 'm1', subject: 'a@b.com' },
    ]);
    expect(attempts[0]!.userId).toEqual(expect.any(String));
    expect(attempts[0]!.origin).toEqual(origin);
    expect(JSON.stringify(attempts)).not.toContain('wrong password!');
    expect(JSON.stringify(attempts)).not.toContain(password);
  });

  it('records a throttled login as a failure with reason throttled', async () => {
    const { auth, attempts } = setup();
    for (let i = 0; i < 6; i += 1) await auth.login('x@b.com', `guess number ${i}`, origin);
    expect(attempts.at(-1)).toMatchObject({ credential: 'password', outcome: 'failure', reason: 'throttled', subject: 'x@b.com' });
  });

  it('records refused API keys with the display prefix only, and the merchant of a revoked key', async () => {
    const { auth, attempts } = setup();
    const created = await auth.createApiKey('m1', null);
    await auth.revokeApiKey(created.record.keyId);
    const unknown = `DE_${'0f'.repeat(32)}`;
    expect((await auth.authenticateApiKey('not-a-key', origin)).kind).toBe('invalid_api_key');
    expect((await auth.authenticateApiKey(unknown, origin)).kind).toBe('invalid_api_key');
    expect((await auth.authenticateApiKey(created.rawKey, origin)).kind).toBe('revoked_api_key');
    expect(attempts.map(({ reason, merchantId, subject, keyId }) => ({ reason, merchantId, subject, keyId }))).toEqual([
      { reason: 'invalid_api_key', merchantId: null, subject: null, keyId: null },
      { reason: 'invalid_api_key', merchantId: null, subject: 'DE_0f0f0f0f', keyId: null },
      { reason: 'revoked_api_key', merchantId: 'm1', subject: created.record.keyPrefix, keyId: created.record.keyId },
    ]);
    expect(JSON.stringify(attempts)).not.toContain(created.rawKey.slice(11));
  });

  it('records nothing for a key that works', async () => {
    const { auth, attempts } = setup();
    const created = await auth.createApiKey('m1', null);
    expect((await auth.authenticateApiKey(created.rawKey, origin)).kind).toBe('ok');
    expect(attempts).toEqual([]);
  });
});

describe('AdminSecretGuard', () => {
  it('accepts the secret and refuses anything else, recording each refusal', async () => {
    const { guard, merchants, attempts } = setup();
    await merchants.create({ merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: 0 });
    expect(await guard.check('the-admin-secret-0123456789abcdef', origin, 'm1')).toEqual({ kind: 'ok' });
    for (const presented of [undefined, '', 'the-admin-secret-0123456789abcde', 'the-admin-secret-0123456789abcdefX']) {
      expect(await guard.check(presented, origin, 'm1')).toEqual({ kind: 'invalid_admin_secret' });
    }
    await guard.check('nope', origin, 'new-merchant');
    expect(attempts.map(({ credential, reason, merchantId, subject }) => ({ credential, reason, merchantId, subject }))).toEqual([
      ...Array.from({ length: 4 }, () => ({ credential: 'admin_secret', reason: 'invalid_admin_secret', merchantId: 'm1', subject: null })),
      { credential: 'admin_secret', reason: 'invalid_admin_secret', merchantId: null, subject: null },
    ]);
  });

  it('locks an address from its 5th failure, doubling, and leaves other addresses alone', async () => {
    const { guard, clock } = setup();
    expect(defaultAdminSecretThrottlePolicy.failuresBeforeBackoff).toBe(5);
    for (let i = 0; i < 5; i += 1) expect((await guard.check(`guess-${i}`, origin)).kind).toBe('invalid_admin_secret');
    expect(await guard.check('the-admin-secret-0123456789abcdef', origin)).toEqual({ kind: 'throttled', retryAfterMs: 1_000 });
    expect(await guard.check('the-admin-secret-0123456789abcdef', { sourceAddress: '10.0.0.2' })).toEqual({ kind: 'ok' });
    clock.advance(1_000);
    expect((await guard.check('guess-6', origin)).kind).toBe('invalid_admin_secret');
    expect(await guard.check('the-admin-secret-0123456789abcdef', origin)).toEqual({ kind: 'throttled', retryAfterMs: 2_000 });
  });
});

describe('authAttemptPublisher', () => {
  it('publishes a schema-valid auth.attempted event under _unattributed when there is no merchant', async () => {
    const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
    onTestFinished(() => bus.close());
    const published: EventEnvelope[] = [];
    const subscription = await bus.subscribe({ group: 'unit', topics: [topicOf['auth.attempted']], handler: async (batch) => void published.push(...batch) });
    authAttemptPublisher(bus, { now: () => 1_700_000_000_000 })({
      credential: 'api_key',
      outcome: 'failure',
      reason: 'invalid_api_key',
      merchantId: null,
      subject: 'DE_01234567',
      userId: null,
      keyId: null,
      origin: { sourceAddress: '10.0.0.1', userAgent: 'x'.repeat(400) },
    });
    await subscription.caughtUp();
    expect(published).toHaveLength(1);
    const event = published[0]!;
    expect(() => validateEvent(event)).not.toThrow();
    expect(event).toMatchObject({ type: 'auth.attempted', version: 1, merchantId: '_unattributed', occurredAt: 1_700_000_000_000 });
    expect(event.payload).toMatchObject({ subject: 'DE_01234567', requestId: null, route: null, userAgent: 'x'.repeat(256) });
  });

  it('keeps every payload field, null where absent', () => {
    const payload = authAttemptPayload({
      credential: 'admin_secret',
      outcome: 'failure',
      reason: 'invalid_admin_secret',
      merchantId: 'm1',
      subject: null,
      userId: null,
      keyId: null,
      origin: { sourceAddress: '::1' },
    });
    expect(payload).toEqual({
      credential: 'admin_secret',
      outcome: 'failure',
      reason: 'invalid_admin_secret',
      subject: null,
      userId: null,
      keyId: null,
      sourceAddress: '::1',
      requestId: null,
      route: null,
      userAgent: null,
    });
  });
});
