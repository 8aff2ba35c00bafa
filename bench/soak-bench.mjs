#!/usr/bin/env node
// Memory soak (embedded unless REDIS_URL/KAFKA_BROKERS are set): finds the decide peak with a short
// full-speed run (or takes PEAK_RPS), then holds half of it for WARMUP_SECONDS (default 0) and
// SOAK_SECONDS (default 300) with the decide bench's request mix, sampling the service's own memory
// (/metrics: RSS, V8 heap used, and the live heap after the latest full collection) every
// SAMPLE_SECONDS (default 10). The warm-up fills the bounded stores (decision contexts: 500,000) so
// the soak measures the steady state, not the fill. Prints heap, live heap and RSS at start and end
// of the soak and their trend (least-squares slope over the soak's samples after its first minute, MB
// per minute), and the heap floor (lowest sample) of each minute.
// ROOT=<dir> runs that checkout's dist/ instead of this one's (e.g. the scratch build `make bench-compare`
// leaves in /tmp/switchyard-compare-<sha>), so two builds' footprints can be read in one sitting.
// Bounded in time: PEAK_SECONDS + WARMUP_SECONDS + SOAK_SECONDS of load; loopback only.
import autocannon from 'autocannon';
import { decideMixBody } from './lib/decide-body.mjs';
import { json, spawnService } from './lib/spawn-service.mjs';
import { metricValue } from './lib/metric-value.mjs';

const soakSeconds = Number(process.env.SOAK_SECONDS ?? 300);
const warmupSeconds = Number(process.env.WARMUP_SECONDS ?? 0);
const sampleSeconds = Number(process.env.SAMPLE_SECONDS ?? 10);
const peakSeconds = Number(process.env.PEAK_SECONDS ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 64);
const adminSecret = 'bench-admin-secret-0123456789abcdef';

