import { GoogleAuth, type GoogleAuthOptions } from 'google-auth-library';
import type { NativeEndpoint } from './native-wire-client.js';

/** The API version Vertex AI's Claude endpoints take in the body instead of the `anthropic-version` header. */
export const vertexAnthropicVersion = 'vertex-2023-10-16';

/**
 * One token source per credentials: clients are made per call, and google-auth-library keeps its
 * access token (and refreshes it before it expires) on the `GoogleAuth` instance, so a new one per
 * call would exchange credentials on every request.
 */
const tokenSources = new Map<string, () => Promise<string>>();

/** An OAuth access token for Vertex AI (scope cloud-platform) from these credentials, cached and refreshed by google-auth-library. */
export function vertexAccessToken(options: GoogleAuthOptions): () => Promise<string> {
  const key = JSON.stringify(options);
  let source = tokenSources.get(key);
  if (source === undefined) {
    const auth = new GoogleAuth({ scopes: ['https://www.googleapis.com/auth/cloud-platform'], ...options });
    source = async () => {
      const token = (await (await auth.getClient()).getAccessToken()).token;
      if (!token) throw Object.assign(new Error('vertex: google-auth-library gave no access token'), { code: 'EAUTH' });
      return token;
    };
    tokenSources.set(key, source);
  }
  return source;
}

/** Vertex AI's API host for a location (as `@ai-sdk/google-vertex` picks it): global, the multi-regions, or a region's. */
function vertexHost(location: string): string {
  if (location === 'global') return 'https://aiplatform.googleapis.com';
  if (location === 'eu' || location === 'us') return `https://aiplatform.${location}.rep.googleapis.com`;
  return `https://${location}-aiplatform.googleapis.com`;
}

export interface VertexClaudeEndpointOptions {
  readonly project: string;
  readonly location: string;
  readonly modelId: string;
  /** Replaces the API host (`VERTEX_BASE_URL`); the project/location path is kept. */
  readonly hostRoot?: string | undefined;
  readonly accessToken: () => Promise<string>;
}

/**
 * Anthropic's Messages wire on Vertex AI: `…/publishers/anthropic/models/{model}:rawPredict`
 * (`:streamRawPredict` for a stream, whose server-sent events are Anthropic's), the client's body
 * without `model` (it is in the URL) and with `anthropic_version: "vertex-2023-10-16"` in place of
 * the `anthropic-version` header; `anthropic-beta` stays a header. Authenticated with an OAuth
 * bearer token.
 */
export function vertexClaudeEndpoint(options: VertexClaudeEndpointOptions): NativeEndpoint {
  const { project, location, modelId } = options;
  const base = `${options.hostRoot ?? vertexHost(location)}/v1/projects/${project}/locations/${location}/publishers/anthropic/models/${modelId}`;
  return {
    url: `${base}:rawPredict`,
    streamUrl: `${base}:streamRawPredict`,
    headers: {},
    dropHeaders: ['anthropic-version'],
    bodyOf: (body) => {
      const { model: _model, ...rest } = body;
      return { ...rest, anthropic_version: vertexAnthropicVersion };
    },
    authorize: async () => ({ authorization: `Bearer ${await options.accessToken()}` }),
  };
}
