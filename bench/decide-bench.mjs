#!/usr/bin/env node
// Decide benchmark (embedded mode unless REDIS_URL/KAFKA_BROKERS are set in the environment).
// Prints req/s and latency p50/p99 for POST /decide-gateway at 64 connections on loopback, then the
// feedback-to-effect delay (feedback accepted → the next decision reflects it), p50/p99.
// Bounded: DURATION seconds (default 15) of load, FEEDBACK_SAMPLES (default 200) delay samples.
import autocannon from 'autocannon';
import { json, spawnService } from './lib/spawn-service.mjs';

const duration = Number(process.env.DURATION ?? 15);
const connections = Number(process.env.CONNECTIONS ?? 64);
const samples = Number(process.env.FEEDBACK_SAMPLES ?? 200);
const mode = process.env.REDIS_URL || process.env.KAFKA_BROKERS ? 'distributed' : 'embedded';

const service = await spawnService();
try {
  const merchant = `bench_${Date.now()}`;
  const created = await json(service.url, '/merchant-account/create', { merchant_id: merchant }, { 'x-admin-secret': 'bench-admin-secret-0123456789abcdef' });
  const auth = { 'x-api-key': created.api_key };
  await json(service.url, '/rule/create', { merchant_id: merchant, config: { type: 'successRate', data: { defaultBucketSize: 125, defaultHedgingPercent: 5 } } }, auth);
  const body = (paymentId, gateways = ['stripe', 'adyen', 'checkout']) => ({
    merchantId: merchant,
    eligibleGatewayList: gateways,
    rankingAlgorithm: 'SR_BASED_ROUTING',
    eliminationEnabled: true,
    paymentInfo: { paymentId, amount: 100, currency: 'USD', paymentType: 'ORDER_PAYMENT', paymentMethodType: 'CARD', paymentMethod: 'CREDIT', cardType: 'CREDIT', authType: 'THREE_DS', cardIsin: '411111', cardSwitchProvider: 'VISA' },
  });

  process.stderr.write(`warming up ${service.url} (${mode})…\n`);
  await autocannon({ url: `${service.url}/decide-gateway`, method: 'POST', connections, duration: 3, headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(body('warm')) });
  process.stderr.write(`measuring ${duration}s at ${connections} connections…\n`);
  let counter = 0;
  const result = await autocannon({
    url: `${service.url}/decide-gateway`,
    method: 'POST',
    connections,
    duration,
    headers: { 'content-type': 'application/json', ...auth },
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body(`pay_${counter++}`)) }) }],
  });
  const errors = result.errors + result.non2xx;

  // Feedback-to-effect: a fresh dimension per sample so each starts at score 1.0.
  const delays = [];
  for (let i = 0; i < samples; i++) {
    const gateways = [`gw_a_${i}`, `gw_b_${i}`];
    const paymentId = `fb_${i}`;
    const decision = await json(service.url, '/decide-gateway', body(paymentId, gateways), auth);
    const chosen = decision.decided_gateway;
    const started = performance.now();
    await json(service.url, '/update-gateway-score', { merchantId: merchant, gateway: chosen, paymentId, status: 'FAILURE' }, auth);
    for (let attempt = 0; ; attempt++) {
      const next = await json(service.url, '/decide-gateway', body(`${paymentId}_probe_${attempt}`, gateways), auth);
      if (next.gateway_priority_map[chosen] < 1) break;
      if (attempt > 10_000) throw new Error('feedback never took effect');
    }
    delays.push(performance.now() - started);
  }
  delays.sort((a, b) => a - b);
  const pct = (p) => delays[Math.min(delays.length - 1, Math.floor((p / 100) * delays.length))].toFixed(2);

  console.log(`mode: ${mode}`);
  console.log(`decide: ${result.requests.average.toFixed(0)} req/s (${result.requests.total} requests in ${duration}s, ${errors} errors/non-2xx)`);
  console.log(`decide latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms at ${connections} connections`);
  console.log(`feedback-to-effect: p50 ${pct(50)} ms, p99 ${pct(99)} ms over ${samples} samples`);
} finally {
  await service.stop();
}
