import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSchemas } from '../../api/http-schemas.js';
import { createEvent } from '../../src/events/event-envelope.js';
import type { AutopilotCalibratedV1 } from '../../src/generated/schema-types.js';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * GET /analytics/routing-events (decision-engine's analyticsRoutingEvents) over the embedded store:
 * real decisions and score feedback go through the bus, the sr-windows worker publishes score
 * snapshots, the analytics sink writes them to chDB, and the route derives the success-rate leader
 * changes from them; an applied autopilot run on the bus becomes calibration_applied events.
 *
 * Windows of 20 outcomes: stripe leads in the 10:00 bucket (adyen failed twice), loses the lead at
 * 10:05 (four failures of its own), so one leader change stripe → adyen is in the 10:05 bucket.
 */
const minuteMs = 60_000;
const first = Date.UTC(2026, 2, 10, 10, 0, 0);
const second = first + 5 * minuteMs;
const merchantA = 'm-routing-events-a';
const merchantB = 'm-routing-events-b';

interface RoutingEvent {
  id: string;
  event_type: string;
  merchant_id: string;
  payment_method_type: string | null;
  payment_method: string | null;
  bucket_ms: number;
  gateway: string;
  previous_gateway: string | null;
  score: number | null;
  previous_score: number | null;
  transaction_count: number | null;
  [key: string]: unknown;
}
interface Report {
  merchant_id: string;
  range: string;
  generated_at_ms: number;
  events: RoutingEvent[];
}

describe('GET /analytics/routing-events', () => {
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let keyA: Record<string, string>;
  let keyB: Record<string, string>;
  const clock = createManualClock(first + 1000);
  const ajv = new Ajv({ strict: false });
  for (const schema of httpSchemas) ajv.addSchema(schema);
  let payments = 0;

  /** One payment decided on `gateway` alone and its outcome fed back. */
  const pay = async (headers: Record<string, string>, merchantId: string, gateway: string, status: 'CHARGED' | 'FAILURE') => {
    const paymentId = `p-${++payments}`;
    const decided = await t.app.inject({
      method: 'POST',
      url: '/decide-gateway',
      headers,
      payload: decideBody(merchantId, paymentId, { eligibleGatewayList: [gateway] }),
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const feedback = await t.app.inject({ method: 'POST', url: '/update-gateway-score', headers, payload: { merchantId, gateway, paymentId, status } });
    expect(feedback.statusCode, feedback.body).toBe(200);
    await t.worker.caughtUp();
    clock.advance(1000);
  };
  const get = async (query: string, headers: Record<string, string> = keyA) => {
    const response = await t.app.inject({ method: 'GET', url: `/analytics/routing-events${query}`, headers });
    return {
      status: response.statusCode,
      type: String(response.headers['content-type']),
      body: response.json() as Report & { message?: string; details?: unknown },
    };
  };
  const report = async (query: string, headers: Record<string, string> = keyA): Promise<Report> => {
    const { status, body } = await get(query, headers);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(ajv.validate('RoutingEventsReport', body), JSON.stringify(ajv.errors)).toBe(true);
    return body;
  };

  beforeAll(async () => {
    analytics = await openChdbAnalytics('routing-events');
    t = await createTestApp({ clock, analytics: analytics.store });
    await analytics.startSink(t.bus, clock);
    keyA = withKey((await createMerchant(t.app, merchantA)).apiKey);
    keyB = withKey((await createMerchant(t.app, merchantB)).apiKey);
    for (const merchant of [merchantA, merchantB]) {
      await t.state.configs.put(merchant, 'successRate', { defaultBucketSize: 20, defaultHedgingPercent: 0 }, 'upsert');
    }
    // 10:00 — stripe clean, adyen failed twice: stripe leads (the baseline, no event).
    await pay(keyA, merchantA, 'stripe', 'CHARGED');
    await pay(keyA, merchantA, 'adyen', 'FAILURE');
    await pay(keyA, merchantA, 'adyen', 'FAILURE');
    // Merchant B sees the same flip the other way round, never in A's answers.
    await pay(keyB, merchantB, 'adyen', 'CHARGED');
    await pay(keyB, merchantB, 'stripe', 'FAILURE');
    // 10:05 — stripe fails four times and falls below adyen: stripe → adyen.
    clock.set(second + 1000);
    for (let i = 0; i < 4; i++) await pay(keyA, merchantA, 'stripe', 'FAILURE');
    for (let i = 0; i < 4; i++) await pay(keyB, merchantB, 'adyen', 'FAILURE');
    // 10:07 — an autopilot run that retuned one segment and created another (applied), and one that changed nothing.
    clock.set(second + 2 * minuteMs);
    const run = (outcome: AutopilotCalibratedV1['outcome'], at: number): AutopilotCalibratedV1 => ({
      runId: String(at),
      merchantId: merchantA,
      ranAt: at,
      lookbackSeconds: 3600,
      outcome,
      reason: null,
      segments: [
        {
          segment: { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardNetwork: 'VISA', currency: null, country: null, authType: null },
          volume: 400,
          gateways: 2,
          action: 'updated',
          before: { bucketSize: 100, hedgingPercent: 5 },
          after: { bucketSize: 250, hedgingPercent: 8.5 },
          proposed: { bucketSize: 250, hedgingPercent: 8.5 },
        },
        {
          segment: { paymentMethodType: 'UPI', paymentMethod: 'UPI_COLLECT', cardNetwork: null, currency: 'INR', country: null, authType: null },
          volume: 90,
          gateways: 2,
          action: 'created',
          before: null,
          after: { bucketSize: 75, hedgingPercent: 10 },
          proposed: { bucketSize: 75, hedgingPercent: 10 },
        },
      ],
      candidates: [],
      chosen: 'formula',
      chosenBy: 'formula',
    });
    const appliedAt = clock.now();
    await t.bus.publish([
      createEvent('autopilot.calibrated', merchantA, run('applied', appliedAt), appliedAt),
      createEvent('autopilot.calibrated', merchantA, run('unchanged', appliedAt + 1), appliedAt + 1),
    ]);
    clock.set(second + 10 * minuteMs);
    await t.eventsCaughtUp();
    await analytics.caughtUp();
  }, 120_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  it('reports the success-rate leader change with the peer’s fields and a deterministic id', async () => {
    const body = await report('?range=1h&payment_method_type=CARD');
    expect(body).toMatchObject({ merchant_id: merchantA, range: '1h', generated_at_ms: second + 10 * minuteMs });
    const changes = body.events.filter((event) => event.event_type === 'leader_changed');
    expect(changes).toHaveLength(1);
    const [change] = changes;
    expect(change).toMatchObject({
      id: `leader_changed:${merchantA}:CARD:CREDIT:${second}:stripe>adyen`,
      merchant_id: merchantA,
      payment_method_type: 'CARD',
      payment_method: 'CREDIT',
      bucket_ms: second,
      gateway: 'adyen',
      previous_gateway: 'stripe',
      transaction_count: 20,
    });
    expect(change?.score).toBeGreaterThan(change?.previous_score ?? 1);
    // Score-derived events carry none of the calibration-only fields (left out, not null).
    expect(Object.keys(change ?? {})).not.toContain('bucket_size');
    // Polling again answers the same ids.
    expect((await report('?range=1h&payment_method_type=CARD')).events.map((event) => event.id)).toEqual(body.events.map((event) => event.id));
  });

  it('replays each segment an applied autopilot run wrote as calibration_applied, newest first', async () => {
    const body = await report('?range=1h');
    expect(body.events.map((event) => event.event_type)).toEqual(['calibration_applied', 'calibration_applied', 'leader_changed']);
    const [card, upi] = body.events;
    expect(card).toEqual({
      id: `calibration_applied:${merchantA}:CARD:CREDIT:VISA:-:-:-:${second + 2 * minuteMs}`,
      event_type: 'calibration_applied',
      merchant_id: merchantA,
      payment_method_type: 'CARD',
      payment_method: 'CREDIT',
      bucket_ms: second + 2 * minuteMs,
      gateway: '',
      previous_gateway: null,
      score: null,
      previous_score: null,
      transaction_count: null,
      bucket_size: 250,
      previous_bucket_size: 100,
      hedging_percent: 8.5,
      previous_hedging_percent: 5,
      card_network: 'VISA',
    });
    // A new segment has no previous settings: those fields are left out.
    expect(upi).toMatchObject({ payment_method_type: 'UPI', bucket_size: 75, hedging_percent: 10, currency: 'INR' });
    expect(Object.keys(upi ?? {})).not.toContain('previous_bucket_size');
    // The filter narrows both kinds.
    expect((await report('?range=1h&payment_method_type=UPI')).events.map((event) => event.payment_method_type)).toEqual(['UPI']);
  });

  it('applies limit, min_score_delta, min_transaction_count and a custom window as the reference does', async () => {
    expect((await report('?range=1h&limit=1')).events).toHaveLength(1);
    // limit is clamped to 1..200, not refused.
    expect((await report('?range=1h&limit=0')).events).toHaveLength(1);
    // A margin larger than the flip keeps stripe as the leader; a count gate above the window size hides every gateway.
    const changes = async (query: string) =>
      (await report(query)).events.filter((event) => event.event_type === 'leader_changed').map((event) => event.bucket_ms);
    expect(await changes('?range=1h&payment_method_type=CARD&min_score_delta=0.5')).toEqual([]);
    expect(await changes('?range=1h&payment_method_type=CARD&min_transaction_count=21')).toEqual([]);
    // tolerance_pp is accepted (auth-band events are off on the reference's current line).
    expect(await changes('?range=1h&payment_method_type=CARD&tolerance_pp=2')).toEqual([second]);
    const custom = await report(`?start_ms=${second}&end_ms=${second + 60_000}&payment_method_type=CARD`);
    expect(custom.range).toBe('custom');
    expect(custom.events.map((event) => event.bucket_ms)).toEqual([second]);
    // A window that starts after the flip: the earlier buckets are only the baseline.
    expect(await changes(`?start_ms=${second + 5 * minuteMs}&end_ms=${second + 9 * minuteMs}&payment_method_type=CARD`)).toEqual([]);
    // With 1-minute buckets the flip is in the 10:05 minute bucket.
    expect(await changes('?range=1h&payment_method_type=CARD&bucket=1m')).toEqual([second]);
  });

  it('reads only the credential merchant’s events', async () => {
    const body = await report('?range=1h', keyB);
    expect(body.merchant_id).toBe(merchantB);
    expect(body.events.map((event) => `${event.previous_gateway}>${event.gateway}`)).toEqual(['adyen>stripe']);
    // A merchant_id parameter naming another merchant is refused by the guard.
    const other = await t.app.inject({ method: 'GET', url: `/analytics/routing-events?range=1h&merchant_id=${merchantA}`, headers: keyB });
    expect(other.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/analytics/routing-events' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('is documented in /openapi.json with the peer’s query parameters and its answer', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
    };
    const operation = spec.paths['/analytics/routing-events']?.['get'];
    const query = (operation?.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
    expect(query.sort()).toEqual(
      [
        'bucket',
        'end_ms',
        'limit',
        'min_score_delta',
        'min_transaction_count',
        'payment_method',
        'payment_method_type',
        'range',
        'start_ms',
        'tolerance_pp',
      ].sort(),
    );
    expect(Object.keys(operation?.responses ?? {})).toContain('200');
  });

  it('refuses malformed parameters with 400 and the JSON error envelope naming them', async () => {
    for (const query of ['?range=3d', '?limit=ten', '?bucket=10m', '?min_score_delta=high', '?start_ms=-5&end_ms=10']) {
      const { status, type, body } = await get(query);
      expect(status, query).toBe(400);
      expect(type, query).toMatch(/^application\/json/);
      expect(typeof body.message, query).toBe('string');
    }
    const tenant = await t.app.inject({ method: 'GET', url: '/analytics/routing-events', headers: { ...keyA, 'x-tenant-id': 'other' } });
    expect(tenant.statusCode).toBe(400);
  });
});
