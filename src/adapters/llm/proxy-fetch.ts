import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';
import type { ProviderDefinition, ProviderEnv, ProviderOverrides } from '../../generation/provider-definition.js';

/** The proxy variables of one toolkit environment, upper case winning over lower case (curl's order for HTTPS_PROXY). */
export interface ProxySettings {
  /** For `https:` provider URLs (tunnelled with CONNECT). */
  readonly httpsProxy: string | undefined;
  /** For `http:` provider URLs (absolute-form requests). */
  readonly httpProxy: string | undefined;
  /** Comma- or space-separated hosts (`example.com`, `.example.com`, `*.example.com`, `host:port`, `*`) reached directly. */
  readonly noProxy: string | undefined;
}

function firstSet(env: ProviderEnv, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** Reads `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY` and their lower-case forms from the toolkit's environment (process env merged with `.env`). */
export function proxySettingsOf(env: ProviderEnv): ProxySettings {
  return {
    httpsProxy: firstSet(env, ['HTTPS_PROXY', 'https_proxy']),
    httpProxy: firstSet(env, ['HTTP_PROXY', 'http_proxy']),
    noProxy: firstSet(env, ['NO_PROXY', 'no_proxy']),
  };
}

const fetchers = new Map<string, typeof globalThis.fetch>();

/**
 * The one fetch every provider client uses when a proxy is configured: undici's
 * `EnvHttpProxyAgent` given exactly this environment's settings (never `process.env` behind the
 * toolkit's back), so `NO_PROXY` hosts go direct and the rest through the proxy. `undefined` when
 * no proxy is set: clients keep their default fetch (and the OpenAI wire fast path). One agent per
 * distinct setting, shared by every client of the process, so connections to the proxy are pooled.
 */
export function proxiedFetch(env: ProviderEnv): typeof globalThis.fetch | undefined {
  const settings = proxySettingsOf(env);
  if (settings.httpsProxy === undefined && settings.httpProxy === undefined) return undefined;
  const key = JSON.stringify(settings);
  let fetcher = fetchers.get(key);
  if (fetcher === undefined) {
    // Empty strings, not undefined: undefined would make undici read process.env itself.
    const dispatcher = new EnvHttpProxyAgent({
      httpsProxy: settings.httpsProxy ?? '',
      httpProxy: settings.httpProxy ?? '',
      noProxy: settings.noProxy ?? '',
    });
    fetcher = ((input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
      // A Request made by the runtime's own fetch (the AWS SDK makes those) is not undici's: pass its parts.
      const [url, fromRequest] = typeof input === 'string' || input instanceof URL ? [input, {}] : [input.url, requestParts(input)];
      return undiciFetch(url, { ...fromRequest, ...(init as Parameters<typeof undiciFetch>[1]), dispatcher });
    }) as unknown as typeof globalThis.fetch;
    fetchers.set(key, fetcher);
  }
  return fetcher;
}

function requestParts(request: Request): NonNullable<Parameters<typeof undiciFetch>[1]> {
  return {
    method: request.method,
    headers: [...request.headers.entries()],
    signal: request.signal,
    ...(request.body !== null ? { body: request.body as unknown as NonNullable<Parameters<typeof undiciFetch>[1]>['body'], duplex: 'half' as const } : {}),
  };
}

/** `overrides` with the proxied fetch filled in when the caller (a test seam) gave none. */
export function withProxyFetch(env: ProviderEnv, overrides: ProviderOverrides | undefined): ProviderOverrides {
  if (overrides?.fetch !== undefined) return overrides;
  const fetch = proxiedFetch(env);
  return fetch === undefined ? (overrides ?? {}) : { ...overrides, fetch };
}

/** A provider definition whose clients (chat and embeddings) reach their provider through the configured proxy. */
export function proxied(definition: ProviderDefinition): ProviderDefinition {
  const { embeddings } = definition;
  return {
    ...definition,
    create: (env, modelId, overrides) => definition.create(env, modelId, withProxyFetch(env, overrides)),
    ...(embeddings !== undefined
      ? { embeddings: { ...embeddings, create: (env, modelId, overrides) => embeddings.create(env, modelId, withProxyFetch(env, overrides)) } }
      : {}),
  };
}
