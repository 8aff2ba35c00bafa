import { describe, expect, it } from 'vitest';
import { bedrockClaudeEndpoint } from '../../../../src/adapters/llm/bedrock-claude-native.js';
import { vertexClaudeEndpoint } from '../../../../src/adapters/llm/vertex-claude-native.js';

const body = { model: 'vertex/claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }], unknown_field: 1 };

describe("Claude's Messages endpoints on Vertex AI and Bedrock", () => {
  const vertex = (location: string) =>
    vertexClaudeEndpoint({ project: 'p', location, modelId: 'claude-sonnet-4-5@20250929', accessToken: () => Promise.resolve('tok') });

  it("builds Vertex's URLs on the location's host (a region, global, the us/eu multi-regions)", () => {
    expect(vertex('us-east5').url).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict',
    );
    expect(vertex('us-east5').streamUrl).toMatch(/:streamRawPredict$/);
    expect(vertex('global').url).toMatch(/^https:\/\/aiplatform\.googleapis\.com\/v1\/projects\/p\/locations\/global\//);
    expect(vertex('eu').url).toMatch(/^https:\/\/aiplatform\.eu\.rep\.googleapis\.com\//);
  });

  it("moves Vertex's model into the URL and its version into the body, keeping stream and every other field", async () => {
    const endpoint = vertex('us-east5');
    const { model: _model, ...rest } = body;
    expect(endpoint.bodyOf?.(body, { 'anthropic-beta': 'x' })).toEqual({ ...rest, anthropic_version: 'vertex-2023-10-16' });
    expect(endpoint.dropHeaders).toEqual(['anthropic-version']);
    expect(await endpoint.authorize?.(new URL(endpoint.url), '{}', {})).toEqual({ authorization: 'Bearer tok' });
  });

  it("moves Bedrock's model and stream into the path, its version into the body, and the betas into anthropic_beta", () => {
    const endpoint = bedrockClaudeEndpoint({
      baseURL: 'https://bedrock-runtime.us-east-1.amazonaws.com',
      region: 'us-east-1',
      modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
    });
    expect(endpoint.url).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
    expect(endpoint.streamUrl).toMatch(/\/invoke-with-response-stream$/);
    const { model: _model, stream: _stream, ...rest } = body;
    expect(endpoint.bodyOf?.(body, {})).toEqual({ ...rest, anthropic_version: 'bedrock-2023-05-31' });
    expect(endpoint.bodyOf?.(body, { 'anthropic-beta': 'a-1, b-2,' })).toEqual({
      ...rest,
      anthropic_beta: ['a-1', 'b-2'],
      anthropic_version: 'bedrock-2023-05-31',
    });
    expect(endpoint.dropHeaders).toEqual(['anthropic-version', 'anthropic-beta']);
  });

  it('signs a Bedrock call with SigV4 for the bedrock service, the session token included', async () => {
    const endpoint = bedrockClaudeEndpoint({
      baseURL: 'https://bedrock-runtime.eu-west-1.amazonaws.com',
      region: 'eu-west-1',
      modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'session' },
    });
    const signed = await endpoint.authorize?.(new URL(endpoint.url), '{"max_tokens":1}', {});
    expect(signed?.['authorization']).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=.*x-amz-date.*, Signature=[0-9a-f]{64}$/,
    );
    expect(signed?.['x-amz-security-token']).toBe('session');
    expect(signed?.['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
  });
});
