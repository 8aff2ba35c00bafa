#!/usr/bin/env node
// The embedded event bus's backlog under a long saturating decide load, second by second: one
// service, one merchant (with decide-bench's row 2b settings, multi-objective and a running A/B
// experiment, unless EXPERIMENT=0, so the experiment guardrail's analytics query runs every minute),
// DURATION (150) s at CONNECTIONS (64). Samples GET /metrics once a second and prints the events the bus
// retains for its slowest consumer group (it waits publishers at EMBEDDED_BUS_MAX_EVENTS, 200,000
// unless BOUND sets it), then req/s, p99 and the slowest answer, and how long the bus was full.
// `GUARDRAIL_SECONDS` sets EXPERIMENT_GUARDRAIL_INTERVAL_SECONDS (3600: no tick in the run).
// `ROOT=<checkout>` runs another build. 127.0.0.1 only.
import { enableCostStepAndExperiment } from './lib/cost-step-experiment.mjs';
import { decideMixLoad } from './lib/decide-load.mjs';
import { metricValue } from './lib/metric-value.mjs';
import { benchMerchant, spawnService } from './lib/spawn-service.mjs';

const duration = Number(process.env.DURATION ?? 150);
const connections = Number(process.env.CONNECTIONS ?? 64);
const env = {
  ...(process.env.BOUND === undefined ? {} : { EMBEDDED_BUS_MAX_EVENTS: process.env.BOUND }),
  ...(process.env.GUARDRAIL_SECONDS === undefined ? {} : { EXPERIMENT_GUARDRAIL_INTERVAL_SECONDS: process.env.GUARDRAIL_SECONDS }),
};
const service = await spawnService(env, process.env.ROOT === undefined ? {} : { root: process.env.ROOT });
try {
  const merchant = `backlog_${Date.now()}`;
  const { headers } = await benchMerchant(service.url, 'bench-admin-secret-0123456789abcdef', merchant);
  if (process.env.EXPERIMENT !== '0') await enableCostStepAndExperiment(service.url, merchant, headers, 'backlog-experiment');
  const started = Date.now();
  const samples = [];
  let stopped = false;
  const sampler = (async () => {
    while (!stopped) {
      const metrics = await (await fetch(`${service.url}/metrics`)).text();
      const retained = metricValue(metrics, 'switchyard_event_bus_retained_events');
      samples.push({ second: Math.round((Date.now() - started) / 1000), retained });
      // A sample a second, the metric read as a client would; not a synchronisation.
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  const result = await decideMixLoad(`${service.url}/decide-gateway`, headers, merchant, { connections, duration, prefix: 'backlog' });
  stopped = true;
  await sampler;
  const bound = Number(process.env.BOUND ?? 200_000);
  const full = samples.filter((sample) => sample.retained >= bound).length;
  const peak = Math.max(...samples.map((sample) => sample.retained));
  console.log(`retained events per second: ${samples.map((sample) => sample.retained).join(' ')}`);
  console.log(
    `decide ${duration}s at ${connections} connections${process.env.EXPERIMENT === '0' ? '' : ', a running experiment'}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, slowest ${result.latency.max} ms, ${result.non2xx + result.errors} errors/non-2xx; backlog peak ${peak} events, at the bound (${bound}) in ${full} of ${samples.length} samples`,
  );
  console.log(
    JSON.stringify({
      benchmark: 'bus-backlog',
      duration_s: duration,
      rps: result.requests.average,
      p99_ms: result.latency.p99,
      max_ms: result.latency.max,
      peak,
      full_samples: full,
    }),
  );
} finally {
  await service.stop();
}
