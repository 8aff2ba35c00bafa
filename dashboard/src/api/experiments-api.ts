import type { HttpClient } from './http-client';
import { optionalRoute } from './optional-route';
import type { ExperimentResults } from './server-types';

/** A/B experiment analytics (api/routes/analytics-experiments.ts); experiments themselves are `ab_test` routing algorithms. */
export function experimentsApi(http: HttpClient) {
  return {
    /** Unavailable on a service without the route. */
    results: (experimentId: string, signal?: AbortSignal) =>
      optionalRoute(() =>
        http.request<ExperimentResults>('GET', `/analytics/experiment/${encodeURIComponent(experimentId)}/results`, {
          ...(signal !== undefined ? { signal } : {}),
        }),
      ),
  };
}
