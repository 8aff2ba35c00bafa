import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { InvalidRequestError } from '../../../src/index.js';
import { type FakeHttpServer, type RecordedRequest, startFakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../../fixtures/providers/openai-wire.js';
import { createMerchant, createTestApp, type TestApp, withKey } from '../../helpers/test-app.js';

/*
 * `context.permissions` on generate and stream (issue 28, OWASP LLM03 Excessive Agency): the model
 * is offered only the tools the permissions name, by the rule `executeTool` applies, so a tool left
 * out cannot run however the model asks for it. Library and HTTP, against a local fake speaking
 * OpenAI's Chat Completions wire (what it was offered is read from the requests it received).
 */

interface ChatBody {
  readonly model: string;
  readonly stream?: boolean;
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
  readonly messages: readonly { readonly role: string }[];
}

/** Asks for calculateMath on the first round (offered or not), then answers. */
function answer(request: RecordedRequest) {
  const body = request.body as ChatBody;
  if (body.stream === true) return chatCompletionStream({ model: body.model, deltas: ['Done.'] });
  if (body.messages.some((message) => message.role === 'tool')) return chatCompletion({ model: body.model, content: 'It is 4.' });
  return chatCompletion({ model: body.model, toolCalls: [{ id: 'call_1', name: 'calculateMath', arguments: { expression: '2+2' } }] });
}

let provider: FakeHttpServer;
const workDir = mkdtempSync(join(tmpdir(), 'toolkit-generate-permissions-'));
beforeAll(async () => {
  provider = await startFakeHttpServer(answer);
});
afterAll(async () => {
  await provider.close();
  rmSync(workDir, { recursive: true, force: true });
});

/** The tool names the fake was offered in each request since `from`. */
const offeredSince = (from: number): string[][] =>
  provider.requests.slice(from).map((request) => ((request.body as ChatBody).tools ?? []).map((tool) => tool.function.name).sort());

describe('context.permissions on generate and stream (library)', () => {
  const toolkit = () => {
    const neurolink = new DefaultNeuroLink({ cwd: workDir, env: { OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${provider.url}/v1` } });
    neurolink.registerTool('lookupOrder', { description: 'Looks an order up', execute: () => ({ status: 'shipped' }) });
    return neurolink;
  };
  const call = { input: { text: 'What is 2+2?' }, provider: 'openai', model: 'gpt-4o-mini' } as const;

  it('offers every tool without permissions, and runs the one the model asks for', async () => {
    const neurolink = toolkit();
    const from = provider.requests.length;
    const result = await neurolink.generate(call);
    expect(result.content).toBe('It is 4.');
    expect(offeredSince(from)[0]).toEqual(expect.arrayContaining(['calculateMath', 'getCurrentTime', 'lookupOrder']));
    expect((await neurolink.getAllAvailableTools()).find((tool) => tool.name === 'calculateMath')?.usageCount).toBe(1);
  });

  it.each([
    [['custom:*'], ['lookupOrder']],
    [
      ['tool:lookupOrder', 'getCurrentTime'],
      ['getCurrentTime', 'lookupOrder'],
    ],
    [[], []],
  ])('offers only what %j names, and a tool left out never runs though the model asks for it', async (permissions, offered) => {
    const neurolink = toolkit();
    const from = provider.requests.length;
    await neurolink.generate({ ...call, context: { permissions } }).catch(() => undefined);
    expect(offeredSince(from)[0]).toEqual(offered);
    expect((await neurolink.getAllAvailableTools()).find((tool) => tool.name === 'calculateMath')?.usageCount).toBe(0);
  });

  it('applies to stream too', async () => {
    const neurolink = toolkit();
    const from = provider.requests.length;
    const result = await neurolink.stream({ ...call, context: { permissions: ['built-in:*'] } });
    for await (const _chunk of result.stream) {
      // drained
    }
    const offered = offeredSince(from)[0];
    expect(offered).toContain('calculateMath');
    expect(offered).not.toContain('lookupOrder');
  });

  it('refuses permissions that are not an array of strings, naming the option, before any call', async () => {
    const neurolink = toolkit();
    const from = provider.requests.length;
    const error = await neurolink.generate({ ...call, context: { permissions: 'custom:*' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).option).toBe('context.permissions');
    expect(provider.requests.length).toBe(from);
  });
});

describe('context.permissions on /api/generate', () => {
  let t: TestApp;
  let key: string;

  beforeEach(async () => {
    t = await createTestApp({ toolkitEnv: { OPENAI_API_KEY: 'sk-http-fake', OPENAI_BASE_URL: `${provider.url}/v1` } });
    key = (await createMerchant(t.app, 'permissions-shop')).apiKey;
  });
  afterEach(async () => t.close());

  const generate = (context: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/generate',
      headers: withKey(key),
      payload: { input: { text: 'What is 2+2?' }, provider: 'openai', model: 'gpt-4o-mini', context },
    });

  it('offers the model only the tools the permissions name', async () => {
    const from = provider.requests.length;
    const response = await generate({ permissions: ['tool:getCurrentTime'] });
    expect(response.statusCode, response.body).toBe(200);
    expect(offeredSince(from)[0]).toEqual(['getCurrentTime']);
  });

  it('answers 422 (the body schema) for permissions that are not strings, without calling the provider', async () => {
    const from = provider.requests.length;
    const response = await generate({ permissions: [7] });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.body).toContain('permissions');
    expect(provider.requests.length).toBe(from);
  });
});
