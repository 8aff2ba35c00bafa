import type { HttpClient } from './http-client';
import type { Batch, BatchResults, BatchSubmitRequest, ModelConfig, RouteGroup } from './server-types';

/** The part of an OpenAI chat request the playground sends. */
export interface ChatCompletionStreamRequest {
  readonly model: string;
  readonly messages: readonly { readonly role: 'system' | 'user'; readonly content: string }[];
  readonly temperature: number;
  readonly max_tokens: number;
}

export interface ModelList {
  readonly version: string | null;
  readonly count: number;
  readonly models: readonly ModelConfig[];
}

/** A route group as GET /v1/route-groups/{name} answers it: each candidate with its learned window. */
export interface RouteGroupState extends Omit<RouteGroup, 'candidates'> {
  readonly name: string;
  readonly eliminationThreshold: number;
  readonly candidates: readonly {
    readonly provider: string;
    readonly model: string;
    readonly weight?: number;
    readonly successRate: number | null;
    readonly outcomes: number;
    readonly eliminated: boolean;
  }[];
}

/** The generation half: model registry, route groups, streaming, batches. */
export function genaiApi(http: HttpClient) {
  return {
    models: () => http.request<ModelList>('GET', '/models'),
    searchModels: (capability: string | undefined, maxPrice: number | undefined) =>
      http.request<{ count: number; results: ModelConfig[] }>('GET', '/models/search', { query: { capability, maxPrice } }),
    routeGroups: () => http.request<{ data: (RouteGroup & { name: string })[] }>('GET', '/v1/route-groups'),
    routeGroup: (name: string) => http.request<RouteGroupState>('GET', `/v1/route-groups/${encodeURIComponent(name)}`),
    putRouteGroup: (name: string, group: RouteGroup) => http.request<RouteGroup>('PUT', `/v1/route-groups/${encodeURIComponent(name)}`, { body: group }),
    deleteRouteGroup: (name: string) => http.request<unknown>('DELETE', `/v1/route-groups/${encodeURIComponent(name)}`),
    providerStatus: () =>
      http.request<{ providers: Record<string, { available: boolean; model?: string }>; bestProvider: string | null }>('GET', '/api/status'),
    /** The OpenAI-compatible gateway, streamed: `model` is provider/model, a registry name or a route group. */
    streamChat: (body: ChatCompletionStreamRequest, signal: AbortSignal) =>
      http.stream('/v1/chat/completions', { ...body, stream: true, stream_options: { include_usage: true } }, signal),
    submitBatch: (body: BatchSubmitRequest) => http.request<Batch>('POST', '/api/batches', { body }),
    batch: (batchId: string) => http.request<Batch>('GET', `/api/batches/${encodeURIComponent(batchId)}`),
    batchResults: (batchId: string, offset: number, limit: number) =>
      http.request<BatchResults>('GET', `/api/batches/${encodeURIComponent(batchId)}/results`, { query: { offset, limit } }),
    cancelBatch: (batchId: string) => http.request<Batch>('POST', `/api/batches/${encodeURIComponent(batchId)}/cancel`),
  };
}
