import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('health routes', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => t.close());

  it('answers the 1.4.x liveness message', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Health is good' });
  });

  it('reports Up until shutdown marks readiness down, then 400 Down', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).json()).toEqual({ message: 'Up' });
    t.readiness.markDown();
    const response = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Down' });
  });

  it('probes the state store write, read and delete', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health/diagnostics' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      key_custodian_locked: false,
      database: { database_connection: 'Working', database_read: 'Working', database_write: 'Working', database_delete: 'Working' },
    });
  });

  it('marks the failing probe stage and every later stage Failing', async () => {
    const probe = t.state.probe;
    (t.state as { probe: typeof probe }).probe = async () => ({ ok: false, failedStage: 'read' });
    const response = await t.app.inject({ method: 'GET', url: '/health/diagnostics' });
    expect(response.json().database).toEqual({
      database_connection: 'Working',
      database_write: 'Working',
      database_read: 'Failing',
      database_delete: 'Failing',
    });
  });

  it('echoes a caller x-request-id and generates one otherwise', async () => {
    const echoed = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'req-abc.123' } });
    expect(echoed.headers['x-request-id']).toBe('req-abc.123');
    const generated = await t.app.inject({ method: 'GET', url: '/health' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id\nwith newline' } });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves an OpenAPI 3.1 document and a browsable page', async () => {
    const spec = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(spec.statusCode).toBe(200);
    const document = spec.json() as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/decide-gateway', '/update-gateway-score', '/rule/create', '/merchant-account/create']),
    );
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'TE_02' });
  });

  it('exposes Prometheus metrics with request counts and event bus health', async () => {
    await t.app.inject({ method: 'GET', url: '/health' });
    await t.app.inject({ method: 'GET', url: '/health' });
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toContain('switchyard_http_requests_total{route="GET /health",status="200"} 2');
    expect(response.body).toMatch(/switchyard_event_spool_full 0\n/);
    expect(response.body).toMatch(/switchyard_event_bus_retained_events \d+\n/);
    expect(response.body).toMatch(/switchyard_state_store_available 1\n/);
    const rss = Number(/process_resident_memory_bytes (\d+)\n/.exec(response.body)?.[1]);
    const heap = Number(/nodejs_heap_size_used_bytes (\d+)\n/.exec(response.body)?.[1]);
    expect(rss).toBeGreaterThan(heap);
    expect(heap).toBeGreaterThan(1_000_000);
    expect(response.body).toMatch(/nodejs_gc_pause_max_seconds [\d.e-]+\n/);
  });

  it('shows a stalled event loop in the next scrape', async () => {
    await t.app.inject({ method: 'GET', url: '/metrics' }); // resets the window
    const until = performance.now() + 60;
    while (performance.now() < until); // the loop is blocked for 60 ms, as a long synchronous task would
    // The monitor's tick is overdue and earlier than this timer, so it has run when this resolves.
    await new Promise((resolve) => setTimeout(resolve, 1));
    const lagOf = (body: string) => Number(/nodejs_eventloop_lag_max_seconds ([\d.e-]+)\n/.exec(body)?.[1]);
    const stalled = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(lagOf(stalled.body)).toBeGreaterThanOrEqual(0.04);
  });

  it('shows the live heap after a full collection', async () => {
    // A full collection on demand: expose V8's gc() for a fresh context and call it there.
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const liveOf = (body: string) => Number(/switchyard_heap_live_bytes (\d+)\n/.exec(body)?.[1]);
    collect();
    // The collector's observers are told on a later turn of the loop: scrape until the gauge shows.
    let live = Number.NaN;
    for (let turn = 0; turn < 100 && Number.isNaN(live); turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      live = liveOf((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
    }
    const heap = Number(/nodejs_heap_size_used_bytes (\d+)\n/.exec((await t.app.inject({ method: 'GET', url: '/metrics' })).body)?.[1]);
    expect(live).toBeGreaterThan(1_000_000);
    expect(live).toBeLessThanOrEqual(heap * 1.5);
  });
});
