import { ApiError } from './api-error';

/** A read of a route this service may not serve yet (an older build): its answer, or `unavailable`. */
export type Optional<T> = { readonly available: true; readonly data: T } | { readonly available: false };

/** Whether a failure is the service's "no such route" (404 `Route GET /… not found`), not a missing record. */
export function isMissingRoute(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.message.startsWith('Route ');
}

/** Runs a read; a route the service does not have answers `{available: false}` instead of failing. */
export async function optionalRoute<T>(read: () => Promise<T>): Promise<Optional<T>> {
  try {
    return { available: true, data: await read() };
  } catch (error) {
    if (isMissingRoute(error)) return { available: false };
    throw error;
  }
}
