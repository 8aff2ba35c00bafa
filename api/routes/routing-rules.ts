import type { FastifyInstance } from 'fastify';
import type { RoutingEvaluateBatchRequest, RoutingEvaluateRequest } from '../../src/generated/schema-types.js';
import type { RoutingAlgorithmRecord } from '../../src/ports/state-store.js';
import { formatDbTimestamp } from '../../src/routing-rules/db-timestamp.js';
import { routingKeysView } from '../../src/routing-rules/index.js';
import { maxBatchEvaluations, runBatchEvaluation } from '../../src/routing-rules/run-batch-evaluation.js';
import {
  activateRoutingAlgorithm,
  createRoutingAlgorithm,
  deactivateRoutingAlgorithm,
  deleteRoutingAlgorithm,
  updateRoutingAlgorithm,
  type NewRoutingAlgorithm,
  type RoutingAlgorithmChange,
} from '../../src/routing-rules/manage-routing-algorithms.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { requestIdOf } from '../request-context.js';
import { hybridRoutingRoute } from './routing-rules-hybrid.js';
import { evaluateResponse, runStaticEvaluation } from './routing-rules-static.js';

const tags = ['Routing Rules'];

interface AlgorithmRef {
  readonly created_by: string;
  readonly routing_algorithm_id: string;
}

const createdByParams = { type: 'object', required: ['created_by'], properties: { created_by: { type: 'string', minLength: 1 } } } as const;

/** `RoutingDictionaryRecord`, the answer of create and update. */
function dictionaryRecord(record: RoutingAlgorithmRecord) {
  return {
    rule_id: record.id,
    name: record.name,
    algorithm_for: record.algorithmFor,
    created_at: formatDbTimestamp(record.createdAt),
    modified_at: formatDbTimestamp(record.modifiedAt),
  };
}

/** `JsonifiedRoutingAlgorithm`, the list item (metadata is stored but never returned, as in 1.4.x). */
function jsonified(record: RoutingAlgorithmRecord) {
  return {
    id: record.id,
    created_by: record.createdBy,
    name: record.name,
    description: record.description,
    algorithm_data: record.algorithm,
    algorithm_for: record.algorithmFor,
    created_at: formatDbTimestamp(record.createdAt),
    modified_at: formatDbTimestamp(record.modifiedAt),
  };
}

function registerCreate(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: NewRoutingAlgorithm }>(
    '/routing/create',
    {
      schema: { tags, summary: 'Create a routing algorithm', body: ref('RoutingRuleCreate') },
      config: { flowType: 'routing_create', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request) => {
      const record = await createRoutingAlgorithm(deps, request.body);
      request.log.info({ merchantId: record.createdBy, ruleId: record.id, type: record.algorithm.type }, 'routing algorithm created');
      return dictionaryRecord(record);
    },
  );
}

function registerActivate(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: AlgorithmRef }>(
    '/routing/activate',
    {
      schema: { tags, summary: "Make an algorithm the merchant's active one (replacing any other)", body: ref('RoutingAlgorithmRef') },
      config: { flowType: 'routing_activate', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request, reply) => {
      const { created_by: createdBy, routing_algorithm_id: id } = request.body;
      await activateRoutingAlgorithm(deps, createdBy, id);
      request.log.info({ merchantId: createdBy, ruleId: id }, 'routing algorithm activated');
      return reply.code(200).send();
    },
  );
}

function registerDeactivate(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: AlgorithmRef }>(
    '/routing/deactivate',
    {
      schema: { tags, summary: 'Deactivate an algorithm (idempotent)', body: ref('RoutingAlgorithmRef') },
      config: { flowType: 'routing_deactivate', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request, reply) => {
      await deactivateRoutingAlgorithm(deps, request.body.created_by, request.body.routing_algorithm_id);
      return reply.code(200).send();
    },
  );
}

