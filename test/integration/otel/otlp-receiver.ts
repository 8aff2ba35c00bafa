import { startFakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';

/**
 * A real OTLP/HTTP receiver on loopback for the OpenTelemetry tests: it answers every export as a
 * collector does and decodes the OTLP JSON bodies it is sent (`/v1/traces`, `/v1/metrics`), so a
 * test can await a span and walk what a process exported.
 */

export interface OtlpValue {
  readonly stringValue?: string;
  readonly intValue?: number | string;
  readonly boolValue?: boolean;
  readonly doubleValue?: number;
  readonly arrayValue?: { readonly values: readonly OtlpValue[] };
}
export interface OtlpAttribute {
  readonly key: string;
  readonly value: OtlpValue;
}
export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: readonly OtlpAttribute[];
  readonly status?: { readonly code?: number };
}
export interface OtlpDataPoint {
  readonly attributes: readonly OtlpAttribute[];
  readonly count: number | string;
  readonly sum?: number;
  readonly explicitBounds?: readonly number[];
}
export interface OtlpMetric {
  readonly name: string;
  readonly unit?: string;
  readonly histogram?: { readonly dataPoints: readonly OtlpDataPoint[] };
}

/** OTLP span kinds. */
export const spanKind = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

function plain(value: OtlpValue): unknown {
  if (value.arrayValue !== undefined) return value.arrayValue.values.map(plain);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

export function attributesOf(list: readonly OtlpAttribute[]): Record<string, unknown> {
  return Object.fromEntries(list.map((attribute) => [attribute.key, plain(attribute.value)]));
}

/** The spans of every trace export among `requests`, with the resource of each batch (in order). */
export function spansIn(requests: readonly RecordedRequest[]): { spans: OtlpSpan[]; resources: Record<string, unknown>[] } {
  const spans: OtlpSpan[] = [];
  const resources: Record<string, unknown>[] = [];
  for (const request of requests.filter((r) => r.path === '/v1/traces')) {
    const body = request.body as { resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };
    for (const resourceSpans of body.resourceSpans) {
      resources.push(attributesOf(resourceSpans.resource.attributes));
      for (const scope of resourceSpans.scopeSpans) spans.push(...scope.spans);
    }
  }
  return { spans, resources };
}

/** Each span with its exporter's `service.name`. */
export function spansByService(requests: readonly RecordedRequest[]): { readonly service: unknown; readonly span: OtlpSpan }[] {
  const found: { service: unknown; span: OtlpSpan }[] = [];
  for (const request of requests.filter((r) => r.path === '/v1/traces')) {
    const body = request.body as { resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };
    for (const resourceSpans of body.resourceSpans) {
      const service = attributesOf(resourceSpans.resource.attributes)['service.name'];
      for (const scope of resourceSpans.scopeSpans) for (const span of scope.spans) found.push({ service, span });
    }
  }
  return found;
}

export function metricsIn(requests: readonly RecordedRequest[]): OtlpMetric[] {
  const metrics: OtlpMetric[] = [];
  for (const request of requests.filter((r) => r.path === '/v1/metrics')) {
    const body = request.body as { resourceMetrics: { scopeMetrics: { metrics: OtlpMetric[] }[] }[] };
    for (const resourceMetrics of body.resourceMetrics) for (const scope of resourceMetrics.scopeMetrics) metrics.push(...scope.metrics);
  }
  return metrics;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: the value of OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  /** Every export received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Every span received so far. */
  spans(): readonly OtlpSpan[];
  /**
   * Resolves once the spans received (so far or later) satisfy `condition`: the test's wait on
   * what an exporter sends in its own time (a worker's span after the request's answer). Rejects
   * after `timeoutMs` naming `what` and the spans received, so a missing span fails with a reason.
   */
  spansArrive(what: string, condition: (spans: readonly OtlpSpan[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: OtlpSpan[] = [];
  const waiters: { readonly condition: (spans: readonly OtlpSpan[]) => boolean; readonly resolve: () => void }[] = [];
  const server = await startFakeHttpServer((request) => {
    if (request.path === '/v1/traces') {
      received.push(...spansIn([request]).spans);
      for (const waiter of waiters) if (waiter.condition(received)) waiter.resolve();
    }
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
  });
  return {
    url: server.url,
    requests: server.requests,
    spans: () => received,
    spansArrive(what, condition, timeoutMs = 60_000) {
      if (condition(received)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          const names = received.map((span) => `${span.name} (${span.traceId.slice(0, 8)})`).join(', ');
          reject(new Error(`${what}: not received within ${timeoutMs} ms; spans received: ${names || 'none'}`));
        }, timeoutMs);
        waiters.push({
          condition,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () => server.close(),
  };
}
