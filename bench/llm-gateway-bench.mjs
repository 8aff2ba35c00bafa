#!/usr/bin/env node
// LLM gateway benchmark: the latency a gateway adds in front of a provider, measured in one run on
// one loopback mock provider (answers at once, in OpenAI's chat and Responses wires and Anthropic's
// Messages wire), for these paths:
//   direct     client → mock (and direct_messages, direct_responses: the mock's other two wires)
//   node_proxy client → a bare node:http pass-through proxy → mock (the floor of any Node gateway)
//   switchyard client → `switchyard serve` (embedded, POST /v1/chat/completions) → mock
//   portkey    client → Portkey gateway (npm @portkey-ai/gateway, headless) → mock
//   switchyard_governed   the same through Switchyard with a key whose limits are all on (rpm, tpm,
//                         max_concurrent, budget) and whose cache is on, every request a different prompt
//                         (one admission step, one spend count, one cache lookup and one store per request)
//   switchyard_cache_hit  the same with a key whose response cache is on, every request a hit
//   switchyard_responses  client → Switchyard's POST /v1/responses (input string; a stream ends at
//                         response.completed) → the same provider, the same model route as `switchyard`
//   switchyard_messages   client → Switchyard's POST /v1/messages (Anthropic wire: x-api-key,
//                         anthropic-version, max_tokens; a stream ends at message_stop) → the same
//                         provider, the same model route (translated: Messages → Chat Completions)
// Native pass-through beside translation (issue 34), same run: each wire to the upstream that speaks it
// (pass-through: the client's body on with only `model` rewritten, the provider's bytes back) and to one
// that does not (translated), on the one mock, which speaks all three wires:
//   switchyard                       chat completions → OpenAI chat (pass-through)
//   switchyard_chat_translated       chat completions → Anthropic Messages (translated)
//   switchyard_messages_native       Messages → Anthropic Messages (pass-through)
//   switchyard_messages              Messages → OpenAI chat (translated)
//   switchyard_responses             Responses → OpenAI Responses (pass-through)
//   switchyard_responses_translated  Responses → Anthropic Messages (translated)
// Each row's `kind` says which, `upstream` the wire the mock answered in; `direct`, `direct_messages` and
// `direct_responses` call the mock in each upstream wire, and a row's added latency is over the direct
// call of its own upstream wire (`added_*`; `added_over_chat_direct_*` keeps the old baseline).
// Each gateway row also has the CPU the gateway process spent per request over the measured window
// (`cpu_us_per_request`, all its threads, and `main_cpu_us_per_request`, its main thread; from /proc),
// which moves far less than latency on a shared machine. The closing `summary` lines pair each wire's
// pass-through row with its translated row (added p50/p99 and CPU, pass-through minus translated).
// Every path at concurrency 1 and 16, plain and streaming. Prints one JSON line per (path, mode, concurrency)
// with p50/p99 latency, and the added p50/p99 of each gateway over direct; the responses and messages
// rows also print their added p50/p99 as a ratio to the chat-completions (`switchyard`) row's.
// Guardrails' added latency (issue 38), same run: a prompt of GUARD_PROMPT_BYTES (4096; prose with dates, amounts
// and order ids, no card number) to chat completions (pass-through) on two services of the one build, one with
// the default guards (card numbers masked) and one with every guard off (bench/lib/guards-off.mjs):
//   direct_4kb                 client → mock, the same prompt (the baseline of the two rows below)
//   switchyard_4kb             client → switchyard, default guards → mock
//   switchyard_4kb_guards_off  client → a second switchyard, no guard → mock
// and a closing `summary: 'guards on vs off'` line per mode and concurrency: both added p50/p99, the guards'
// share of the gateway's added p50 ((on − off) / off; the aim is under 0.10) and both CPU µs per request. The two
// are measured alternately, GUARD_ROUNDS (3) rounds of REQUESTS each with the order swapped every round, and the
// rows carry the medians of the rounds.
// Bounded: REQUESTS (default 400) per measurement after WARMUP (default 100). Needs `npm run build`.
// PATHS=a,b limits the run to those paths (and the direct ones), MODES=plain|stream and CONCURRENCY=1|16 to those
// cases; SERVICE_NODE_FLAGS=--cpu-prof profiles the service; SERVICE_ROOT=<dir> runs another build's dist/ (a
// checkout built with tsc and scripts/copy-assets.mjs), e.g. the commit before the pass-through, to set its
// translated rows beside today's.
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, Agent } from 'node:http';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { freePort } from './lib/free-port.mjs';
import { cpuSeconds } from './lib/proc-cpu.mjs';
import { json, spawnService } from './lib/spawn-service.mjs';