// Clients POST the lists with `content-type: application/json` and no body: no body schema (the
// app-wide JSON parser, api/plugins/json-body.ts, accepts the empty body).
function registerLists(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Params: { created_by: string } }>(
    '/routing/list/:created_by',
    {
      schema: { tags, summary: "List a merchant's algorithms", params: createdByParams },
      config: { flowType: 'routing_list', auth: 'either', merchantFrom: { params: 'created_by' }, minRole: 'member' },
    },
    async (request) => (await deps.state.routingRules.list(request.params.created_by)).map(jsonified),
  );

  app.post<{ Params: { created_by: string } }>(
    '/routing/list/active/:created_by',
    {
      schema: { tags, summary: "List a merchant's active algorithms ([] when none)", params: createdByParams },
      config: { flowType: 'routing_list_active', auth: 'either', merchantFrom: { params: 'created_by' }, minRole: 'member' },
    },
    async (request) => (await deps.state.routingRules.loadActive(request.params.created_by)).map(jsonified),
  );
}

function registerUpdate(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: RoutingAlgorithmChange }>(
    '/routing/update',
    {
      schema: { tags, summary: 'Replace an inactive algorithm', body: ref('RoutingRuleUpdate') },
      config: { flowType: 'routing_update', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request) => dictionaryRecord(await updateRoutingAlgorithm(deps, request.body)),
  );
}

function registerDelete(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: AlgorithmRef }>(
    '/routing/delete',
    {
      schema: { tags, summary: 'Delete an inactive algorithm', body: ref('RoutingAlgorithmRef') },
      config: { flowType: 'routing_delete', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request) => {
      const { created_by: createdBy, routing_algorithm_id: id } = request.body;
      await deleteRoutingAlgorithm(deps, createdBy, id);
      return { status: 'deleted', routing_algorithm_id: id };
    },
  );
}

function registerEvaluate(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: RoutingEvaluateRequest }>(
    '/routing/evaluate',
    {
      schema: { tags, summary: "Evaluate the merchant's active algorithm", body: ref('RoutingEvaluateRequest') },
      config: { flowType: 'routing_evaluate', auth: 'either', merchantFrom: { body: ['created_by'] }, minRole: 'member' },
    },
    async (request) => {
      const result = await runStaticEvaluation(deps, request, request.body, 'evaluate');
      if (!result.ok) throw result.error;
      return evaluateResponse(request.body.payment_id, result.evaluation);
    },
  );
}

function registerEvaluateBatch(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: RoutingEvaluateBatchRequest }>(
    '/routing/evaluate/batch',
    {
      schema: {
        tags,
        summary: `Evaluate the merchant's active algorithm for up to ${maxBatchEvaluations} parameter sets at once (resolved once; results in request order)`,
        body: ref('RoutingEvaluateBatchRequest'),
      },
      config: { flowType: 'routing_evaluate_batch', auth: 'either', merchantFrom: { body: ['created_by'] }, minRole: 'member' },
    },
    async (request) => {
      const batch = await runBatchEvaluation(deps, request.body, { source: 'evaluate', requestId: requestIdOf(request) });
      if (!batch.ok) throw batch.error;
      return {
        results: batch.results.map((entry) =>
          entry.kind === 'evaluated'
            ? evaluateResponse(entry.paymentId, entry.evaluation)
            : { payment_id: entry.paymentId, status: 'error', output: null, evaluated_output: [], eligible_connectors: [], error_message: entry.message },
        ),
      };
    },
  );
}

function registerRoutingKeys(app: FastifyInstance): void {
  app.get(
    '/config/routing-keys',
    {
      schema: { tags: ['Config'], summary: 'The keys routing rules may test, with their types and allowed values' },
      config: { flowType: 'get_routing_config', auth: 'either', merchantFrom: 'credential' },
    },
    async () => routingKeysView(),
  );
}

/**
 * Routing Rules (euclid): POST /routing/{create,activate,deactivate,list/:created_by,
 * list/active/:created_by,evaluate,evaluate/batch,update,delete,hybrid} and GET /config/routing-keys. The
 * algorithms' use cases are in src/routing-rules/manage-routing-algorithms.ts.
 *
 * @remarks Stricter than 1.4.x: a credential only acts for its own merchant (`created_by`), an
 * algorithm of another merchant is "not found" to activate/deactivate/update/delete, and deleting an
 * unknown id is a 400, not a 500.
 */
export async function routingRuleRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  registerCreate(app, deps);
  registerActivate(app, deps);
  registerDeactivate(app, deps);
  registerLists(app, deps);
  registerUpdate(app, deps);
  registerDelete(app, deps);
  registerEvaluate(app, deps);
  registerEvaluateBatch(app, deps);
  await hybridRoutingRoute(app, deps);
  registerRoutingKeys(app);
}
