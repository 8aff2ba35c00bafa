import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMerchant, createTestApp, decideBody, type TestApp, withKey } from '../helpers/test-app.js';

/**
 * The embedded bus at its bound (EMBEDDED_BUS_MAX_EVENTS): a consumer group that has stopped
 * committing (as a stuck analytics insert would) first makes decisions wait for room, then has them
 * refused with a 503 and the refusals counted, never a growing backlog; once the group catches up,
 * decisions are answered again.
 */
describe('decide with the embedded event bus full', () => {
  let t: TestApp;
  let release: () => void = () => undefined;

  beforeEach(async () => {
    t = await createTestApp({ busBound: { maxRetainedEvents: 6, publishWaitMs: 50 } });
  });
  afterEach(async () => {
    release();
    await t.close();
  });

  it('answers 503 TE_00 with the refusal counted once the bound is reached, and 200 again when the stuck group catches up', async () => {
    const { apiKey } = await createMerchant(t.app, 'm_bus_full');
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stuck = await t.bus.subscribe({ group: 'stuck', topics: ['routing', 'api'], handler: () => gate });

    const statuses: number[] = [];
    let refusal: { statusCode: number; body: Record<string, unknown> } | undefined;
    for (let payment = 0; payment < 10 && refusal === undefined; payment += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/decide-gateway',
        headers: withKey(apiKey),
        payload: decideBody('m_bus_full', `pay_${payment}`),
      });
      statuses.push(response.statusCode);
      if (response.statusCode !== 200) refusal = { statusCode: response.statusCode, body: response.json() };
    }
    // A decision publishes decision.created, and api.requested after its answer: the first ones fit.
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(refusal?.statusCode).toBe(503);
    expect(refusal?.body).toMatchObject({ code: 'TE_00', message: expect.stringContaining('event bus full') });
    expect(t.bus.health()).toMatchObject({ retained: 6 });
    expect(t.bus.health().refused).toBeGreaterThan(0);

    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^switchyard_events_refused_total [1-9]\d*$/m);
    expect(metrics).toMatch(/^switchyard_event_bus_retained_events 6$/m);
    const diagnostics = (await t.app.inject({ method: 'GET', url: '/health/diagnostics' })).json() as { event_bus: { refused: number } };
    expect(diagnostics.event_bus.refused).toBeGreaterThan(0);

    release();
    await stuck.caughtUp();
    const again = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers: withKey(apiKey), payload: decideBody('m_bus_full', 'pay_after') });
    expect(again.statusCode).toBe(200);
  });
});
