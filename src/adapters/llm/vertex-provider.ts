import { createVertex } from '@ai-sdk/google-vertex';
import { createVertexAnthropic } from '@ai-sdk/google-vertex/anthropic';
import { ConfigurationError } from '../../generation/errors/provider-errors.js';
import { createAiSdkLanguageModelClient } from './ai-sdk-language-model-client.js';
import { mapAnthropicError } from './anthropic-error-mapping.js';
import { mapGoogleError } from './google-ai-error-mapping.js';
import { createNativeWireClient } from './native-wire-client.js';
import { vertexAccessToken, vertexClaudeEndpoint } from './vertex-claude-native.js';
import type { ProviderDefinition, ProviderEnv } from '../../generation/provider-definition.js';

const projectEnv = ['GOOGLE_CLOUD_PROJECT_ID', 'VERTEX_PROJECT_ID', 'GOOGLE_VERTEX_PROJECT', 'GOOGLE_CLOUD_PROJECT'] as const;
const locationEnv = ['GOOGLE_CLOUD_LOCATION', 'VERTEX_LOCATION', 'GOOGLE_VERTEX_LOCATION'] as const;
const authEnv = ['GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_SERVICE_ACCOUNT_KEY', 'GOOGLE_AUTH_CLIENT_EMAIL', 'GOOGLE_VERTEX_API_KEY'] as const;

function firstSet(env: ProviderEnv, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** What google-auth-library needs, from the first credential source set (in `authEnv` order). */
type VertexAuth =
  | {
      readonly kind: 'google-auth';
      readonly options:
        | { readonly keyFilename: string }
        | { readonly credentials: { readonly client_email: string; readonly private_key: string } & Record<string, unknown> };
    }
  | { readonly kind: 'api-key'; readonly apiKey: string };

function parseServiceAccountKey(raw: string): Record<string, unknown> {
  // Accepted as the key file's JSON text, or that text base64-encoded (easier to put in an env var).
  for (const candidate of [raw, Buffer.from(raw, 'base64').toString('utf8')]) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate);
    } catch {
      parsed = undefined; // not JSON in this reading: the next one is tried
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  }
  throw new ConfigurationError('vertex: GOOGLE_SERVICE_ACCOUNT_KEY is neither a service-account key JSON nor its base64 encoding', 'vertex');
}

function resolveAuth(env: ProviderEnv): VertexAuth {
  const keyFilename = env['GOOGLE_APPLICATION_CREDENTIALS']?.trim();
  if (keyFilename) return { kind: 'google-auth', options: { keyFilename } };
  const keyJson = env['GOOGLE_SERVICE_ACCOUNT_KEY']?.trim();
  if (keyJson) {
    const key = parseServiceAccountKey(keyJson);
    if (typeof key['client_email'] !== 'string' || typeof key['private_key'] !== 'string') {
      throw new ConfigurationError('vertex: GOOGLE_SERVICE_ACCOUNT_KEY lacks client_email or private_key', 'vertex');
    }
    return { kind: 'google-auth', options: { credentials: { ...key, client_email: key['client_email'], private_key: key['private_key'] } } };
  }
  const clientEmail = env['GOOGLE_AUTH_CLIENT_EMAIL']?.trim();
  if (clientEmail) {
    const privateKey = env['GOOGLE_AUTH_PRIVATE_KEY']?.trim();
    if (!privateKey) throw new ConfigurationError('vertex: GOOGLE_AUTH_CLIENT_EMAIL is set but GOOGLE_AUTH_PRIVATE_KEY is not', 'vertex');
    // Keys pasted into .env files usually carry literal "\n" sequences instead of newlines.
    return { kind: 'google-auth', options: { credentials: { client_email: clientEmail, private_key: privateKey.replace(/\\n/g, '\n') } } };
  }
  const apiKey = env['GOOGLE_VERTEX_API_KEY']?.trim();
  if (apiKey) return { kind: 'api-key', apiKey };
  throw new ConfigurationError(
    'vertex: no credentials; set GOOGLE_APPLICATION_CREDENTIALS (a credentials file), GOOGLE_SERVICE_ACCOUNT_KEY (key JSON), GOOGLE_AUTH_CLIENT_EMAIL + GOOGLE_AUTH_PRIVATE_KEY, or GOOGLE_VERTEX_API_KEY (express mode)',
    'vertex',
  );
}

