import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleAiProvider } from '../../../src/adapters/llm/google-ai-provider.js';
import { ConfigurationError } from '../../../src/generation/errors/provider-errors.js';
import { startFakeHttpServer, type FakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { geminiResponse } from '../../fixtures/providers/google-wire.js';
import { geminiContract } from './gemini-contract.js';

let fake: FakeHttpServer;

beforeAll(async () => {
  fake = await startFakeHttpServer(() => geminiResponse([{ text: 'hello' }]));
});
afterAll(() => fake.close());

function client() {
  return googleAiProvider.create({ GOOGLE_AI_API_KEY: 'AIza-fake-key', GOOGLE_AI_BASE_URL: `${fake.url}/v1beta` }, 'gemini-2.5-flash');
}

describe('google-ai provider against a fake Gemini API', () => {
  it('names the missing key', () => {
    expect(() => googleAiProvider.create({}, 'x')).toThrow(ConfigurationError);
    expect(() => googleAiProvider.create({}, 'x')).toThrow(/GOOGLE_AI_API_KEY/);
  });

  it('authenticates with the x-goog-api-key header on the model path', async () => {
    fake.setHandler(() => geminiResponse([{ text: 'hello' }]));
    await client().generate({ messages: [{ role: 'user', content: 'hi' }], temperature: 0.5, maxTokens: 10, maxSteps: 1 });
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request.headers['x-goog-api-key']).toBe('AIza-fake-key');
  });

  geminiContract({ fake: () => fake, client, answer: (handler) => fake.setHandler(handler), modelPath: /\/models\/gemini-2\.5-flash:/ });
});
