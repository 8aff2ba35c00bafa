import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { RoutingEvaluateRequest } from '../../src/generated/schema-types.js';
import { algorithmForValues, type AlgorithmFor, type RoutingAlgorithmRecord } from '../../src/ports/state-store.js';
import { formatDbTimestamp } from '../../src/routing-rules/db-timestamp.js';
import { parseRoutingAlgorithm, routingKeysView } from '../../src/routing-rules/index.js';
import { quote } from '../../src/routing-rules/rule-validation-issue.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { hybridRoutingRoute } from './routing-rules-hybrid.js';
import { evaluateResponse, rejected, runStaticEvaluation } from './routing-rules-static.js';

const tags = ['Routing Rules'];
const notFound = (id: string) => rejected(`Routing algorithm not found for the provided id : ${id}`);
const activeRefusal = 'This experiment is active. Stop it before editing or deleting.';

interface CreateBody {
  readonly rule_id?: string | null;
  readonly name?: unknown;
  readonly description?: unknown;
  readonly created_by: string;
  readonly algorithm_for?: unknown;
  readonly metadata?: unknown;
  readonly algorithm?: unknown;
}
interface UpdateBody {
  readonly created_by: string;
  readonly routing_algorithm_id: string;
  readonly name?: string;
  readonly description?: string | null;
  readonly algorithm?: unknown;
}
interface AlgorithmRef {
  readonly created_by: string;
  readonly routing_algorithm_id: string;
}

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

/**
 * decision-engine 1.4.x's 400 for a body that is not a routing rule, followed by what is wrong
 * (1.4.x says only `Invalid routing rule configuration`; HEAD appends serde's message): a client
 * matching the 1.4.x text by prefix still matches, and the operator learns which field to fix.
 */
const notARule = (problems: readonly string[]) => rejected(`Invalid routing rule configuration: ${problems.join('; ')}`);

/** Parses an algorithm body into the record's form, or throws decision-engine's 400 naming every problem. */
function parseAlgorithm(input: unknown): RoutingAlgorithmRecord['algorithm'] {
  const parsed = parseRoutingAlgorithm(input);
  if (parsed.ok) return parsed.algorithm;
  if (parsed.kind === 'shape') throw notARule(parsed.errors);
  throw rejected(`Field validation failed: ${parsed.errors.join('; ')}`);
}

function algorithmForOf(value: unknown): AlgorithmFor {
  if (value === undefined || value === null) return 'payment';
  if (typeof value === 'string' && (algorithmForValues as readonly string[]).includes(value)) return value as AlgorithmFor;
  throw notARule([`algorithm_for: invalid_shape: expected one of ${algorithmForValues.join(', ')}, got ${describe(value)}`]);
}

/** A wrong value for a message: strings quoted (and cut), other JSON by its type. */
function describe(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value === undefined) return 'nothing (missing field)';
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** The name and description checks of create (1.4.x: a missing name is not a rule at all). */
function checkNameAndDescription<T extends { readonly name?: unknown; readonly description?: unknown }>(
  body: T,
): asserts body is T & { readonly name: string; readonly description?: string | null } {
  const problems: string[] = [];
  if (typeof body.name !== 'string') problems.push(`name: invalid_shape: expected a string, got ${describe(body.name)}`);
  if (body.description !== undefined && body.description !== null && typeof body.description !== 'string') {
    problems.push(`description: invalid_shape: expected a string or null, got ${describe(body.description)}`);
  }
  if (problems.length > 0) throw notARule(problems);
}

/**
 * Routing Rules (euclid): POST /routing/{create,activate,deactivate,list/:created_by,
 * list/active/:created_by,evaluate,update,delete,hybrid} and GET /config/routing-keys.
 *
 * @remarks Stricter than 1.4.x: a credential only acts for its own merchant (`created_by`), an
 * algorithm of another merchant is "not found" to activate/deactivate/update/delete, and deleting an
 * unknown id is a 400, not a 500.
 */