const requests = Number(process.env.REQUESTS ?? 400);
const warmup = Number(process.env.WARMUP ?? 100);
const root = new URL('..', import.meta.url).pathname;

// ---------------------------------------------------------------- the mock provider
const completion = (model) =>
  JSON.stringify({
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
  });
const chunk = (model, delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usageChunk = (model) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1, model, choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } })}\n\n`;

// Anthropic's Messages wire and OpenAI's Responses wire, for the native pass-through rows.
const anthropicMessage = (model) =>
  JSON.stringify({
    id: 'msg_mock',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: 'pong' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 1 },
  });
const anthropicEvent = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const anthropicStream = (model) =>
  [
    anthropicEvent('message_start', {
      message: {
        id: 'msg_mock',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    }),
    anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'po' } }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'ng' } }),
    anthropicEvent('content_block_stop', { index: 0 }),
    anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
    anthropicEvent('message_stop', {}),
  ].join('');
const responseObject = (model) => ({
  id: 'resp_mock',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model,
  output: [{ id: 'msg_mock', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'pong', annotations: [] }] }],
  usage: { input_tokens: 5, output_tokens: 1, total_tokens: 6 },
});
const responsesEvent = (type, sequence, data) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...data })}\n\n`;
const responsesStream = (model) =>
  [
    responsesEvent('response.created', 0, { response: { ...responseObject(model), status: 'in_progress', output: [], usage: null } }),
    responsesEvent('response.output_text.delta', 1, { item_id: 'msg_mock', output_index: 0, content_index: 0, delta: 'po' }),
    responsesEvent('response.output_text.delta', 2, { item_id: 'msg_mock', output_index: 0, content_index: 0, delta: 'ng' }),
    responsesEvent('response.completed', 3, { response: responseObject(model) }),
  ].join('');

/** The last request body the mock received (the guards on/off check reads it). */
let mockLastBody = '';
const mock = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    mockLastBody = Buffer.concat(chunks).toString();
    const body = JSON.parse(mockLastBody || '{}');
    const model = body.model ?? 'gpt-4o-mini';
    const streamed = body.stream === true;
    if (req.url === '/v1/messages' || req.url === '/v1/responses') {
      const messages = req.url === '/v1/messages';
      res.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
      if (messages) res.end(streamed ? anthropicStream(model) : anthropicMessage(model));
      else res.end(streamed ? responsesStream(model) : JSON.stringify(responseObject(model)));
      return;
    }
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        [
          chunk(model, { role: 'assistant', content: '' }),
          chunk(model, { content: 'po' }),
          chunk(model, { content: 'ng' }),
          chunk(model, {}, 'stop'),
          usageChunk(model),
          'data: [DONE]\n\n',
        ].join(''),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(completion(model));
  });
});
await new Promise((resolve) => mock.listen(0, '127.0.0.1', resolve));
const mockUrl = `http://127.0.0.1:${mock.address().port}`;

// ---------------------------------------------------------------- the gateways
process.stderr.write('starting switchyard and portkey…\n');
const switchyard = await spawnService(
  {
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: `${mockUrl}/v1`,
    ANTHROPIC_API_KEY: 'sk-ant-bench',
    ANTHROPIC_BASE_URL: `${mockUrl}/v1`,
  },
  process.env.SERVICE_ROOT === undefined ? {} : { root: process.env.SERVICE_ROOT },
);
/** PATHS=switchyard,portkey measures only those (the direct ones always: they are the baselines), e.g. to profile one. */
const only = process.env.PATHS?.split(',').map((name) => name.trim());
const guardsOffWanted = only === undefined || only.includes('switchyard_4kb_guards_off');
// The same build with every guard off (bench/lib/guards-off.mjs, a preload), for the guards on/off rows.
const guardsOffService = guardsOffWanted
  ? await (async () => {
      const flags = process.env.SERVICE_NODE_FLAGS;
      process.env.SERVICE_NODE_FLAGS = `${flags ?? ''} --import ${join(root, 'bench/lib/guards-off.mjs')}`;
      try {
        return await spawnService(
          { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: `${mockUrl}/v1` },
          process.env.SERVICE_ROOT === undefined ? {} : { root: process.env.SERVICE_ROOT },
        );
      } finally {
        if (flags === undefined) delete process.env.SERVICE_NODE_FLAGS;
        else process.env.SERVICE_NODE_FLAGS = flags;
      }
    })()
  : undefined;
