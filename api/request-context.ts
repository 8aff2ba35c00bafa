import type { FastifyRequest } from 'fastify';

/** The id every log line and event of one request carries (x-request-id, honoured or generated). */
export function requestIdOf(request: FastifyRequest): string {
  return String(request.id);
}
