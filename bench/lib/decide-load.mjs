// The decide load and the feedback-to-effect probe, as bench/decide-bench.mjs measures them (same
// request body, warm-up, connection count and probe loop), shared so that the pipeline benchmark's
// distributed and embedded figures are taken the same way.
import autocannon from 'autocannon';
import { decideBody, decideMixBody } from './decide-body.mjs';
import { json } from './spawn-service.mjs';

/** Creates the merchant and its success-rate config; returns the API-key headers. */
export async function setUpMerchant(url, merchant, adminSecret = 'bench-admin-secret-0123456789abcdef') {
  const created = await json(url, '/merchant-account/create', { merchant_id: merchant }, { 'x-admin-secret': adminSecret });
  const auth = { 'x-api-key': created.api_key };
  await json(url, '/rule/create', { merchant_id: merchant, config: { type: 'successRate', data: { defaultBucketSize: 125, defaultHedgingPercent: 5 } } }, auth);
  return auth;
}

/**
 * autocannon POSTing the three-card mix (decideMixBody) to `url` (a service's `/decide-gateway`, or
 * the echo), payment ids `<prefix>_<n>`; `shape(body, n)`, when given, rewrites each body (e.g. to
 * name a customer).
 */
export function decideMixLoad(url, headers, merchant, { connections, duration, prefix = 'pay', shape }) {
  let counter = 0;
  return autocannon({
    url,
    method: 'POST',
    connections,
    duration,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [
      {
        setupRequest: (request) => {
          const index = counter++;
          const body = decideMixBody(merchant, `${prefix}_${index}`, index);
          return { ...request, body: JSON.stringify(shape === undefined ? body : shape(body, index)) };
        },
      },
    ],
  });
}

/** autocannon on POST /decide-gateway with a fresh payment id per request; `onResponse(status)` sees every answer. */
export function decideLoad(url, auth, merchant, { connections, duration, overallRate, prefix = 'pay', onResponse }) {
  let counter = 0;
  const instance = autocannon({
    url: `${url}/decide-gateway`,
    method: 'POST',
    connections,
    duration,
    ...(overallRate === undefined ? {} : { overallRate }),
    headers: { 'content-type': 'application/json', ...auth },
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(decideBody(merchant, `${prefix}_${counter++}`)) }) }],
  });
  if (onResponse !== undefined) instance.on('response', (_client, statusCode) => onResponse(statusCode));
  return instance;
}

/** decide-bench's measurement: 3 s warm-up, then `duration` s at `connections` connections. */
export async function measureDecide(url, auth, merchant, { connections = 64, duration = 10 } = {}) {
  await decideLoad(url, auth, merchant, { connections, duration: 3, prefix: 'warm' });
  const result = await decideLoad(url, auth, merchant, { connections, duration, prefix: 'measure' });
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    errors: result.errors + result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
  };
}

/**
 * Feedback-to-effect delay: decide, report a failure for the chosen gateway, then decide again
 * (tight loop, no sleeps) until the priority map shows the failure. A fresh gateway pair per
 * sample, so each starts from score 1.0. Returns the delays in ms, sorted.
 */
export async function feedbackToEffect(url, auth, merchant, samples, label = 'fb') {
  const delays = [];
  for (let i = 0; i < samples; i++) {
    const gateways = [`${label}_a_${i}`, `${label}_b_${i}`];
    const paymentId = `${label}_${i}`;
    const decision = await json(url, '/decide-gateway', decideBody(merchant, paymentId, gateways), auth);
    const chosen = decision.decided_gateway;
    const started = performance.now();
    await json(url, '/update-gateway-score', { merchantId: merchant, gateway: chosen, paymentId, status: 'FAILURE' }, auth);
    for (let attempt = 0; ; attempt++) {
      const next = await json(url, '/decide-gateway', decideBody(merchant, `${paymentId}_probe_${attempt}`, gateways), auth);
      if (next.gateway_priority_map[chosen] < 1) break;
      if (performance.now() - started > 30_000) throw new Error(`feedback never took effect (sample ${i})`);
    }
    delays.push(performance.now() - started);
  }
  return delays.sort((a, b) => a - b);
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