const service = await spawnService({ ADMIN_SECRET: adminSecret }, process.env.ROOT ? { root: process.env.ROOT } : {});
try {
  const merchant = `soak_${Date.now()}`;
  const created = await json(service.url, '/merchant-account/create', { merchant_id: merchant }, { 'x-admin-secret': adminSecret });
  const auth = { 'x-api-key': created.api_key };
  await json(
    service.url,
    '/rule/create',
    { merchant_id: merchant, config: { type: 'successRate', data: { defaultBucketSize: 125, defaultHedgingPercent: 5 } } },
    auth,
  );
  let counter = 0;
  const load = (seconds, overallRate) =>
    autocannon({
      url: `${service.url}/decide-gateway`,
      method: 'POST',
      connections,
      duration: seconds,
      ...(overallRate === undefined ? {} : { overallRate }),
      headers: { 'content-type': 'application/json', ...auth },
      requests: [
        {
          setupRequest: (request) => {
            const index = counter++;
            return { ...request, body: JSON.stringify(decideMixBody(merchant, `soak_${index}`, index)) };
          },
        },
      ],
    });
  const memory = async () => {
    const text = await (await fetch(`${service.url}/metrics`)).text();
    const read = (name) => metricValue(text, name) / 1024 / 1024;
    const retained = metricValue(text, 'switchyard_event_bus_retained_events');
    return { rssMb: read('process_resident_memory_bytes'), heapMb: read('nodejs_heap_size_used_bytes'), liveMb: read('switchyard_heap_live_bytes'), retained };
  };
  /** The live heap as printed: /metrics has none until the service's first full collection. */
  const liveText = (liveMb) => (Number.isNaN(liveMb) ? 'none yet (no full collection)' : `${liveMb.toFixed(1)} MB`);

  const peak = Number(process.env.PEAK_RPS ?? 0) || (await load(peakSeconds)).requests.average;
  const rate = Math.max(1, Math.round(peak / 2));
  if (warmupSeconds > 0) {
    process.stderr.write(`peak ${peak.toFixed(0)} req/s; warming up at ${rate} req/s for ${warmupSeconds}s…\n`);
    const warm = await load(warmupSeconds, rate);
    const m = await memory();
    process.stderr.write(
      `  warm-up: ${warm.requests.total} requests, ${warm.errors + warm.non2xx} errors; heap ${m.heapMb.toFixed(1)} MB, live ${liveText(m.liveMb)}, rss ${m.rssMb.toFixed(1)} MB\n`,
    );
  }
  process.stderr.write(`peak ${peak.toFixed(0)} req/s; soaking at ${rate} req/s for ${soakSeconds}s…\n`);
  const samples = [await memory()].map((m) => ({ t: 0, ...m }));
  const started = Date.now();
  const running = load(soakSeconds, rate);
  const sampler = setInterval(() => {
    memory().then(
      (m) => {
        samples.push({ t: (Date.now() - started) / 1000, ...m });
        process.stderr.write(
          `  t=${Math.round((Date.now() - started) / 1000)}s rss ${m.rssMb.toFixed(1)} MB heap ${m.heapMb.toFixed(1)} MB live ${liveText(m.liveMb)}, events awaiting a consumer ${m.retained}\n`,
        );
      },
      () => undefined,
    );
  }, sampleSeconds * 1000);
  const result = await running;
  clearInterval(sampler);
  const end = await memory();
  samples.push({ t: (Date.now() - started) / 1000, ...end });

  /** Least-squares slope of `key` over the samples after the first minute, in MB per minute. */
  const slope = (key) => {
    // A sample taken before the first full collection has no live heap (NaN): left out, it would make the trend NaN.
    const points = samples.filter((s) => s.t >= Math.min(60, soakSeconds / 3) && !Number.isNaN(s[key]));
    if (points.length < 2) return NaN;
    const n = points.length;
    const mt = points.reduce((a, p) => a + p.t, 0) / n;
    const mv = points.reduce((a, p) => a + p[key], 0) / n;
    const num = points.reduce((a, p) => a + (p.t - mt) * (p[key] - mv), 0);
    const den = points.reduce((a, p) => a + (p.t - mt) ** 2, 0);
    return (num / den) * 60;
  };
  // Heap used includes garbage V8 has not collected yet (it lets the heap grow between major
  // collections), so a straight trend mostly measures GC timing. The lowest sample of each minute
  // is the live floor; its trend is what a leak would move.
  const floors = [];
  for (const sample of samples) {
    const minute = Math.floor(sample.t / 60);
    floors[minute] = Math.min(floors[minute] ?? Infinity, sample.heapMb);
  }
  const floorText = floors.map((mb, minute) => `min ${minute + 1}: ${mb.toFixed(0)} MB`).join(', ');
  const first = samples[0];
  console.log(
    `soak: ${soakSeconds}s at ${rate} req/s (half the ${peak.toFixed(0)} req/s peak) after ${warmupSeconds}s of warm-up, ${result.requests.total} requests, ${result.errors + result.non2xx} errors/non-2xx, p99 ${result.latency.p99} ms`,
  );
  console.log(
    `heap used: ${first?.heapMb.toFixed(1)} MB at start, ${end.heapMb.toFixed(1)} MB at end; trend ${slope('heapMb').toFixed(2)} MB/min after the first minute`,
  );
  console.log(
    `live heap (after the latest full collection): ${liveText(first?.liveMb ?? Number.NaN)} at start, ${liveText(end.liveMb)} at end; trend ${slope('liveMb').toFixed(2)} MB/min after the first minute`,
  );
  console.log(`heap floor (lowest sample per minute): ${floorText}`);
  console.log(
    `rss: ${first?.rssMb.toFixed(1)} MB at start, ${end.rssMb.toFixed(1)} MB at end; trend ${slope('rssMb').toFixed(2)} MB/min after the first minute`,
  );
  console.log(
    JSON.stringify({
      benchmark: 'soak',
      seconds: soakSeconds,
      rate,
      requests: result.requests.total,
      errors: result.errors + result.non2xx,
      p99_ms: result.latency.p99,
      warmup_seconds: warmupSeconds,
      heap_start_mb: first?.heapMb,
      heap_end_mb: end.heapMb,
      live_heap_start_mb: first?.liveMb,
      live_heap_end_mb: end.liveMb,
      live_heap_trend_mb_per_min: slope('liveMb'),
      heap_trend_mb_per_min: slope('heapMb'),
      rss_start_mb: first?.rssMb,
      rss_end_mb: end.rssMb,
      rss_trend_mb_per_min: slope('rssMb'),
      heap_floor_mb_per_minute: floors.map((mb) => Math.round(mb)),
    }),
  );
} finally {
  await service.stop();
}
