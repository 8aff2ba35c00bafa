/**
 * Cache-aware routing, measured (issue 34 point 4): a 20-turn agent session replayed on the
 * Anthropic Messages wire through a two-candidate route group, with cache affinity on and off.
 *
 *   npx vite-node bench/cache-affinity-bench.ts -- [--runs 20] [--turns 20] [--explore 5,50]
 *
 * The app is built in process (embedded adapters, test/helpers/test-app.ts). The two candidates are
 * two deployments of one model (`anthropic/sonnet-east`, `anthropic/sonnet-west`) on a local
 * Anthropic-wire fake that simulates prompt caching per deployment, as Anthropic documents it:
 * - the cached prefix ends at the request's last `cache_control` block (see the fallback below);
 * - a read is the longest prefix, ending at a block boundary within 20 blocks before that
 *   breakpoint, written before on THAT deployment (and not expired: 5 min after its last use);
 * - nothing below 1,024 tokens is cached; tokens are estimated at 4 characters each;
 * - usage reports `input_tokens` (uncached), `cache_creation_input_tokens`, `cache_read_input_tokens`.
 * Fallback: where a request arrives with no `cache_control` at all (the gateway's translated path
 * dropped it before the native pass-through, issue 34 point 2; Messages → Anthropic now passes it as
 * sent), the fake puts the breakpoint on the last user turn, where the client marked it, and counts
 * it (`lastRowBreakpointFallbacks`, 0 since the pass-through).
 *
 * Each run is one session (its own first task, so its own affinity key) on a fresh group and cold
 * deployments; the exploration draws come from a seeded generator, the same seeds for on and off.
 * The cost is what the fake bills: Claude Sonnet prices, $3 per million input tokens, cache writes
 * 1.25× and reads 0.1× of that, $15 per million output tokens.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeHttpServer, type RecordedRequest } from '../test/fixtures/providers/fake-http-server.js';
import { createMerchant, createTestApp, withKey } from '../test/helpers/test-app.js';
import { seededRandom } from './lib/seeded-random.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '20' }, turns: { type: 'string', default: '20' }, explore: { type: 'string', default: '5,50' } },
});
const runs = Number(values.runs);
const turns = Number(values.turns);
const explorePercents = values.explore.split(',').map(Number);

// Prices in USD per million tokens (Claude Sonnet 4.5); cache multiples from Anthropic's pricing page.
const inputPrice = 3;
const outputPrice = 15;
const writeMultiple = 1.25;
const readMultiple = 0.1;
const minimumCached = 1024;
const lookbackBlocks = 20;
const cacheTtlMs = 5 * 60_000;

// ---- the caching upstream ------------------------------------------------------------------

interface Block {
  readonly text: string;
  readonly tokens: number;
  readonly marked: boolean;
  readonly role: string;
}

type Json = Record<string, unknown>;

function blockText(block: unknown): string {
  if (typeof block === 'string') return block;
  const { cache_control: _marker, ...rest } = block as Json;
  return typeof rest['text'] === 'string' ? rest['text'] : JSON.stringify(rest);
}

function blocksOf(body: Json): Block[] {
  const blocks: Block[] = [];
  const push = (role: string, block: unknown) => {
    const text = blockText(block);
    blocks.push({
      text: `${role}\u0000${text}`,
      tokens: Math.ceil(text.length / 4),
      marked: typeof block === 'object' && block !== null && 'cache_control' in block,
      role,
    });
  };
  for (const tool of (body['tools'] as unknown[] | undefined) ?? []) push('tool', tool);
  const system = body['system'];
  for (const block of typeof system === 'string' ? [system] : ((system as unknown[] | undefined) ?? [])) push('system', block);
  for (const message of (body['messages'] as Json[] | undefined) ?? []) {
    const content = message['content'];
    for (const block of typeof content === 'string' ? [content] : (content as unknown[])) push(String(message['role']), block);
  }
  return blocks;
}

interface Usage {
  input: number;
  write: number;
  read: number;
  output: number;
}

/** One deployment's prompt cache: prefix hashes (a chain over its blocks) with their expiry. */
class Deployment {
  readonly cache = new Map<string, number>();
  readonly billed: Usage = { input: 0, write: 0, read: 0, output: 0 };
  requests = 0;
  breakpointFallbacks = 0;

