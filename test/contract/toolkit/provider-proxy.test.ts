import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import type { ProviderName } from '../../../src/generation/provider-name.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, embeddingsResponse } from '../../fixtures/providers/openai-wire.js';

/*
 * Issue 26: HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and their lower-case forms) apply to every
 * provider client. A tiny proxy on loopback counts what reaches it: CONNECT tunnels (undici's
 * proxy agent tunnels http targets too) and absolute-form HTTP requests. Those for the local fake
 * provider are carried through; the rest are counted and refused with 502 (no DNS, no TLS needed
 * to prove the route).
 */

interface SeenByProxy {
  readonly kind: 'http' | 'connect';
  /** `host:port` the client asked the proxy for. */
  readonly authority: string;
}

let proxy: Server;
let proxyUrl: string;
const seen: SeenByProxy[] = [];
let provider: FakeHttpServer;
const workDir = mkdtempSync(join(tmpdir(), 'toolkit-proxy-'));

beforeAll(async () => {
  provider = await startFakeHttpServer((request) => {
    const body = request.body as { model: string };
    if (request.path.endsWith('/embeddings')) return embeddingsResponse({ model: body.model, vectors: [[0.1, 0.2]], promptTokens: 2 });
    return chatCompletion({ model: body.model, content: 'via the fake', usage: { promptTokens: 3, completionTokens: 3 } });
  });
  const providerAuthority = new URL(provider.url).host;
  proxy = createServer((incoming, outgoing) => {
    const target = new URL(incoming.url ?? '/');
    seen.push({ kind: 'http', authority: target.host });
    if (target.host !== providerAuthority) {
      outgoing.writeHead(502, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify({ error: { message: `proxy: no route to ${target.host}` } }));
      return;
    }
    const upstream = httpRequest(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(upstream);
  });
  proxy.on('connect', (incoming, socket, head) => {
    const authority = incoming.url ?? '';
    seen.push({ kind: 'connect', authority });
    if (authority !== providerAuthority) {
      socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const { port } = new URL(provider.url);
    const upstream = connect(Number(port), '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await provider.close();
  rmSync(workDir, { recursive: true, force: true });
});
beforeEach(() => {
  seen.length = 0;
});

function toolkit(env: Record<string, string>) {
  return new DefaultNeuroLink({ cwd: workDir, env, builtInTools: [] });
}

describe('provider calls through HTTP(S)_PROXY', () => {
  it('HTTP_PROXY: a call to an http provider goes through the proxy and answers', async () => {
    const result = await toolkit({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${provider.url}/v1`, HTTP_PROXY: proxyUrl }).generate({
      input: { text: 'hi' },
      provider: 'openai',
    });
    expect(result.content).toBe('via the fake');
    expect(seen.map((entry) => entry.authority)).toEqual([new URL(provider.url).host]);
  });

  it('lower-case http_proxy works too, for embeddings as well', async () => {
    const result = await toolkit({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${provider.url}/v1`, http_proxy: proxyUrl }).embed({
      input: 'hello',
      provider: 'openai',
    });
    expect(result.embeddings).toEqual([[0.1, 0.2]]);
    expect(seen.map((entry) => entry.authority)).toEqual([new URL(provider.url).host]);
  });

  it('HTTPS_PROXY (and https_proxy): an https provider is reached with a CONNECT tunnel through the proxy', async () => {
    for (const variable of ['HTTPS_PROXY', 'https_proxy']) {
      seen.length = 0;
      const error = await toolkit({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: 'https://api.openai.proxy-test.invalid/v1', [variable]: proxyUrl })
        .generate({ input: { text: 'hi' }, provider: 'openai' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(seen).toEqual([{ kind: 'connect', authority: 'api.openai.proxy-test.invalid:443' }]);
    }
  });

  it('NO_PROXY (and no_proxy): a listed host is reached directly, never through the proxy', async () => {
    for (const variable of ['NO_PROXY', 'no_proxy']) {
      seen.length = 0;
      const before = provider.requests.length;
      const result = await toolkit({
        OPENAI_API_KEY: 'sk-fake',
        OPENAI_BASE_URL: `${provider.url}/v1`,
        HTTP_PROXY: proxyUrl,
        HTTPS_PROXY: proxyUrl,
        [variable]: 'localhost,127.0.0.1',
      }).generate({ input: { text: 'hi' }, provider: 'openai' });
      expect(result.content).toBe('via the fake');
      expect(seen).toEqual([]);
      expect(provider.requests.length).toBe(before + 1);
    }
  });

  it('without proxy variables nothing goes to the proxy', async () => {
    const result = await toolkit({ OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: `${provider.url}/v1` }).generate({ input: { text: 'hi' }, provider: 'openai' });
    expect(result.content).toBe('via the fake');
    expect(seen).toEqual([]);
  });

  const host = (kind: string) => `${kind}.proxy-test.invalid`;
  const everyProvider: Record<ProviderName, Record<string, string>> = {
    openai: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `http://${host('openai')}/v1` },
    anthropic: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: `http://${host('anthropic')}/v1` },
    'google-ai': { GOOGLE_AI_API_KEY: 'k', GOOGLE_AI_BASE_URL: `http://${host('google-ai')}/v1beta` },
    vertex: { GOOGLE_CLOUD_PROJECT: 'p', GOOGLE_VERTEX_API_KEY: 'k', VERTEX_BASE_URL: `http://${host('vertex')}` },
    bedrock: { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 's', AWS_REGION: 'us-east-1', BEDROCK_ENDPOINT: `http://${host('bedrock')}` },
    azure: { AZURE_OPENAI_API_KEY: 'k', AZURE_OPENAI_ENDPOINT: `http://${host('azure')}`, AZURE_OPENAI_DEPLOYMENT: 'd' },
    mistral: { MISTRAL_API_KEY: 'k', MISTRAL_BASE_URL: `http://${host('mistral')}/v1` },
    huggingface: { HUGGINGFACE_API_KEY: 'k', HUGGINGFACE_BASE_URL: `http://${host('huggingface')}/v1` },
    litellm: { LITELLM_BASE_URL: `http://${host('litellm')}` },
    'openai-compatible': { OPENAI_COMPATIBLE_BASE_URL: `http://${host('openai-compatible')}/v1`, OPENAI_COMPATIBLE_MODEL: 'm' },
    sagemaker: {
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 's',
      AWS_REGION: 'us-east-1',
      SAGEMAKER_DEFAULT_ENDPOINT: 'ep',
      SAGEMAKER_ENDPOINT: `http://${host('sagemaker')}`,
      SAGEMAKER_MAX_RETRIES: '0',
    },
    ollama: { OLLAMA_BASE_URL: `http://${host('ollama')}`, OLLAMA_MODEL: 'llama3' },
  };

  it.each(Object.entries(everyProvider))('%s: its client sends its call through the proxy', async (kind, env) => {
    await toolkit({ ...env, HTTP_PROXY: proxyUrl })
      .generate({ input: { text: 'hi' }, provider: kind, disableTools: true, timeout: '20s' })
      .catch((caught: unknown) => caught);
    expect(seen.map((entry) => entry.authority.replace(/:80$/, ''))).toContain(host(kind));
  });
});
