#!/usr/bin/env node
// LLM gateway benchmark: the latency a gateway adds in front of a provider, measured in one run on
// one loopback mock provider (OpenAI wire format, answers at once), for three paths:
//   direct     client → mock
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
// Native pass-through (issue 34): `switchyard` and `switchyard_responses` reach the OpenAI mock in their own
// wire, passed through; beside them, in the same run, `switchyard_messages_native` (Messages → the mock's
// Anthropic wire, passed through), `switchyard_chat_translated` (chat → Anthropic, translated) and
// `switchyard_responses_translated` (Responses → Anthropic, translated).
// at concurrency 1 and 16, plain and streaming. Prints one JSON line per (path, mode, concurrency)
// with p50/p99 latency, and the added p50/p99 of each gateway over direct; the responses and messages
// rows also print their added p50/p99 as a ratio to the chat-completions (`switchyard`) row's.
// Bounded: REQUESTS (default 400) per measurement after WARMUP (default 100). Needs `npm run build`.
// PATHS=a,b limits the run to those paths (and direct), MODES=plain|stream and CONCURRENCY=1|16 to those
// cases; SERVICE_NODE_FLAGS=--cpu-prof profiles the service.
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, Agent } from 'node:http';
import { join } from 'node:path';
import { freePort } from './lib/free-port.mjs';
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

const mock = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
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
const switchyard = await spawnService({
  OPENAI_API_KEY: 'sk-bench',
  OPENAI_BASE_URL: `${mockUrl}/v1`,
  ANTHROPIC_API_KEY: 'sk-ant-bench',
  ANTHROPIC_BASE_URL: `${mockUrl}/v1`,
});
const merchantId = `llm_bench_${Date.now()}`;
const merchant = await json(
  switchyard.url,
  '/merchant-account/create',
  { merchant_id: merchantId },
  { 'x-admin-secret': 'bench-admin-secret-0123456789abcdef' },
);

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

