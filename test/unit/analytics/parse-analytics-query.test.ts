import { describe, expect, it } from 'vitest';
import type { AnalyticsEndpoint } from '../../../src/ports/analytics/analytics-query.js';
import { maxLookBackMs } from '../../../src/analytics/analytics-window.js';
import { analyticsQueryError, parseAnalyticsQuery } from '../../../src/analytics/parse-analytics-query.js';

const nowMs = Date.UTC(2026, 10, 20, 12, 0, 0);
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

function parse(raw: Record<string, unknown>, endpoint: AnalyticsEndpoint = 'overview') {
  return parseAnalyticsQuery(raw, { merchantId: 'm1', nowMs, endpoint });
}

function parsed(raw: Record<string, unknown>, endpoint: AnalyticsEndpoint = 'overview') {
  const result = parse(raw, endpoint);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.query;
}

function issuesOf(raw: Record<string, unknown>) {
  const result = parse(raw);
  if (result.ok) throw new Error('expected a rejection');
  return result.issues;
}

describe('parseAnalyticsQuery', () => {
  it('applies the 1h range, page 1 and page size 10 when nothing is given', () => {
    expect(parsed({})).toEqual({
      merchantId: 'm1',
      range: '1h',
      startMs: nowMs - hour,
      endMs: nowMs,
      bucketMs: 5 * minute,
      page: 1,
      pageSize: 10,
      dimensions: {},
      gateways: [],
      audit: {
        paymentId: null,
        requestId: null,
        gateway: null,
        route: null,
        routes: [],
        status: null,
        statusFilter: { kind: 'any' },
        flowType: null,
        routingApproach: null,
        excludeRoutingApproach: null,
        errorCode: null,
      },
      routeGroup: null,
      api: null,
      apiKeyId: null,
    });
  });

  it.each([
    ['15m', 15 * minute, minute],
    ['1h', hour, 5 * minute],
    ['12h', 12 * hour, hour],
    ['1d', day, hour],
    ['1w', 7 * day, day],
  ])('resolves range %s to its look-back and bucket', (range, lookBack, bucket) => {
    const query = parsed({ range });
    expect([query.range, query.startMs, query.endMs, query.bucketMs]).toEqual([range, nowMs - lookBack, nowMs, bucket]);
  });

  it('defaults the page size to 12 for payment-audit and preview-trace', () => {
    expect(parsed({}, 'payment-audit').pageSize).toBe(12);
    expect(parsed({}, 'preview-trace').pageSize).toBe(12);
    expect(parsed({}, 'log-summaries').pageSize).toBe(10);
  });

  it('clamps page to at least 1 and page_size to 1..50', () => {
    expect(parsed({ page: '0', page_size: '0' })).toMatchObject({ page: 1, pageSize: 1 });
    expect(parsed({ page: '-3', page_size: '500' })).toMatchObject({ page: 1, pageSize: 50 });
    expect(parsed({ page: 7, page_size: 25 })).toMatchObject({ page: 7, pageSize: 25 });
  });

  it('uses start_ms and end_ms as a custom window when both are valid', () => {
    const query = parsed({ range: '1w', start_ms: String(nowMs - 10 * minute), end_ms: String(nowMs - minute) });
    expect(query).toMatchObject({ range: 'custom', startMs: nowMs - 10 * minute, endMs: nowMs - minute, bucketMs: minute });
  });

  it.each([
    [10 * minute, minute],
    [15 * minute, minute],
    [45 * minute, 5 * minute],
    [5 * hour, hour],
    [3 * day, day],
  ])('picks the bucket of a custom window spanning %i ms', (span, bucket) => {
    expect(parsed({ start_ms: nowMs - span, end_ms: nowMs }).bucketMs).toBe(bucket);
  });

  it('clamps a custom end to now and its start to the 18-month look-back', () => {
    const query = parsed({ start_ms: '0', end_ms: String(nowMs + day) });
    expect(query).toMatchObject({ range: 'custom', startMs: nowMs - maxLookBackMs, endMs: nowMs, bucketMs: day });
  });

  it('ignores start_ms and end_ms when only one is given or end is not after start', () => {
    expect(parsed({ start_ms: nowMs - minute }).range).toBe('1h');
    expect(parsed({ end_ms: nowMs }).range).toBe('1h');
    expect(parsed({ range: '1d', start_ms: nowMs, end_ms: nowMs }).range).toBe('1d');
    expect(parsed({ start_ms: nowMs, end_ms: nowMs - minute }).range).toBe('1h');
  });

  it('names each invalid parameter when several are malformed', () => {
    const issues = issuesOf({ page: 'abc', start_ms: '-5', range: '2y', page_size: '1.5', end_ms: 'soon' });
    expect(issues.map((issue) => issue.parameter)).toEqual(['range', 'start_ms', 'end_ms', 'page', 'page_size']);
    expect(issues[0]?.message).toBe('range must be one of 15m, 1h, 12h, 1d, 1w');
    expect(issues[1]?.message).toBe('start_ms must be a non-negative integer (epoch milliseconds)');
  });

  it('rejects numbers beyond the safe integer range', () => {
    expect(issuesOf({ page: '99999999999999999999' }).map((i) => i.parameter)).toEqual(['page']);
    expect(issuesOf({ start_ms: 1.5 }).map((i) => i.parameter)).toEqual(['start_ms']);
  });

  it('rejects a single-valued parameter given twice', () => {
    expect(issuesOf({ range: ['1h', '1d'] })).toEqual([{ parameter: 'range', message: 'range must be given once' }]);
  });

  it('rejects values that are neither strings nor numbers', () => {
    expect(issuesOf({ currency: { $ne: '' } })).toEqual([{ parameter: 'currency', message: 'currency must be a string' }]);
  });

  it('treats empty values as absent', () => {
    expect(parsed({ range: '', page: '', currency: '', gateway: '' })).toMatchObject({ range: '1h', page: 1, dimensions: {}, gateways: [] });
  });

  it('takes api_key_id as given and refuses one longer than a key id can be', () => {
    expect(parsed({ api_key_id: 'key_0a1b' }, 'llm/guards').apiKeyId).toBe('key_0a1b');
    expect(parsed({ api_key_id: '' }, 'llm/guards').apiKeyId).toBeNull();
    expect(issuesOf({ api_key_id: 'k'.repeat(129) }).map((issue) => issue.parameter)).toEqual(['api_key_id']);
  });

  it('splits a comma-separated gateway list and merges repeated gateway parameters', () => {
    const query = parsed({ gateway: ['stripe, adyen', 'stripe,,razorpay '] });
    expect(query.gateways).toEqual(['stripe', 'adyen', 'razorpay']);
    expect(query.audit.gateway).toBe('stripe, adyen,stripe,,razorpay ');
  });

  it('takes route_group as a route group name and refuses one no group can have', () => {
    expect(parsed({ route_group: 'chat.fast-v2' }, 'llm/route-groups').routeGroup).toBe('chat.fast-v2');
    expect(parsed({ route_group: '' }, 'llm/route-groups').routeGroup).toBeNull();
    for (const bad of ["x' OR 1=1", '1chat', 'a'.repeat(65)]) {
      expect(issuesOf({ route_group: bad }).map((issue) => issue.parameter)).toEqual(['route_group']);
    }
  });

  it('keeps dimension filters and ignores a merchant_id parameter', () => {
    const query = parsed({ merchant_id: 'someone_else', payment_method_type: 'CARD', card_is_in: '411111', auth_type: 'THREE_DS' });
    expect(query.merchantId).toBe('m1');
    expect(query.dimensions).toEqual({ payment_method_type: 'CARD', card_is_in: '411111', auth_type: 'THREE_DS' });
  });

  it('maps status families and exact statuses', () => {
    expect(parsed({ status: 'SUCCESS' }).audit.statusFilter).toEqual({ kind: 'success' });
    expect(parsed({ status: 'failure' }).audit.statusFilter).toEqual({ kind: 'failure' });
    expect(parsed({ status: 'CHARGED' }).audit.statusFilter).toEqual({ kind: 'exact', status: 'CHARGED' });
  });

  it('resolves route display labels to stored routes and keeps stored values as they are', () => {
    expect(parsed({ route: 'Decide Gateway' }).audit.routes).toEqual(['decide_gateway']);
    expect(parsed({ route: 'update gateway' }).audit.routes).toEqual(['update_gateway_score']);
    expect(parsed({ route: 'Rule Evaluate' }).audit.routes).toEqual(['routing_evaluate']);
    expect(parsed({ route: 'update_score' }).audit).toMatchObject({ route: 'update_score', routes: ['update_score'] });
  });

  it('keeps hostile filter values verbatim for the binder to escape', () => {
    const hostile = "x' OR '1'='1 -- /* */";
    expect(parsed({ payment_id: hostile, currency: hostile }).audit.paymentId).toBe(hostile);
  });
});

describe('analyticsQueryError', () => {
  it('builds a SY_REQUEST_INVALID error naming each parameter', () => {
    const error = analyticsQueryError(issuesOf({ page: 'abc', range: '2y' }));
    expect(error.code).toBe('SY_REQUEST_INVALID');
    expect(error.details?.['parameters']).toEqual(['range', 'page']);
    expect(error.message).toBe('Invalid query parameters: range must be one of 15m, 1h, 12h, 1d, 1w; page must be an integer');
  });
});
