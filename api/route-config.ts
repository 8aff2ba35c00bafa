import type { FastifyInstance, FastifyRequest } from 'fastify';

type RouteConfig = FastifyRequest['routeOptions']['config'];

declare module 'fastify' {
  interface FastifyRequest {
    /** The route's config once {@link routeConfigOf} has read it for this request (null before). */
    routeConfigRead: RouteConfig | null;
  }
}

/** Gives every request the slot {@link routeConfigOf} fills (registered once, before any route). */
export function registerRouteConfig(app: FastifyInstance): void {
  app.decorateRequest('routeConfigRead', null);
}

/**
 * The config of the route a request matched (`config.url` is its path pattern, undefined on a 404),
 * read once per request. fastify's `request.routeOptions` is a getter that builds a fresh object of
 * thirteen fields on every read (and looks up the router's version strategy); the hooks every request
 * passes read the config about ten times between them.
 */
export function routeConfigOf(request: FastifyRequest): RouteConfig {
  let config = request.routeConfigRead;
  if (config === null || config === undefined) {
    config = request.routeOptions.config;
    request.routeConfigRead = config;
  }
  return config;
}