  serve(body: Json, nowMs: number): Usage {
    this.requests += 1;
    const blocks = blocksOf(body);
    let breakpoint = blocks.findLastIndex((block) => block.marked);
    if (breakpoint === -1) {
      breakpoint = blocks.findLastIndex((block) => block.role === 'user');
      this.breakpointFallbacks += 1;
    }
    const hashes: string[] = [];
    const prefixTokens: number[] = [];
    let hash = '';
    let tokens = 0;
    for (const block of blocks) {
      hash = createHash('sha256').update(hash).update(block.text).digest('hex');
      tokens += block.tokens;
      hashes.push(hash);
      prefixTokens.push(tokens);
    }
    const total = tokens;
    let read = 0;
    let hitAt = -1;
    for (let index = breakpoint; index >= Math.max(0, breakpoint - lookbackBlocks); index--) {
      const expires = this.cache.get(hashes[index] as string);
      if (expires !== undefined && expires > nowMs && (prefixTokens[index] as number) >= minimumCached) {
        read = prefixTokens[index] as number;
        hitAt = index;
        this.cache.set(hashes[index] as string, nowMs + cacheTtlMs);
        break;
      }
    }
    const cachedPrefix = breakpoint >= 0 ? (prefixTokens[breakpoint] as number) : 0;
    let write = 0;
    if (breakpoint >= 0 && hitAt !== breakpoint && cachedPrefix >= minimumCached) {
      write = cachedPrefix - read;
      this.cache.set(hashes[breakpoint] as string, nowMs + cacheTtlMs);
    }
    const output = 150;
    const usage = { input: total - read - write, write, read, output };
    for (const key of ['input', 'write', 'read', 'output'] as const) this.billed[key] += usage[key];
    return usage;
  }
}

const deployments = new Map<string, Deployment>();
const answerText = 'I ran the command and read its output; the next step is below. '.repeat(9);

