import type { FastifyInstance } from 'fastify';
import type { ProbeStage } from '../../src/ports/state-store.js';
import type { AppDeps } from '../app-deps.js';

const stages: readonly ProbeStage[] = ['connection', 'write', 'read', 'delete'];

/** Health: liveness, readiness (turns Down on shutdown), and a StateStore write/read/delete probe. */
export async function healthRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get('/health', { schema: { tags: ['Health'], summary: 'Liveness' }, config: { auth: 'none' } }, async () => ({ message: 'Health is good' }));

  app.get(
    '/health/ready',
    { schema: { tags: ['Health'], summary: 'Readiness: Down while draining for shutdown' }, config: { auth: 'none' } },
    async (_request, reply) => {
      // 1.4.x answers 400 (not 503) once the readiness flag is cleared; load balancers only need non-2xx.
      if (!deps.readiness.isReady()) return reply.code(400).send({ message: 'Down' });
      return { message: 'Up' };
    },
  );

  app.get(
    '/health/diagnostics',
    { schema: { tags: ['Health'], summary: 'State store write/read/delete probe and event bus health' }, config: { auth: 'none' } },
    async (request) => {
      let failedAt = stages.length;
      try {
        const probe = await deps.state.probe();
        if (!probe.ok) failedAt = stages.indexOf(probe.failedStage);
      } catch (error) {
        request.log.warn({ err: error }, 'state store probe failed');
        failedAt = 0;
      }
      const status = (stage: ProbeStage) => (stages.indexOf(stage) < failedAt ? 'Working' : 'Failing');
      const bus = deps.bus.health();
      return {
        key_custodian_locked: false,
        database: {
          database_connection: status('connection'),
          database_read: status('read'),
          database_write: status('write'),
          database_delete: status('delete'),
        },
        event_bus: { connected: bus.connected, spooled: bus.spooled, spool_full: bus.spoolFull, refused: bus.refused },
      };
    },
  );
}
