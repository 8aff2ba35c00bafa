import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Request headers a browser on an allowed origin may send: the credentials and the body type. */
const allowedHeaders = ['authorization', 'content-type', 'x-api-key', 'x-request-id'];

/** Response headers its scripts may read: the request id, throttling and the gateway's routing decision. */
const exposedHeaders = [
  'x-request-id',
  'retry-after',
  'location',
  'x-switchyard-provider',
  'x-switchyard-model',
  'x-switchyard-routing-approach',
  'x-switchyard-hops',
  'x-switchyard-route-group',
];

/** 600 s: how long a browser may reuse a preflight answer (Chromium caps it at 7200 s anyway). */
const preflightMaxAgeSeconds = 600;

/** CORS_ORIGINS as a list: `https://a.example, https://b.example` → exact origins. */
export function parseCorsOrigins(setting: string | undefined): readonly string[] {
  if (setting === undefined) return [];
  return setting
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
}

/**
 * CORS for the configured browser origins only (CORS_ORIGINS). With none configured nothing is
 * registered: no hook runs, no Access-Control-* header is ever sent, and browsers keep the
 * same-origin rule (the dashboard is served from this origin and needs none).
 *
 * Must be registered before the authentication guard: a preflight carries no credentials, and
 * @fastify/cors answers it (204) in its onRequest hook, before the guard would refuse it.
 *
 * @remarks Origins are matched exactly (no wildcard, no patterns). `credentials` stays off: the
 * API authenticates by header (Bearer, x-api-key), never by cookie. The admin secret header is not
 * in the allowed list: merchant creation is not meant to be called from another site's page.
 */
export async function registerCrossOrigin(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await app.register(cors, {
    origin: [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders,
    exposedHeaders,
    maxAge: preflightMaxAgeSeconds,
    credentials: false,
  });
}
