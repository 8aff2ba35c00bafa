import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicMessage, anthropicTextStream } from '../fixtures/providers/anthropic-wire.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatError } from '../fixtures/providers/openai-wire.js';
import { candidateWindowKey } from '../../src/generation/gateway/route-group.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Cache-aware routing (issue 34 point 4) through the gateway: a two-candidate route group over an
 * Anthropic-wire fake and an OpenAI-wire fake, driven by the official Anthropic client as an agent
 * would (a long system prompt marked for caching, a growing conversation, the last user turn
 * marked). With affinity on, a session's turns stay on the candidate that served its first turn,
 * though exploration would move them; with it off they are spread; a holder that is eliminated or
 * failing is left, and a holder the success rates rank second is kept while healthy.
 */

function anthropicUpstream(request: RecordedRequest) {
  const body = request.body as { stream?: boolean };
  return body.stream === true ? anthropicTextStream(['from ', 'claude']) : anthropicMessage([{ type: 'text', text: 'from claude' }]);
}

function openAiUpstream(request: RecordedRequest) {
  return chatCompletion({ model: (request.body as { model: string }).model, content: 'from gpt' });
}

/** Draws that explore on every other routing of a group with explorePercent 50 (10 < 50, 99 ≥ 50). */
let draw = 0;
const alternating = { next: () => (draw++ % 2 === 0 ? 0.1 : 0.99) };

const merchantId = 'affinity-shop';
const claude = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const gpt = { provider: 'openai', model: 'gpt-4o-mini' };

let claudeFake: FakeHttpServer;
let gptFake: FakeHttpServer;
let t: TestApp;
let apiKey: string;
let client: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  claudeFake = await startFakeHttpServer(anthropicUpstream);
  gptFake = await startFakeHttpServer(openAiUpstream);
  t = await createTestApp({
    random: alternating,
    toolkitEnv: {
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: `${claudeFake.url}/v1`,
      OPENAI_API_KEY: 'sk-upstream',
      OPENAI_BASE_URL: `${gptFake.url}/v1`,
    },
  });
  ({ apiKey } = await createMerchant(t.app, merchantId));
  const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = new Anthropic({ apiKey, baseURL: origin, maxRetries: 0 });
  openai = new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
  await claudeFake.close();
  await gptFake.close();
});