/**
 * Google Vertex AI through `@ai-sdk/google-vertex`: Gemini models natively, Claude models (id
 * containing `claude`) through the Anthropic publisher (`rawPredict`), whose Messages requests are
 * also passed through natively (`nativeWires`: anthropic-messages, see vertex-claude-native.ts). OAuth tokens come from
 * google-auth-library at call time, never in `create`. `VERTEX_BASE_URL` replaces the API host
 * (`https://{location}-aiplatform.googleapis.com`); the project/location path is kept.
 */
export const vertexProvider: ProviderDefinition = {
  name: 'vertex',
  requiredEnv: [projectEnv, authEnv],
  modelEnv: ['VERTEX_MODEL'],
  defaultModel: 'gemini-2.5-flash',
  create(env, modelId, overrides = {}) {
    const project = firstSet(env, projectEnv);
    if (!project) throw new ConfigurationError(`vertex: no Google Cloud project; set one of ${projectEnv.join(', ')}`, 'vertex');
    const location = firstSet(env, locationEnv) ?? 'us-central1';
    if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i.test(location)) {
      throw new ConfigurationError(`vertex: location "${location}" (GOOGLE_CLOUD_LOCATION/VERTEX_LOCATION) is not a region name like us-central1`, 'vertex');
    }
    const auth = resolveAuth(env);
    const hostRoot = env['VERTEX_BASE_URL']?.trim().replace(/\/+$/, '');
    const fetchOption = overrides.fetch ? { fetch: overrides.fetch } : {};

    if (modelId.toLowerCase().includes('claude')) {
      if (auth.kind === 'api-key') throw new ConfigurationError('vertex: Claude models on Vertex need OAuth credentials, not GOOGLE_VERTEX_API_KEY', 'vertex');
      const anthropic = createVertexAnthropic({
        project,
        location,
        googleAuthOptions: auth.options,
        ...(hostRoot ? { baseURL: `${hostRoot}/v1/projects/${project}/locations/${location}/publishers/anthropic/models` } : {}),
        ...fetchOption,
      });
      const client = createAiSdkLanguageModelClient({
        provider: 'vertex',
        modelId,
        model: anthropic(modelId),
        supportsTools: true,
        mapError: (error) => mapAnthropicError('vertex', error),
      });
      // Messages pass through natively (rawPredict) on node:http, unless a fetch is handed in (a proxy, or a test seam).
      if (overrides.fetch !== undefined) return client;
      const native = createNativeWireClient({
        provider: 'vertex',
        modelId,
        endpoints: {
          'anthropic-messages': vertexClaudeEndpoint({ project, location, modelId, hostRoot, accessToken: vertexAccessToken(auth.options) }),
        },
        mapError: (error) => mapAnthropicError('vertex', error),
      });
      return { ...client, ...native };
    }

    const vertex = createVertex({
      project,
      location,
      ...(auth.kind === 'api-key' ? { apiKey: auth.apiKey } : { googleAuthOptions: auth.options }),
      ...(hostRoot
        ? {
            baseURL:
              auth.kind === 'api-key' ? `${hostRoot}/v1/publishers/google` : `${hostRoot}/v1beta1/projects/${project}/locations/${location}/publishers/google`,
          }
        : {}),
      ...fetchOption,
    });
    return createAiSdkLanguageModelClient({
      provider: 'vertex',
      modelId,
      model: vertex(modelId),
      supportsTools: true,
      mapError: (error) => mapGoogleError('vertex', error),
    });
  },
};