const allPaths = {
  direct: { url: `${mockUrl}/v1/chat/completions`, headers: { authorization: 'Bearer sk-bench' }, model: 'gpt-4o-mini' },
  node_proxy: { url: `${bareProxyUrl}/v1/chat/completions`, headers: { authorization: 'Bearer sk-bench' }, model: 'gpt-4o-mini' },
  switchyard: { url: `${switchyard.url}/v1/chat/completions`, headers: { authorization: `Bearer ${merchant.api_key}` }, model: 'openai/gpt-4o-mini' },
  switchyard_responses: {
    url: `${switchyard.url}/v1/responses`,
    headers: { authorization: `Bearer ${merchant.api_key}` },
    model: 'openai/gpt-4o-mini',
    wire: 'responses',
  },
  switchyard_messages: {
    url: `${switchyard.url}/v1/messages`,
    headers: { 'x-api-key': merchant.api_key, 'anthropic-version': '2023-06-01' },
    model: 'openai/gpt-4o-mini',
    wire: 'messages',
  },
  // Native pass-through beside translation, same run (issue 34): each wire to the provider that speaks it
  // (passed through) and to one that does not (translated). `switchyard` (chat → OpenAI) and
  // `switchyard_responses` (Responses → OpenAI) are passed through; `switchyard_messages` (Messages → OpenAI) is translated.
  switchyard_messages_native: {
    url: `${switchyard.url}/v1/messages`,
    headers: { 'x-api-key': merchant.api_key, 'anthropic-version': '2023-06-01' },
    model: 'anthropic/claude-sonnet-4-5',
    wire: 'messages',
  },
  switchyard_chat_translated: {
    url: `${switchyard.url}/v1/chat/completions`,
    headers: { authorization: `Bearer ${merchant.api_key}` },
    model: 'anthropic/claude-sonnet-4-5',
  },
  switchyard_responses_translated: {
    url: `${switchyard.url}/v1/responses`,
    headers: { authorization: `Bearer ${merchant.api_key}` },
    model: 'anthropic/claude-sonnet-4-5',
    wire: 'responses',
  },
  switchyard_governed: {
    url: `${switchyard.url}/v1/chat/completions`,
    headers: { authorization: `Bearer ${governedKey}` },
    model: 'openai/gpt-4o-mini',
    vary: true,
    expect: { header: 'x-cache', value: 'MISS' },
  },
  switchyard_cache_hit: {
    url: `${switchyard.url}/v1/chat/completions`,
    headers: { authorization: `Bearer ${cachedKey}` },
    model: 'openai/gpt-4o-mini',
    expect: { header: 'x-cache', value: 'HIT' },
  },
  portkey: {
    url: `${portkeyUrl}/v1/chat/completions`,
    headers: { authorization: 'Bearer sk-bench', 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${mockUrl}/v1` },
    model: 'gpt-4o-mini',
  },
};

/** PATHS=switchyard,portkey measures only those (direct always: it is the baseline), e.g. to profile one. */
const only = process.env.PATHS?.split(',').map((name) => name.trim());
const paths = Object.fromEntries(Object.entries(allPaths).filter(([name]) => name === 'direct' || only === undefined || only.includes(name)));

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
  const body = JSON.stringify(wire.body(path.model, path.vary === true ? `ping ${++varied}` : 'ping', stream));
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
  const worker = async () => {
    while (next < count) {
      next++;
      latencies.push(await once(path, stream));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { p50: pct(50), p99: pct(99) };
}

/** MODES=plain|stream and CONCURRENCY=16 narrow the run (e.g. to profile one case). */
const modes = (process.env.MODES ?? 'plain,stream').split(',').map((mode) => mode.trim());
const concurrencies = (process.env.CONCURRENCY ?? '1,16').split(',').map(Number);
const round = (x) => Math.round(x * 1000) / 1000;
/** The first request of a cached path is a miss that fills the cache: only measured ones must hit. */
let measuringWarmup = false;
try {
  for (const stream of modes.map((mode) => mode === 'stream')) {
    for (const concurrency of concurrencies) {
      const figures = {};
      for (const [name, path] of Object.entries(paths)) {
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
      for (const name of Object.keys(paths)) {
        const f = figures[name];
        if (f.error !== undefined) {
          console.log(JSON.stringify({ benchmark: 'llm-gateway', path: name, mode: stream ? 'stream' : 'plain', concurrency, error: f.error }));
          continue;
        }
        const added = name === 'direct' ? {} : { added_p50_ms: round(f.p50 - figures.direct.p50), added_p99_ms: round(f.p99 - figures.direct.p99) };
        const overPlain =
          name.startsWith('switchyard_') && figures.switchyard?.p50 !== undefined
            ? { over_switchyard_p50_ms: round(f.p50 - figures.switchyard.p50), over_switchyard_p99_ms: round(f.p99 - figures.switchyard.p99) }
            : {};
        // Added latency of another wire over the chat completions' (1 = the same; the aim is within 10 %).
        const chatAdded = (p) => figures.switchyard[p] - figures.direct[p];
        const toChat =
          paths[name].wire !== undefined && figures.switchyard?.p50 !== undefined
            ? {
                added_ratio_to_chat_p50: round((f.p50 - figures.direct.p50) / chatAdded('p50')),
                added_ratio_to_chat_p99: round((f.p99 - figures.direct.p99) / chatAdded('p99')),
              }
            : {};
        console.log(
          JSON.stringify({
            benchmark: 'llm-gateway',
            path: name,
            mode: stream ? 'stream' : 'plain',
            concurrency,
            requests,
            p50_ms: round(f.p50),
            p99_ms: round(f.p99),
            ...added,
            ...overPlain,
            ...toChat,
          }),
        );
      }
    }
  }
} finally {
  agent.destroy();
  portkey.kill('SIGTERM');
  bareProxy.kill('SIGTERM');
  await switchyard.stop();
  mock.close();
}