async function putGroup(name: string, body: Record<string, unknown>) {
  const response = await t.app.inject({ method: 'PUT', url: `/v1/route-groups/${name}`, headers: withKey(apiKey), payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, unknown>;
}

const system = [{ type: 'text' as const, text: 'You are a careful coding agent. '.repeat(200), cache_control: { type: 'ephemeral' as const } }];

/** An agent session on `group`: each turn sends the whole conversation, its last user turn marked for caching. */
function agentSession(group: string, task: string) {
  const messages: Anthropic.MessageParam[] = [];
  return async (options: { readonly stream?: boolean } = {}) => {
    const turn = messages.filter((message) => message.role === 'user').length + 1;
    const sent: Anthropic.MessageParam[] = [
      ...messages,
      { role: 'user', content: [{ type: 'text', text: turn === 1 ? task : `step ${turn}`, cache_control: { type: 'ephemeral' } }] },
    ];
    const params = { model: group, max_tokens: 256, system, messages: sent };
    const { data, response } =
      options.stream === true ? await client.messages.create({ ...params, stream: true }).withResponse() : await client.messages.create(params).withResponse();
    if (Symbol.asyncIterator in data) for await (const _event of data);
    messages.push({ role: 'user', content: turn === 1 ? task : `step ${turn}` }, { role: 'assistant', content: 'ok' });
    await t.worker.caughtUp();
    return {
      provider: response.headers.get('x-switchyard-provider'),
      approach: response.headers.get('x-switchyard-routing-approach'),
      affinity: response.headers.get('x-switchyard-cache-affinity'),
      hops: response.headers.get('x-switchyard-hops'),
    };
  };
}

/** Pushes outcomes onto a candidate's success-rate window, oldest first (what the sr-windows worker does for each call). */
async function teach(group: string, candidate: { provider: string; model: string }, outcomes: readonly (0 | 1)[]) {
  for (const outcome of outcomes) {
    await t.state.scores.recordOutcome({
      windowKey: candidateWindowKey(merchantId, group, candidate.provider, candidate.model),
      outcome,
      bucketSize: 20,
      dedupeKey: randomUUID(),
      dedupeTtlSeconds: 60,
      windowTtlSeconds: 3600,
    });
  }
}

describe('cache-aware routing', () => {
  const pair = { candidates: [claude, gpt], explorePercent: 50, maxHops: 2 };

  it('keeps a session on the candidate holding its cache, though exploration alternates', async () => {
    expect(await putGroup('agents', pair)).not.toHaveProperty('cacheAffinity');
    draw = 0;
    const turn = agentSession('agents', 'fix the flaky test');
    const first = await turn();
    // The first turn is explored (the second candidate first) and its answerer becomes the holder.
    expect(first).toEqual({ provider: 'openai', approach: 'route_group:explore', affinity: 'new', hops: '0' });
    const later = [await turn(), await turn({ stream: true }), await turn(), await turn()];
    for (const call of later) expect(call).toEqual({ provider: 'openai', approach: 'route_group:affinity', affinity: 'kept', hops: '0' });
    // The analytics see the decision: the calls' records carry routeApproach 'affinity'.
    await t.eventsCaughtUp();
    const approaches = t.events
      .filter((event) => event.type === 'llm.call' && (event.payload as { routeGroup?: string }).routeGroup === 'agents')
      .map((event) => (event.payload as { routeApproach?: string }).routeApproach);
    expect(approaches).toEqual(['explore', 'affinity', 'affinity', 'affinity', 'affinity']);
    // Another session (another first turn) is routed on its own.
    draw = 1;
    expect(await agentSession('agents', 'write the release notes')()).toMatchObject({ provider: 'anthropic', approach: 'route_group:sr', affinity: 'new' });
  });

  it('spreads the same session over both candidates when the group turns affinity off', async () => {
    expect(await putGroup('agents-spread', { ...pair, cacheAffinity: false })).toMatchObject({ cacheAffinity: false });
    draw = 0;
    const turn = agentSession('agents-spread', 'fix the flaky test');
    const providers: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      const call = await turn();
      expect(call.affinity).toBe('off');
      providers.push(call.provider);
    }
    expect(providers).toEqual(['openai', 'anthropic', 'openai', 'anthropic']);
  });

  it('keeps a healthy holder the success rates rank second, and leaves it once it is failing', async () => {
    // gpt first by weight, no exploration: the session starts there.
    await putGroup('agents-health', { candidates: [claude, { ...gpt, weight: 2 }], explorePercent: 0, maxHops: 2 });
    const turn = agentSession('agents-health', 'migrate the schema');
    expect(await turn()).toMatchObject({ provider: 'openai', approach: 'route_group:sr', affinity: 'new' });
    // Three older failures: gpt's rate (17/20; a window starts full of successes) is below claude's (1), but its newest calls succeed.
    await teach('agents-health', gpt, [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(await turn()).toMatchObject({ provider: 'openai', approach: 'route_group:affinity', affinity: 'kept' });
    // Its newest calls fail (rate 14/20, above the threshold): the session moves to claude, which holds it from now on.
    await teach('agents-health', gpt, [0, 0, 0]);
    expect(await turn()).toMatchObject({ provider: 'anthropic', approach: 'route_group:sr', affinity: 'left_failing', hops: '0' });
    expect(await turn()).toMatchObject({ provider: 'anthropic', approach: 'route_group:affinity', affinity: 'kept' });
  });

  it('leaves an eliminated holder', async () => {
    await putGroup('agents-elim', { candidates: [claude, { ...gpt, weight: 2 }], explorePercent: 0, maxHops: 2 });
    const turn = agentSession('agents-elim', 'profile the service');
    expect(await turn()).toMatchObject({ provider: 'openai', affinity: 'new' });
    // 2 of 20 (below 0.5), its newest two calls successes: eliminated, not failing.
    await teach('agents-elim', gpt, [...Array<0>(18).fill(0), 1, 1]);
    expect(await turn()).toMatchObject({ provider: 'anthropic', approach: 'route_group:sr_downtime', affinity: 'left_eliminated' });
  });

  it('follows the session when its holder fails mid-request: failover serves it and the new candidate holds it', async () => {
    await putGroup('agents-failover', { candidates: [claude, { ...gpt, weight: 2 }], explorePercent: 0, maxHops: 2 });
    const turn = agentSession('agents-failover', 'bump the dependencies');
    expect(await turn()).toMatchObject({ provider: 'openai', affinity: 'new' });
    gptFake.setHandler((request) => chatError('server-error', 'openai', (request.body as { model: string }).model));
    try {
      expect(await turn()).toMatchObject({ provider: 'anthropic', approach: 'route_group:affinity', affinity: 'kept', hops: '1' });
    } finally {
      gptFake.setHandler(openAiUpstream);
    }
    // gpt answers again, but the session stays on claude, which served it last and holds its cache now.
    expect(await turn()).toMatchObject({ provider: 'anthropic', approach: 'route_group:affinity', affinity: 'kept', hops: '0' });
  });
});

describe('cache-aware routing on the OpenAI wires', () => {
  const instructions = 'You are a careful coding agent. '.repeat(200);
  const group = { candidates: [gpt, { provider: 'openai', model: 'gpt-4o' }], explorePercent: 50, maxHops: 2 };
  const decisionOf = (response: Response) => ({
    model: response.headers.get('x-switchyard-model'),
    approach: response.headers.get('x-switchyard-routing-approach'),
    affinity: response.headers.get('x-switchyard-cache-affinity'),
  });

  it('keeps a chat completions session keyed by prompt_cache_key on its holder', async () => {
    await putGroup('codex-chat', group);
    draw = 0;
    const ask = (content: string) =>
      openai.chat.completions
        .create({
          model: 'codex-chat',
          prompt_cache_key: 'session-42',
          messages: [
            { role: 'system', content: instructions },
            { role: 'user', content },
          ],
        })
        .withResponse();
    expect(decisionOf((await ask('first')).response)).toEqual({ model: 'gpt-4o', approach: 'route_group:explore', affinity: 'new' });
    // Another first turn, the same key: the same conversation as far as the provider's cache is concerned.
    expect(decisionOf((await ask('second')).response)).toEqual({ model: 'gpt-4o', approach: 'route_group:affinity', affinity: 'kept' });
    expect(decisionOf((await ask('third')).response)).toEqual({ model: 'gpt-4o', approach: 'route_group:affinity', affinity: 'kept' });
  });

  it('keeps a Responses conversation chained by previous_response_id on its holder', async () => {
    await putGroup('codex-responses', group);
    draw = 0;
    const first = await openai.responses.create({ model: 'codex-responses', instructions, input: 'start the refactor' }).withResponse();
    expect(decisionOf(first.response)).toEqual({ model: 'gpt-4o', approach: 'route_group:explore', affinity: 'new' });
    let previous = first.data.id;
    for (const input of ['now the tests', 'and the docs']) {
      const next = await openai.responses.create({ model: 'codex-responses', instructions, input, previous_response_id: previous }).withResponse();
      expect(decisionOf(next.response)).toEqual({ model: 'gpt-4o', approach: 'route_group:affinity', affinity: 'kept' });
      previous = next.data.id;
    }
  });
});
