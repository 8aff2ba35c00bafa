import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vertexProvider } from '../../../src/adapters/llm/vertex-provider.js';
import { ConfigurationError } from '../../../src/generation/errors/provider-errors.js';
import { startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { geminiResponse } from '../../fixtures/providers/google-wire.js';
import { fakeAccessToken, stsTokenResponse, writeExternalAccountCredentials, type CredentialsFile } from '../../fixtures/providers/vertex-auth.js';
import { geminiContract } from './gemini-contract.js';

let fake: FakeHttpServer;
let credentials: CredentialsFile;

/** Every handler also answers the OAuth token exchange google-auth-library makes first. */
function answer(handler: (request: RecordedRequest) => FakeResponse): void {
  fake.setHandler((request) => stsTokenResponse(request) ?? handler(request));
}

beforeAll(async () => {
  fake = await startFakeHttpServer(() => geminiResponse([{ text: 'hello' }]));
  credentials = await writeExternalAccountCredentials(fake.url);
  answer(() => geminiResponse([{ text: 'hello' }]));
});
afterAll(async () => {
  await fake.close();
  await credentials.remove();
});

function client() {
  return vertexProvider.create(
    {
      GOOGLE_CLOUD_PROJECT_ID: 'proj-fake',
      GOOGLE_CLOUD_LOCATION: 'europe-west4',
      GOOGLE_APPLICATION_CREDENTIALS: credentials.path,
      VERTEX_BASE_URL: fake.url,
    },
    'gemini-2.5-flash',
  );
}

describe('vertex provider against a fake Vertex AI with a real OAuth token exchange', () => {
  it('names what is missing', () => {
    expect(() => vertexProvider.create({ GOOGLE_APPLICATION_CREDENTIALS: '/x.json' }, 'x')).toThrow(ConfigurationError);
    expect(() => vertexProvider.create({ GOOGLE_APPLICATION_CREDENTIALS: '/x.json' }, 'x')).toThrow(/GOOGLE_CLOUD_PROJECT_ID/);
    expect(() => vertexProvider.create({ GOOGLE_CLOUD_PROJECT_ID: 'p' }, 'x')).toThrow(/GOOGLE_APPLICATION_CREDENTIALS/);
  });

  it('exchanges the credentials for a token and calls the project/location model path with it', async () => {
    answer(() => geminiResponse([{ text: 'hello' }]));
    const result = await client().generate({ messages: [{ role: 'user', content: 'hi' }], temperature: 0.5, maxTokens: 10, maxSteps: 1 });
    expect(result.text).toBe('hello');
    const call = fake.requests.filter((request) => request.path.includes(':generateContent')).at(-1)!;
    expect(call.path).toBe('/v1beta1/projects/proj-fake/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent');
    expect(call.headers.authorization).toBe(`Bearer ${fakeAccessToken}`);
    expect(fake.requests.some((request) => request.path === '/v1/token')).toBe(true);
  });

  geminiContract({ fake: () => fake, client, answer, modelPath: /\/publishers\/google\/models\/gemini-2\.5-flash:/ });
});