const merchantId = `llm_bench_${Date.now()}`;
const merchant = await json(
  switchyard.url,
  '/merchant-account/create',
  { merchant_id: merchantId },
  { 'x-admin-secret': 'bench-admin-secret-0123456789abcdef' },
);

const guardsOffMerchant =
  guardsOffService === undefined
    ? undefined
    : await json(guardsOffService.url, '/merchant-account/create', { merchant_id: merchantId }, { 'x-admin-secret': 'bench-admin-secret-0123456789abcdef' });

// The guards are what the two services differ in: a card number reaches the mock masked from one, as sent from the other.
if (guardsOffService !== undefined) {
  const card = '4111 1111 1111 1111';
  for (const [service, key, masked] of [
    [switchyard, merchant.api_key, true],
    [guardsOffService, guardsOffMerchant.api_key, false],
  ]) {
    await json(
      service.url,
      '/v1/chat/completions',
      { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: `card ${card}` }] },
      { authorization: `Bearer ${key}` },
    );
    if (mockLastBody.includes(card) === masked) throw new Error(`guards ${masked ? 'on' : 'off'}: the mock received ${mockLastBody.slice(0, 200)}`);
  }
}

const portkeyPort = await freePort();
const portkey = spawn(process.execPath, [join(root, 'node_modules/@portkey-ai/gateway/build/start-server.js'), `--port=${portkeyPort}`, '--headless'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NODE_ENV: 'production' },
});
const portkeyUrl = `http://127.0.0.1:${portkeyPort}`;
for (let attempt = 0; ; attempt++) {
  const up = await fetch(`${portkeyUrl}/`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) break;
  if (portkey.exitCode !== null) throw new Error(`portkey exited with ${portkey.exitCode}`);
  if (attempt > 300) throw new Error('portkey did not start in 30 s');
  await new Promise((r) => setTimeout(r, 100));
}