export async function routingRuleRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const rules = deps.state.routingRules;

  // Bodiless calls (`POST /routing/list/*` with `content-type: application/json` and no body) are
  // accepted by the app-wide JSON parser (api/plugins/json-body.ts).

  /** The algorithm `id` of `createdBy`; another merchant's algorithm is as unknown as a missing one. */
  async function ownAlgorithm(createdBy: string, id: string): Promise<RoutingAlgorithmRecord> {
    const record = await rules.get(id);
    if (record === undefined || record.createdBy !== createdBy) throw notFound(id);
    return record;
  }

  app.post<{ Body: CreateBody }>(
    '/routing/create',
    {
      schema: { tags, summary: 'Create a routing algorithm', body: ref('RoutingRuleCreate') },
      config: { flowType: 'routing_create', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request) => {
      const body = request.body;
      checkNameAndDescription(body);
      const algorithmFor = algorithmForOf(body.algorithm_for);
      const algorithm = parseAlgorithm(body.algorithm);
      const now = deps.clock.now();
      const record: RoutingAlgorithmRecord = {
        id: body.rule_id ?? `routing_${randomUUID()}`,
        createdBy: body.created_by,
        name: body.name,
        description: typeof body.description === 'string' ? body.description : '',
        algorithmFor,
        algorithm,
        metadata: body.metadata ?? null,
        createdAt: now,
        modifiedAt: now,
      };
      if ((await rules.create(record)) === 'exists') throw rejected(`Routing algorithm already exists for the provided id : ${record.id}`);
      request.log.info({ merchantId: record.createdBy, ruleId: record.id, type: algorithm.type }, 'routing algorithm created');
      return dictionaryRecord(record);
    },
  );

  app.post<{ Body: AlgorithmRef }>(
    '/routing/activate',
    {
      schema: { tags, summary: "Make an algorithm the merchant's active one (replacing any other)", body: ref('RoutingAlgorithmRef') },
      config: { flowType: 'routing_activate', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request, reply) => {
      const { created_by: createdBy, routing_algorithm_id: id } = request.body;
      const record = await ownAlgorithm(createdBy, id);
      await rules.activate(createdBy, record.algorithmFor, id);
      request.log.info({ merchantId: createdBy, ruleId: id }, 'routing algorithm activated');
      return reply.code(200).send();
    },
  );

  app.post<{ Body: AlgorithmRef }>(
    '/routing/deactivate',
    {
      schema: { tags, summary: 'Deactivate an algorithm (idempotent)', body: ref('RoutingAlgorithmRef') },
      config: { flowType: 'routing_deactivate', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request, reply) => {
      const { created_by: createdBy, routing_algorithm_id: id } = request.body;
      const record = await ownAlgorithm(createdBy, id);
      await rules.deactivate(createdBy, record.algorithmFor, id);
      return reply.code(200).send();
    },
  );

  // Clients POST these with `content-type: application/json` and no body: no body schema.
  app.post<{ Params: { created_by: string } }>(
    '/routing/list/:created_by',
    {
      schema: { tags, summary: "List a merchant's algorithms", params: { type: 'object', required: ['created_by'], properties: { created_by: { type: 'string', minLength: 1 } } } },
      config: { flowType: 'routing_list', auth: 'either', merchantFrom: { params: 'created_by' } },
    },
    async (request) => (await rules.list(request.params.created_by)).map(jsonified),
  );

  app.post<{ Params: { created_by: string } }>(
    '/routing/list/active/:created_by',
    {
      schema: { tags, summary: "List a merchant's active algorithms ([] when none)", params: { type: 'object', required: ['created_by'], properties: { created_by: { type: 'string', minLength: 1 } } } },
      config: { flowType: 'routing_list_active', auth: 'either', merchantFrom: { params: 'created_by' } },
    },
    async (request) => (await rules.loadActive(request.params.created_by)).map(jsonified),
  );

  app.post<{ Body: UpdateBody }>(
    '/routing/update',
    {
      schema: { tags, summary: 'Replace an inactive algorithm', body: ref('RoutingRuleUpdate') },
      config: { flowType: 'routing_update', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request) => {
      const body = request.body;
      const current = await ownAlgorithm(body.created_by, body.routing_algorithm_id);
      const algorithm = body.algorithm === undefined ? current.algorithm : parseAlgorithm(body.algorithm);
      const record: RoutingAlgorithmRecord = {
        ...current,
        name: body.name ?? current.name,
        description: body.description === undefined ? current.description : body.description ?? '',
        algorithm,
        modifiedAt: deps.clock.now(),
      };
      const result = await rules.update(record);
      if (result === 'active') throw rejected(activeRefusal);
      if (result === 'missing') throw notFound(record.id);
      return dictionaryRecord(record);
    },
  );

  app.post<{ Body: AlgorithmRef }>(
    '/routing/delete',
    {
      schema: { tags, summary: 'Delete an inactive algorithm', body: ref('RoutingAlgorithmRef') },
      config: { flowType: 'routing_delete', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request) => {
      const { created_by: createdBy, routing_algorithm_id: id } = request.body;
      const result = await rules.delete(createdBy, id);
      if (result === 'active') throw rejected(activeRefusal);
      if (result === 'missing') throw notFound(id);
      return { status: 'deleted', routing_algorithm_id: id };
    },
  );

  app.post<{ Body: RoutingEvaluateRequest }>(
    '/routing/evaluate',
    {
      schema: { tags, summary: "Evaluate the merchant's active algorithm", body: ref('RoutingEvaluateRequest') },
      config: { flowType: 'routing_evaluate', auth: 'either', merchantFrom: { body: ['created_by'] } },
    },
    async (request) => {
      const result = await runStaticEvaluation(deps, request, request.body, 'evaluate');
      if (!result.ok) throw result.error;
      return evaluateResponse(request.body.payment_id, result.evaluation);
    },
  );

  await hybridRoutingRoute(app, deps);

  app.get(
    '/config/routing-keys',
    {
      schema: { tags: ['Config'], summary: 'The keys routing rules may test, with their types and allowed values' },
      config: { flowType: 'get_routing_config', auth: 'either', merchantFrom: 'credential' },
    },
    async () => routingKeysView(),
  );
}
