import { describe, expect, it } from 'vitest';
import { HeldAnalytics } from '../../../../src/adapters/chdb/held-analytics.js';
import { createEvent, type EventEnvelope } from '../../../../src/events/event-envelope.js';

/** A request's api.requested event: an api row and its route-hit domain row. */
function request(index: number, statusCode = 200): EventEnvelope {
  return createEvent(
    'api.requested',
    'm_held',
    {
      requestId: `req_${index}`,
      flowType: 'decide_gateway',
      apiFlow: 'dynamic_routing',
      route: '/decide-gateway',
      method: 'POST',
      statusCode,
      latencyMs: 2.5,
      paymentId: `pay_${index}`,
      errorCode: null,
      errorMessage: null,
      userAgent: 'test',
    },
    1_790_000_000_000 + index,
  );
}

/** Records each insert's table and bytes (copied: the view is reused). */
function recorder(failOn?: string) {
  const inserts: { table: string; bytes: string }[] = [];
  return {
    inserts,
    insert(table: string, _columns: unknown, structure: string, bytes: Uint8Array) {
      if (table === failOn) throw new Error(`insert into ${table} failed`);
      expect(structure).toMatch(/^event_id String, merchant_id String, created_at_ms UInt64, /);
      inserts.push({ table, bytes: Buffer.from(bytes).toString('latin1') });
    },
  };
}

/** What `events` alone leave held, per table, once inserted. */
function insertedAlone(events: readonly EventEnvelope[]) {
  const held = new HeldAnalytics();
  held.add(1, 'db', events);
  const { inserts, insert } = recorder();
  held.insert(insert);
  return inserts;
}

describe('HeldAnalytics', () => {
  it('holds handed-off events as rows until one insert per table writes them all, in order', () => {
    const [first, second] = [[request(1)], [request(2), request(3)]];
    const held = new HeldAnalytics();
    held.add(1, 'db', first!);
    held.add(2, 'db', second!);
    expect(held.events).toBe(3);
    const { inserts, insert } = recorder();
    expect(held.insert(insert)).toBe(2);
    const [alone1, alone2] = [insertedAlone(first!), insertedAlone(second!)];
    expect(inserts).toEqual([
      { table: 'db.analytics_domain_events', bytes: alone1[0]!.bytes + alone2[0]!.bytes },
      { table: 'db.analytics_api_events', bytes: alone1[1]!.bytes + alone2[1]!.bytes },
    ]);
    expect(held.events).toBe(0);
    expect(held.insert(insert)).toBeUndefined(); // nothing new: no insert, no handoff number
    expect(inserts).toHaveLength(2);
  });

  it('takes back all of a handoff that fails half way: a value its column cannot hold leaves only the earlier handoffs', () => {
    const first = [request(1)];
    const held = new HeldAnalytics();
    held.add(1, 'db', first);
    // The domain row is encoded before the api row's status code (UInt16) fails.
    expect(() => held.add(2, 'db', [request(2), request(3, 70_000)])).toThrow('status_code (UInt16)');
    expect(held.events).toBe(1);
    const { inserts, insert } = recorder();
    expect(held.insert(insert)).toBe(1);
    expect(inserts).toEqual(insertedAlone(first));
  });

  it('keeps rows held while their insert fails; a retry writes only the tables still held', () => {
    const held = new HeldAnalytics();
    held.add(1, 'db', [request(1)]);
    const failing = recorder('db.analytics_api_events');
    expect(() => held.insert(failing.insert)).toThrow('insert into db.analytics_api_events failed');
    expect(failing.inserts.map((i) => i.table)).toEqual(['db.analytics_domain_events']);
    const retry = recorder();
    expect(held.insert(retry.insert)).toBe(1);
    expect(retry.inserts.map((i) => i.table)).toEqual(['db.analytics_api_events']);
  });
});