function upstream(request: RecordedRequest) {
  const body = request.body as Json;
  const model = String(body['model']);
  const deployment = deployments.get(model) ?? new Deployment();
  deployments.set(model, deployment);
  const usage = deployment.serve(body, Date.now());
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: `msg_${deployment.requests}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: answerText }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.write,
        cache_read_input_tokens: usage.read,
        cache_creation: { ephemeral_5m_input_tokens: usage.write, ephemeral_1h_input_tokens: 0 },
        output_tokens: usage.output,
      },
    }),
  };
}

// ---- the session ---------------------------------------------------------------------------

// Seeded, so on and off see the same exploration draws.
let draw: () => number = seededRandom(1);
const random = { next: () => draw() };

const fake = await startFakeHttpServer(upstream);
const t = await createTestApp({ random, toolkitEnv: { ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: `${fake.url}/v1` } });
const { apiKey } = await createMerchant(t.app, 'bench-shop');
const client = new Anthropic({ apiKey, baseURL: await t.app.listen({ port: 0, host: '127.0.0.1' }), maxRetries: 0 });

// About 2,000 tokens of instructions and tool descriptions, as a coding agent sends.
const system = [
  {
    type: 'text' as const,
    text: 'You are a coding agent working in a repository; follow the conventions. '.repeat(110),
    cache_control: { type: 'ephemeral' as const },
  },
];
const toolOutput = (turn: number) => `$ npm test -- step ${turn}\n${'PASS test/unit/some-module.test.ts (12 tests)\n'.repeat(24)}`;

interface RunResult {
  readonly usage: Usage;
  readonly switches: number;
  readonly affinityTurns: number;
}

async function runSession(group: string, run: number): Promise<RunResult> {
  const messages: Anthropic.MessageParam[] = [];
  const before = new Map([...deployments].map(([name, deployment]) => [name, { ...deployment.billed }]));
  let last: string | null = null;
  let switches = 0;
  let affinityTurns = 0;
  for (let turn = 1; turn <= turns; turn++) {
    const text = turn === 1 ? `Task ${run}: make the failing tests in package ${run} pass.` : toolOutput(turn);
    const sent: Anthropic.MessageParam[] = [...messages, { role: 'user', content: [{ type: 'text', text, cache_control: { type: 'ephemeral' } }] }];
    const { response } = await client.messages.create({ model: group, max_tokens: 1024, system, messages: sent }).withResponse();
    const served = response.headers.get('x-switchyard-model');
    if (last !== null && served !== last) switches += 1;
    last = served;
    if (response.headers.get('x-switchyard-routing-approach') === 'route_group:affinity') affinityTurns += 1;
    messages.push({ role: 'user', content: text }, { role: 'assistant', content: answerText });
  }
  const usage: Usage = { input: 0, write: 0, read: 0, output: 0 };
  for (const [name, deployment] of deployments) {
    const start = before.get(name) ?? { input: 0, write: 0, read: 0, output: 0 };
    for (const key of ['input', 'write', 'read', 'output'] as const) usage[key] += deployment.billed[key] - start[key];
  }
  return { usage, switches, affinityTurns };
}

function costUsd(usage: Usage): number {
  return (usage.input * inputPrice + usage.write * inputPrice * writeMultiple + usage.read * inputPrice * readMultiple + usage.output * outputPrice) / 1e6;
}

const rows: Record<string, string | number>[] = [];
for (const explorePercent of explorePercents) {
  for (const affinity of [true, false]) {
    const totals: Usage = { input: 0, write: 0, read: 0, output: 0 };
    let switches = 0;
    let affinityTurns = 0;
    let cost = 0;
    let uncachedCost = 0;
    for (let run = 1; run <= runs; run++) {
      draw = seededRandom(1000 * explorePercent + run);
      deployments.clear();
      const group = `agents-${explorePercent}-${affinity ? 'on' : 'off'}-${run}`;
      const put = await t.app.inject({
        method: 'PUT',
        url: `/v1/route-groups/${group}`,
        headers: withKey(apiKey),
        payload: {
          candidates: [
            { provider: 'anthropic', model: 'sonnet-east' },
            { provider: 'anthropic', model: 'sonnet-west' },
          ],
          explorePercent,
          cacheAffinity: affinity,
        },
      });
      if (put.statusCode !== 200) throw new Error(`route group refused: ${put.body}`);
      const result = await runSession(group, run);
      for (const key of ['input', 'write', 'read', 'output'] as const) totals[key] += result.usage[key];
      switches += result.switches;
      affinityTurns += result.affinityTurns;
      cost += costUsd(result.usage);
      const prompt = result.usage.input + result.usage.write + result.usage.read;
      uncachedCost += costUsd({ input: prompt, write: 0, read: 0, output: result.usage.output });
    }
    const prompt = totals.input + totals.write + totals.read;
    rows.push({
      explorePercent,
      affinity: affinity ? 'on' : 'off',
      'read share': `${((100 * totals.read) / prompt).toFixed(1)} %`,
      'write share': `${((100 * totals.write) / prompt).toFixed(1)} %`,
      'switches/session': (switches / runs).toFixed(2),
      'affinity turns/session': (affinityTurns / runs).toFixed(1),
      'cost/session $': (cost / runs).toFixed(4),
      'uncached cost/session $': (uncachedCost / runs).toFixed(4),
    });
  }
}

const fallbacks = [...deployments.values()].reduce((sum, deployment) => sum + deployment.breakpointFallbacks, 0);
console.log(`cache-affinity bench: ${runs} sessions × ${turns} turns per row, Messages wire, two deployments of one model`);
console.table(rows);
console.log(JSON.stringify({ runs, turns, rows, lastRowBreakpointFallbacks: fallbacks }));
await t.close();
await fake.close();