// The floor: a bare node:http pass-through proxy, what any Node gateway adds before doing anything.
const bareProxy = spawn(process.execPath, [join(root, 'bench/lib/bare-proxy.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, UPSTREAM: mockUrl },
});
const bareProxyUrl = await new Promise((resolve, reject) => {
  bareProxy.stdout.once('data', (port) => resolve(`http://127.0.0.1:${String(port).trim()}`));
  bareProxy.once('exit', (code) => reject(new Error(`bare proxy exited with ${code}`)));
});

/** A key of the bench merchant with `policy` (limits and/or cache). */
const keyWith = async (policy) =>
  (await json(switchyard.url, '/api-key/create', { merchant_id: merchantId, ...policy }, { 'x-api-key': merchant.api_key })).api_key;
const governedKey = await keyWith({
  limits: { rpm: 10_000_000, tpm: 1_000_000_000, max_concurrent: 10_000, budget: { amount_usd: 1_000_000, period: 'day' } },
  cache: { ttl_s: 3600 },
});
const cachedKey = await keyWith({ cache: { ttl_s: 3600 } });

/**
 * Every path: its URL, headers and model, the wire the client speaks (`wire`, chat completions unless
 * named), the wire the mock answers it in (`upstream`, the baseline of its added latency), whether
 * Switchyard passes it through or translates it (`kind`), and the process whose CPU it costs (`pid`).
 */
const openaiChat = 'openai-chat';
const anthropicMessages = 'anthropic-messages';
const openaiResponses = 'openai-responses';
const sy = { pid: switchyard.pid };
/** GUARD_PROMPT_BYTES of prose with dates, amounts and order ids and no card number (bench-compare's GATEWAY_PROMPT_BYTES text). */
const guardPromptBytes = Number(process.env.GUARD_PROMPT_BYTES ?? 4096);
const guardSentence =
  'The merchant asked why order 2026-11-29/48213 was declined at 14:05 for 129.90 EUR, and whether a retry on the second gateway would help. ';
const guardPrompt = guardSentence.repeat(Math.ceil(guardPromptBytes / guardSentence.length)).slice(0, guardPromptBytes);
const allPaths = {
  direct: { url: `${mockUrl}/v1/chat/completions`, headers: { authorization: 'Bearer sk-bench' }, model: 'gpt-4o-mini', upstream: openaiChat, kind: 'direct' },
  direct_messages: {
    url: `${mockUrl}/v1/messages`,
    headers: { 'x-api-key': 'sk-ant-bench', 'anthropic-version': '2023-06-01' },
    model: 'claude-sonnet-4-5',
    wire: 'messages',
    upstream: anthropicMessages,
    kind: 'direct',
  },
  direct_responses: {
    url: `${mockUrl}/v1/responses`,
    headers: { authorization: 'Bearer sk-bench' },
    model: 'gpt-4o-mini',
    wire: 'responses',
    upstream: openaiResponses,
    kind: 'direct',
  },
  node_proxy: {
    url: `${bareProxyUrl}/v1/chat/completions`,
    headers: { authorization: 'Bearer sk-bench' },
    model: 'gpt-4o-mini',
    upstream: openaiChat,
    kind: 'proxy',
    pid: bareProxy.pid,
  },
  // Pass-through and translated rows of each wire side by side (issue 34).
  switchyard: {
    url: `${switchyard.url}/v1/chat/completions`,
    headers: { authorization: `Bearer ${merchant.api_key}` },
    model: 'openai/gpt-4o-mini',
    upstream: openaiChat,
    kind: 'pass-through',
    ...sy,
  },
  switchyard_chat_translated: {
    url: `${switchyard.url}/v1/chat/completions`,
    headers: { authorization: `Bearer ${merchant.api_key}` },
    model: 'anthropic/claude-sonnet-4-5',
    upstream: anthropicMessages,
    kind: 'translated',
    ...sy,
  },
  switchyard_messages_native: {
    url: `${switchyard.url}/v1/messages`,
    headers: { 'x-api-key': merchant.api_key, 'anthropic-version': '2023-06-01' },
    model: 'anthropic/claude-sonnet-4-5',
    wire: 'messages',
    upstream: anthropicMessages,
    kind: 'pass-through',
    ...sy,
  },
  switchyard_messages: {
    url: `${switchyard.url}/v1/messages`,
    headers: { 'x-api-key': merchant.api_key, 'anthropic-version': '2023-06-01' },
    model: 'openai/gpt-4o-mini',
    wire: 'messages',
    upstream: openaiChat,
    kind: 'translated',
    ...sy,
  },
  switchyard_responses: {
    url: `${switchyard.url}/v1/responses`,
    headers: { authorization: `Bearer ${merchant.api_key}` },
    model: 'openai/gpt-4o-mini',
    wire: 'responses',
    upstream: openaiResponses,
    kind: 'pass-through',
    ...sy,
  },
  switchyard_responses_translated: {
    url: `${switchyard.url}/v1/responses`,
    headers: { authorization: `Bearer ${merchant.api_key}` },
    model: 'anthropic/claude-sonnet-4-5',
    wire: 'responses',
    upstream: anthropicMessages,
    kind: 'translated',
    ...sy,
  },
  switchyard_governed: {
    url: `${switchyard.url}/v1/chat/completions`,
    headers: { authorization: `Bearer ${governedKey}` },
    model: 'openai/gpt-4o-mini',
    vary: true,
    expect: { header: 'x-cache', value: 'MISS' },
    upstream: openaiChat,
    kind: 'pass-through',
    ...sy,
  },
  switchyard_cache_hit: {
    url: `${switchyard.url}/v1/chat/completions`,
    headers: { authorization: `Bearer ${cachedKey}` },
    model: 'openai/gpt-4o-mini',
    expect: { header: 'x-cache', value: 'HIT' },
    upstream: openaiChat,
    kind: 'cache-hit',
    ...sy,
  },
  // Guards on beside off, one prompt size (issue 38); the 4 KB direct call is their baseline.
  direct_4kb: {
    url: `${mockUrl}/v1/chat/completions`,
    headers: { authorization: 'Bearer sk-bench' },
    model: 'gpt-4o-mini',
    upstream: 'openai-chat-4kb',
    prompt: guardPrompt,
    kind: 'direct',
  },
  switchyard_4kb: {
    url: `${switchyard.url}/v1/chat/completions`,
    headers: { authorization: `Bearer ${merchant.api_key}` },
    model: 'openai/gpt-4o-mini',
    upstream: 'openai-chat-4kb',
    prompt: guardPrompt,
    kind: 'pass-through',
    ...sy,
  },
  ...(guardsOffService === undefined
    ? {}
    : {
        switchyard_4kb_guards_off: {
          url: `${guardsOffService.url}/v1/chat/completions`,
          headers: { authorization: `Bearer ${guardsOffMerchant.api_key}` },
          model: 'openai/gpt-4o-mini',
          upstream: 'openai-chat-4kb',
          prompt: guardPrompt,
          kind: 'pass-through',
          pid: guardsOffService.pid,
        },
      }),
  portkey: {
    url: `${portkeyUrl}/v1/chat/completions`,
    headers: { authorization: 'Bearer sk-bench', 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${mockUrl}/v1` },
    model: 'gpt-4o-mini',
    upstream: openaiChat,
    kind: 'translated',
    pid: portkey.pid,
  },
};

/** Each wire's pass-through row and its translated row, for the closing summary. */
const pairs = [
  { wire: 'chat', passThrough: 'switchyard', translated: 'switchyard_chat_translated' },
  { wire: 'messages', passThrough: 'switchyard_messages_native', translated: 'switchyard_messages' },
  { wire: 'responses', passThrough: 'switchyard_responses', translated: 'switchyard_responses_translated' },
];

const paths = Object.fromEntries(Object.entries(allPaths).filter(([name, path]) => path.kind === 'direct' || only === undefined || only.includes(name)));
/** The direct path of each upstream wire. */
const directOf = Object.fromEntries(Object.entries(paths).flatMap(([name, path]) => (path.kind === 'direct' ? [[path.upstream, name]] : [])));

// ---------------------------------------------------------------- the load
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** A fresh prompt per request on paths that must miss the cache. */
let varied = 0;

/**
 * The same request in each wire a path speaks (`wire`, chat completions unless named), and the text
 * that shows its stream is complete.
 */
const wires = {
  chat: {
    body: (model, prompt, stream) => ({
      model,
      messages: [{ role: 'user', content: prompt }],
      max_tokens: 8,
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    }),
    streamEnd: 'data: [DONE]',
  },
  responses: {
    body: (model, prompt, stream) => ({ model, input: prompt, max_output_tokens: 8, ...(stream ? { stream: true } : {}) }),
    streamEnd: 'event: response.completed',
  },
  messages: {
    body: (model, prompt, stream) => ({ model, messages: [{ role: 'user', content: prompt }], max_tokens: 8, ...(stream ? { stream: true } : {}) }),
    streamEnd: 'event: message_stop',
  },
};

/** One request; resolves with its latency in ms once the whole answer (or stream) has arrived. */
function once(path, stream) {
  const wire = wires[path.wire ?? 'chat'];
  const body = JSON.stringify(wire.body(path.model, path.vary === true ? `ping ${++varied}` : (path.prompt ?? 'ping'), stream));
  const url = new URL(path.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...path.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${url.host} answered ${res.statusCode}: ${text.slice(0, 200)}`));
          if (path.expect !== undefined && !measuringWarmup && res.headers[path.expect.header] !== path.expect.value)
            return reject(new Error(`${path.expect.header} was ${res.headers[path.expect.header] ?? 'absent'}, not ${path.expect.value}`));
          if (stream && !text.includes(wire.streamEnd)) return reject(new Error(`${url.host}: stream without ${wire.streamEnd}`));
          resolve(performance.now() - started);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function measure(path, stream, concurrency, count) {
  const latencies = [];
  let next = 0;
  const cpuBefore = path.pid === undefined ? undefined : { all: cpuSeconds(path.pid), main: cpuSeconds(path.pid, path.pid) };
  const worker = async () => {
    while (next < count) {
      next++;
      latencies.push(await once(path, stream));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  // CPU µs per request of the process in the path (USER_HZ ticks: 10 ms resolution over the window).
  const perRequest = (before, now) => (before === undefined || now === undefined ? undefined : Math.round(((now - before) * 1e6) / count));
  const cpu =
    cpuBefore === undefined
      ? {}
      : { cpuUs: perRequest(cpuBefore.all, cpuSeconds(path.pid)), mainCpuUs: perRequest(cpuBefore.main, cpuSeconds(path.pid, path.pid)) };
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { p50: pct(50), p99: pct(99), ...cpu };
}

/** MODES=plain|stream and CONCURRENCY=16 narrow the run (e.g. to profile one case). */
const modes = (process.env.MODES ?? 'plain,stream').split(',').map((mode) => mode.trim());
const concurrencies = (process.env.CONCURRENCY ?? '1,16').split(',').map(Number);
const round = (x) => Math.round(x * 1000) / 1000;
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadAtStart = loadAverage();
/** The first request of a cached path is a miss that fills the cache: only measured ones must hit. */
let measuringWarmup = false;
try {
  for (const stream of modes.map((mode) => mode === 'stream')) {
    for (const concurrency of concurrencies) {
      const figures = {};
      const guardPair = ['switchyard_4kb', 'switchyard_4kb_guards_off'].filter((name) => paths[name] !== undefined);
      const paired = guardPair.length === 2 ? guardPair : [];
      for (const [name, path] of Object.entries(paths)) {
        if (paired.includes(name)) continue;
        try {
          measuringWarmup = true;
          await measure(path, stream, concurrency, warmup);
          measuringWarmup = false;
          figures[name] = await measure(path, stream, concurrency, requests);
        } catch (error) {
          // A gateway that cannot serve a mode is reported, not allowed to end the run.
          figures[name] = { error: error.message.slice(0, 160) };
        }
      }
      // Guards on and off alternately, GUARD_ROUNDS rounds with the order swapped each round, medians of the
      // rounds: a shared machine's load drifts, and one back-to-back pair would hand it to whichever ran second.
      const guardRounds = [];
      if (paired.length === 2) {
        try {
          for (const name of paired) {
            measuringWarmup = true;
            await measure(paths[name], stream, concurrency, warmup);
            measuringWarmup = false;
          }
          for (let index = 0; index < Number(process.env.GUARD_ROUNDS ?? 3); index++) {
            const round = {};
            for (const name of index % 2 === 0 ? paired : [...paired].reverse()) round[name] = await measure(paths[name], stream, concurrency, requests);
            guardRounds.push(round);
          }
          const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
          for (const name of paired) {
            const rounds = guardRounds.map((round) => round[name]);
            figures[name] = Object.fromEntries(['p50', 'p99', 'cpuUs', 'mainCpuUs'].map((key) => [key, median(rounds.map((one) => one[key]))]));
          }
        } catch (error) {
          for (const name of paired) figures[name] = { error: error.message.slice(0, 160) };
        }
      }
      const mode = stream ? 'stream' : 'plain';
      /** Added latency of a path over the direct call of its upstream wire (undefined when either failed). */
      const addedOf = (name, p) => {
        const base = paths[name] === undefined ? undefined : figures[directOf[paths[name].upstream]];
        return figures[name]?.p50 === undefined || base?.p50 === undefined ? undefined : figures[name][p] - base[p];
      };
      for (const name of Object.keys(paths)) {
        const f = figures[name];
        const path = paths[name];
        const labels = { benchmark: 'llm-gateway', path: name, kind: path.kind, wire: path.wire ?? 'chat', upstream: path.upstream, mode, concurrency };
        if (f.error !== undefined) {
          console.log(JSON.stringify({ ...labels, error: f.error }));
          continue;
        }
        const added = path.kind === 'direct' ? {} : { added_p50_ms: round(addedOf(name, 'p50')), added_p99_ms: round(addedOf(name, 'p99')) };
        const overChatDirect =
          path.kind !== 'direct' && path.upstream !== openaiChat && figures.direct?.p50 !== undefined
            ? { added_over_chat_direct_p50_ms: round(f.p50 - figures.direct.p50), added_over_chat_direct_p99_ms: round(f.p99 - figures.direct.p99) }
            : {};
        // Added latency of another wire over the chat completions' (1 = the same; the aim is within 10 %).
        const toChat =
          path.wire !== undefined && path.kind !== 'direct' && addedOf('switchyard', 'p50') !== undefined
            ? {
                added_ratio_to_chat_p50: round(addedOf(name, 'p50') / addedOf('switchyard', 'p50')),
                added_ratio_to_chat_p99: round(addedOf(name, 'p99') / addedOf('switchyard', 'p99')),
              }
            : {};
        const cpu = f.cpuUs === undefined ? {} : { cpu_us_per_request: f.cpuUs, main_cpu_us_per_request: f.mainCpuUs };
        console.log(JSON.stringify({ ...labels, requests, p50_ms: round(f.p50), p99_ms: round(f.p99), ...added, ...overChatDirect, ...toChat, ...cpu }));
      }
      // Each wire's pass-through beside its translated route: what passing through saves (negative: costs more).
      for (const pair of pairs) {
        const native = figures[pair.passThrough];
        const translated = figures[pair.translated];
        if (native?.p50 === undefined || translated?.p50 === undefined) continue;
        console.log(
          JSON.stringify({
            benchmark: 'llm-gateway',
            summary: 'pass-through vs translated',
            wire: pair.wire,
            mode,
            concurrency,
            pass_through_added_p50_ms: round(addedOf(pair.passThrough, 'p50')),
            translated_added_p50_ms: round(addedOf(pair.translated, 'p50')),
            pass_through_added_p99_ms: round(addedOf(pair.passThrough, 'p99')),
            translated_added_p99_ms: round(addedOf(pair.translated, 'p99')),
            pass_through_cpu_us: native.cpuUs,
            translated_cpu_us: translated.cpuUs,
            pass_through_no_slower_p50: addedOf(pair.passThrough, 'p50') <= addedOf(pair.translated, 'p50'),
          }),
        );
      }
      // The default guards beside none, same build, same prompt: what the guards add to the gateway's added latency.
      const on = figures.switchyard_4kb;
      const off = figures.switchyard_4kb_guards_off;
      if (on?.p50 !== undefined && off?.p50 !== undefined) {
        const onP50 = addedOf('switchyard_4kb', 'p50');
        const offP50 = addedOf('switchyard_4kb_guards_off', 'p50');
        console.log(
          JSON.stringify({
            benchmark: 'llm-gateway',
            summary: 'guards on vs off',
            prompt_bytes: guardPromptBytes,
            mode,
            concurrency,
            guards_on_added_p50_ms: round(onP50),
            guards_off_added_p50_ms: round(offP50),
            guards_on_added_p99_ms: round(addedOf('switchyard_4kb', 'p99')),
            guards_off_added_p99_ms: round(addedOf('switchyard_4kb_guards_off', 'p99')),
            guards_share_of_added_p50: offP50 > 0 ? round((onP50 - offP50) / offP50) : null,
            rounds: guardRounds.length,
            // Each round's guards-on minus guards-off p50 (ms): their spread is the run's noise.
            round_p50_differences_ms: guardRounds.map((one) => round(one.switchyard_4kb.p50 - one.switchyard_4kb_guards_off.p50)),
            guards_on_cpu_us: on.cpuUs,
            guards_off_cpu_us: off.cpuUs,
            guards_on_main_cpu_us: on.mainCpuUs,
            guards_off_main_cpu_us: off.mainCpuUs,
            within_aim: offP50 > 0 ? (onP50 - offP50) / offP50 < 0.1 : null,
          }),
        );
      }
    }
  }
  console.log(
    JSON.stringify({
      benchmark: 'llm-gateway',
      load_average_at_start: loadAtStart,
      load_average_at_end: loadAverage(),
      cores: cpus().length,
      date: new Date().toISOString(),
    }),
  );
} finally {
  agent.destroy();
  portkey.kill('SIGTERM');
  bareProxy.kill('SIGTERM');
  await switchyard.stop();
  await guardsOffService?.stop();
  mock.close();
}
