import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fixtures/providers/fake-http-server.js';
import { chatError, embeddingsResponse } from '../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * `/v1/embeddings` driven by the official `openai` client (which asks for base64 vectors unless
 * told otherwise) in front of local fakes speaking OpenAI's and Mistral's embeddings wire format.
 */

/** A vector that float32 holds exactly, different for each text. */
const vectorOf = (text: string): number[] => [text.length * 0.25, -0.5, 0.125];

function embeddingsUpstream(failWith?: () => ReturnType<typeof chatError>) {
  return (request: RecordedRequest) => {
    if (!request.path.endsWith('/embeddings')) return { status: 404, body: 'not here' };
    if (failWith !== undefined) return failWith();
    const body = request.body as { model: string; input: string[]; encoding_format?: 'float' | 'base64' };
    return embeddingsResponse({
      model: body.model,
      vectors: body.input.map(vectorOf),
      promptTokens: body.input.join(' ').split(' ').length,
      encoding: body.encoding_format ?? 'float',
    });
  };
}

let openai: FakeHttpServer;
let mistral: FakeHttpServer;
let t: TestApp;
let client: OpenAI;
let apiKey: string;

beforeAll(async () => {
  openai = await startFakeHttpServer(embeddingsUpstream());
  mistral = await startFakeHttpServer(embeddingsUpstream());
  t = await createTestApp({
    toolkitEnv: {
      OPENAI_API_KEY: 'sk-upstream',
      OPENAI_BASE_URL: `${openai.url}/v1`,
      MISTRAL_API_KEY: 'mistral-upstream',
      MISTRAL_BASE_URL: `${mistral.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
    },
  });
  ({ apiKey } = await createMerchant(t.app, 'embedding-shop'));
  client = new OpenAI({ apiKey, baseURL: `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
  await openai.close();
  await mistral.close();
});

describe('/v1/embeddings', () => {
  it('answers embeddings.create with one vector per input, in order, decoded from base64 by the client', async () => {
    const { data: answer, response } = await client.embeddings.create({ model: 'openai/text-embedding-3-small', input: ['one', 'three'] }).withResponse();
    expect(answer.object).toBe('list');
    expect(answer.model).toBe('text-embedding-3-small');
    expect(answer.data.map((item) => item.index)).toEqual([0, 1]);
    expect(answer.data.map((item) => item.embedding)).toEqual([vectorOf('one'), vectorOf('three')]);
    expect(answer.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
    expect(response.headers.get('x-switchyard-provider')).toBe('openai');
    expect(response.headers.get('x-switchyard-routing-approach')).toBe('explicit');
    const sent = openai.requests.at(-1);
    expect(sent?.path).toBe('/v1/embeddings');
    expect(sent?.headers.authorization).toBe('Bearer sk-upstream');
    expect(sent?.body).toMatchObject({ model: 'text-embedding-3-small', input: ['one', 'three'] });
  });

  it('answers floats for encoding_format float, and base64 of little-endian float32 for base64', async () => {
    const asFloats = await t.app.inject({
      method: 'POST',
      url: '/v1/embeddings',
      headers: withKey(apiKey),
      payload: { model: 'openai/text-embedding-3-small', input: 'hello', encoding_format: 'float' },
    });
    expect(asFloats.statusCode).toBe(200);
    expect((asFloats.json() as { data: { embedding: number[] }[] }).data[0]?.embedding).toEqual(vectorOf('hello'));
    const asBase64 = await t.app.inject({
      method: 'POST',
      url: '/v1/embeddings',
      headers: withKey(apiKey),
      payload: { model: 'openai/text-embedding-3-small', input: 'hello', encoding_format: 'base64' },
    });
    const encoded = (asBase64.json() as { data: { embedding: string }[] }).data[0]?.embedding ?? '';
    const bytes = Buffer.from(encoded, 'base64');
    expect(Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4))).toEqual(vectorOf('hello'));
  });

  it('passes dimensions on to the provider', async () => {
    await client.embeddings.create({ model: 'openai/text-embedding-3-large', input: 'short', dimensions: 256 });
    expect(openai.requests.at(-1)?.body).toMatchObject({ model: 'text-embedding-3-large', dimensions: 256 });
  });

  it('refuses, as OpenAI would, a provider without embeddings, token-id input, empty input and an unknown model', async () => {
    const before = openai.requests.length;
    await expect(client.embeddings.create({ model: 'anthropic/claude-3-5-haiku', input: 'x' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('anthropic has no embedding models'),
    });
    await expect(client.embeddings.create({ model: 'openai/text-embedding-3-small', input: [1, 2, 3] })).rejects.toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      param: 'input',
    });
    await expect(client.embeddings.create({ model: 'openai/text-embedding-3-small', input: [] })).rejects.toMatchObject({ status: 400 });
    await expect(client.embeddings.create({ model: 'nowhere-embed', input: 'x' })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect(openai.requests.length).toBe(before);
  });

  it("raises the client's RateLimitError for the provider's 429", async () => {
    openai.setHandler(embeddingsUpstream(() => chatError('rate-limited')));
    try {
      await expect(client.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'x' })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    } finally {
      openai.setHandler(embeddingsUpstream());
    }
  });

  it('fails over within a route group of embedding models, and records each attempt as an embed call of the merchant', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/v1/route-groups/embedders',
      headers: withKey(apiKey),
      payload: {
        candidates: [
          { provider: 'openai', model: 'text-embedding-3-small' },
          { provider: 'mistral', model: 'mistral-embed' },
        ],
        explorePercent: 0,
      },
    });
    expect(put.statusCode).toBe(200);
    openai.setHandler(embeddingsUpstream(() => chatError('server-error')));
    try {
      const { data: answer, response } = await client.embeddings.create({ model: 'embedders', input: ['failover'] }).withResponse();
      expect(answer.data[0]?.embedding).toEqual(vectorOf('failover'));
      expect(answer.model).toBe('mistral-embed');
      expect(response.headers.get('x-switchyard-route-group')).toBe('embedders');
      expect(response.headers.get('x-switchyard-hops')).toBe('1');
      expect(mistral.requests.at(-1)?.path).toBe('/v1/embeddings');
    } finally {
      openai.setHandler(embeddingsUpstream());
    }
    await t.eventsCaughtUp();
    const records = t.events.filter((event): event is EventEnvelope<'llm.call'> => event.type === 'llm.call' && event.payload.routeGroup === 'embedders');
    expect(records.map((event) => [event.payload.provider, event.payload.operation, event.payload.outcome, event.payload.fallbackHops])).toEqual([
      ['openai', 'embed', 'error', 0],
      ['mistral', 'embed', 'success', 1],
    ]);
    expect(records.every((event) => event.merchantId === 'embedding-shop' && event.payload.surface === 'gateway')).toBe(true);
    expect(records[1]?.payload.inputTokens).toBe(1);
  });
});
