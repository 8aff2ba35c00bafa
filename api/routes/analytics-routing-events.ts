import type { FastifyInstance, FastifyRequest } from 'fastify';
import { analyticsQueryError } from '../../src/analytics/parse-analytics-query.js';
import { parseRoutingEventsQuery } from '../../src/analytics/routing-events/parse-routing-events-query.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { AnalyticsStore } from '../../src/ports/analytics-store.js';
import type { Clock } from '../../src/time/clock.js';
import { ref } from '../http-schemas.js';

export interface AnalyticsRoutingEventsDeps {
  readonly analytics: AnalyticsStore | undefined;
  readonly clock: Clock;
  readonly merchantOf: (request: FastifyRequest) => string;
}

/**
 * GET /analytics/routing-events (decision-engine's analyticsRoutingEvents): the credential
 * merchant's success-rate leader changes and autopilot calibrations, newest first
 * (docs/analytics.md). The merchant is always the credential's.
 */
export async function analyticsRoutingEventsRoutes(app: FastifyInstance, deps: AnalyticsRoutingEventsDeps): Promise<void> {
  app.get(
    '/analytics/routing-events',
    {
      schema: {
        tags: ['Analytics'],
        summary: 'Routing events: success-rate leader changes per payment method and autopilot calibrations, newest first',
        querystring: ref('RoutingEventsQuery'),
        response: { 200: ref('RoutingEventsReport') },
      },
      config: { flowType: 'analytics_routing_events', auth: 'either', merchantFrom: 'credential' },
    },
    async (request) => {
      const tenant = request.headers['x-tenant-id'];
      // As the other analytics reads: x-tenant-id may be absent, and only `public` is a tenant.
      if (tenant !== undefined && tenant !== 'public') {
        throw new SwitchyardError('SY_REQUEST_INVALID', { message: 'Tenant error: Invalid x-tenant-id' });
      }
      const parsed = parseRoutingEventsQuery(request.query as Record<string, unknown>, { merchantId: deps.merchantOf(request), nowMs: deps.clock.now() });
      if (!parsed.ok) throw analyticsQueryError(parsed.issues);
      if (deps.analytics === undefined) throw new SwitchyardError('SY_ANALYTICS_UNAVAILABLE', { message: 'Failed while connecting to database' });
      return deps.analytics.routingEvents(parsed.query);
    },
  );
}
