import { describe, expect, it } from 'vitest';
import { HeldAnalytics, type RowBinaryTarget } from '../../../../src/adapters/chdb/held-analytics.js';
import { rowsByTable } from '../../../../src/adapters/clickhouse/analytics-tables.js';
import { createEvent, type EventEnvelope } from '../../../../src/events/event-envelope.js';
import type { AnalyticsRows } from '../../../../src/ports/analytics/analytics-rows.js';

/** A request's api.requested event: an api row and its route-hit domain row. */
function request(index: number, statusCode: number): EventEnvelope {
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
      latencyMs: 2,
      paymentId: `pay_${index}`,
      errorCode: null,
      errorMessage: null,
      userAgent: 'test',
    },
    1_790_000_000_000 + index,
  );
}

const kindTypes = { string: 'String', number: 'UInt64', nullableNumber: 'Nullable(Float64)', stringArray: 'Array(String)', secondsOfMs: 'DateTime' } as const;

/** Each table's types as its insert columns' kinds suggest, except that status codes are UInt8 (404 cannot be written); keeps what it is given. */
function recordingTarget() {
  const inserted = new Map<string, Buffer>();
  const missing = new Set<string>();
  const columnsOf = new Map(rowsByTable('db', { domain: [{}], api: [{}], llm: [] } as unknown as AnalyticsRows).map(({ table, columns }) => [table, columns]));
  const target: RowBinaryTarget = {
    columnTypes(table) {
      if (missing.has(table)) throw new Error(`no table ${table}`);
      return new Map((columnsOf.get(table) ?? []).map((column) => [column.name, column.name === 'status_code' ? 'UInt8' : kindTypes[column.kind]]));
    },
    insertRowBinary(table, _columns, _types, bytes) {
      inserted.set(table, Buffer.from(bytes));
    },
  };
  return { target, inserted, missing };
}

describe('HeldAnalytics', () => {
  it('takes back all of a handoff that fails half way: the tables encoded before the failure keep only earlier handoffs', () => {
    const { target, inserted } = recordingTarget();
    const first = [request(1, 200)];
    const held = new HeldAnalytics(target);
    held.add(1, 'db', first);
    expect(() => held.add(2, 'db', [request(2, 200), request(3, 404)])).toThrow('status_code (UInt8)');
    expect(held.events).toBe(1);
    expect(held.insert()).toBe(1);
    const expected = recordingTarget();
    const reference = new HeldAnalytics(expected.target);
    reference.add(1, 'db', first);
    reference.insert();
    expect([...inserted.keys()].sort()).toEqual(['db.analytics_api_events', 'db.analytics_domain_events']);
    for (const [table, bytes] of inserted) expect(bytes.equals(expected.inserted.get(table)!)).toBe(true);
  });

  it('holds the rows of a table that does not exist yet unencoded, and encodes them at the insert once it does', () => {
    const { target, inserted, missing } = recordingTarget();
    missing.add('db.analytics_domain_events');
    const held = new HeldAnalytics(target);
    held.add(1, 'db', [request(1, 200)]);
    expect(() => held.insert()).toThrow('no table db.analytics_domain_events');
    missing.clear();
    expect(held.insert()).toBe(1);
    expect(inserted.get('db.analytics_domain_events')?.length).toBeGreaterThan(0);
    expect(held.insert()).toBeUndefined(); // nothing new: no insert, no handoff number
  });
});
