import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyFor, createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

describe('score feedback routes', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeEach(async () => {
    t = await createTestApp();
    headers = withKey((await createMerchant(t.app, 'm1')).apiKey);
    await t.app.inject({
      method: 'POST',
      url: '/rule/create',
      headers,
      payload: { merchant_id: 'm1', config: { type: 'successRate', data: { defaultBucketSize: 10, defaultHedgingPercent: 0 } } },
    });
  });
  afterEach(async () => t.close());

  const feedback = (payload: Record<string, unknown>, as = headers) => t.app.inject({ method: 'POST', url: '/update-gateway-score', headers: as, payload });
  const decide = async (paymentId: string) =>
    (await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: decideBody('m1', paymentId) })).json();

  it('answers at once with the exact 1.4.x message and publishes a feedback event', async () => {
    await decide('p1');
    const response = await feedback({ merchantId: 'm1', gateway: 'stripe', paymentId: 'p1', status: 'CHARGED' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Gateway score updated successfully', merchant_id: 'm1', gateway: 'stripe', payment_id: 'p1' });
    await t.worker.caughtUp();
    expect(t.events.find((e) => e.type === 'feedback.received')).toMatchObject({
      version: 1,
      payload: { paymentId: 'p1', status: 'CHARGED', outcome: 'success' },
    });
  });

  it('lowers the window of a failed gateway for the next decision', async () => {
    await decide('p1');
    await feedback({ merchantId: 'm1', gateway: 'stripe', paymentId: 'p1', status: 'FAILURE' });
    await t.worker.caughtUp();
    const next = await decide('p2');
    expect(next.gateway_priority_map).toEqual({ stripe: 0.9, adyen: 1 });
    expect(next.decided_gateway).toBe('adyen');
  });

  it('counts the same feedback twice only once', async () => {
    await decide('p1');
    await feedback({ merchantId: 'm1', gateway: 'stripe', paymentId: 'p1', status: 'FAILURE' });
    await feedback({ merchantId: 'm1', gateway: 'stripe', paymentId: 'p1', status: 'FAILURE' });
    await t.worker.caughtUp();
    expect((await decide('p2')).gateway_priority_map.stripe).toBeCloseTo(0.9, 10);
  });

  it('republishes the very same score snapshot (id and time) when a feedback event is delivered again', async () => {
    await decide('p1');
    await feedback({ merchantId: 'm1', gateway: 'stripe', paymentId: 'p1', status: 'FAILURE' });
    await t.worker.caughtUp();
    const received = t.events.find((e) => e.type === 'feedback.received');
    expect(received).toBeDefined();
    // A redelivery (the worker died before committing) comes later on the worker's clock.
    t.clock.advance(5_000);
    await t.bus.publish([received!]);
    await t.worker.caughtUp();
    await t.eventsCaughtUp();
    const snapshots = t.events.filter((e) => e.type === 'score.updated');
    expect(snapshots).toHaveLength(2);
    expect(new Set(snapshots.map((e) => `${e.id}@${e.occurredAt}`)).size).toBe(1);
    expect(snapshots[0]?.occurredAt).toBe(received!.occurredAt);
  });

  it('ignores feedback for a payment that was never decided', async () => {
    const response = await feedback({ merchantId: 'm1', gateway: 'stripe', paymentId: 'never', status: 'FAILURE' });
    expect(response.statusCode).toBe(200);
    await t.worker.caughtUp();
    expect((await decide('p2')).gateway_priority_map.stripe).toBe(1);
  });

  it('ignores feedback that arrives after the 10-minute window', async () => {
    await decide('p1');
    t.clock.advance(11 * 60_000);
    await feedback({ merchantId: 'm1', gateway: 'stripe', paymentId: 'p1', status: 'FAILURE' });
    await t.worker.caughtUp();
    expect((await decide('p2')).gateway_priority_map.stripe).toBe(1);
  });

  it('rejects an unknown status, a missing field and an unknown merchant with the decider envelope', async () => {
    const badStatus = await feedback({ merchantId: 'm1', gateway: 'stripe', paymentId: 'p1', status: 'MAYBE' });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json()).toMatchObject({ error_message: 'Error parsing request', error_info: { code: 'INVALID_INPUT' } });
    expect(badStatus.json().error_info.developer_message).toContain('status');
    const missing = await feedback({ merchantId: 'm1', paymentId: 'p1', status: 'CHARGED' });
    expect(missing.json().error_info.developer_message).toContain('gateway');
    const ghost = await feedback({ merchantId: 'ghost', gateway: 'stripe', paymentId: 'p1', status: 'CHARGED' }, withKey(await createKeyFor(t.state, 'ghost')));
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json().error_info.code).toBe('MERCHANT_NOT_FOUND');
  });

  it('accepts the legacy /update-score body and answers plain Success', async () => {
    await decide('p1');
    const response = await t.app.inject({
      method: 'POST',
      url: '/update-score',
      headers,
      payload: { txn_detail: { merchantId: 'm1', gateway: 'stripe', status: 'AUTHORIZATION_FAILED', txnUuid: 'p1' }, txn_card_info: {}, log_message: 'x' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('Success');
    await t.worker.caughtUp();
    expect((await decide('p2')).gateway_priority_map.stripe).toBeCloseTo(0.9, 10);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/update-score',
      headers,
      payload: { txn_detail: { merchantId: 'm1', gateway: '', status: 'CHARGED', txnUuid: 'p1' }, txn_card_info: {} },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error_info.code).toBe('GATEWAY_NOT_FOUND');
  });
});
