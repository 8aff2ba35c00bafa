import type { Schema } from './schema-arbitrary.js';

/**
 * The operations of the service's own OpenAPI document (`GET /openapi.json`), the tenant fuzz's
 * whole list: a route added to the document is fuzzed without anyone listing it here. What this
 * file does list is how a parameter or body property names things, by its name.
 */
export interface OperationParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly schema: Schema;
}

export interface Operation {
  /** `METHOD /path/{param}` as in the document. */
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly OperationParameter[];
  /** The JSON request body's schema, when the operation documents one. */
  readonly body: Schema | undefined;
  /** Which credentials it takes: none (public), session only, or session or API key. */
  readonly security: 'none' | 'session' | 'session-or-key';
}

export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, Record<string, unknown>>>;
  readonly components: { readonly schemas: Record<string, Schema> };
}

/** Properties and parameters that name the merchant a request acts on (the guard's `merchantFrom`). */
export const merchantSlots: ReadonlySet<string> = new Set(['merchantId', 'merchant_id', 'created_by']);

/**
 * Properties and parameters holding the id of one resource of one merchant, unique across
 * merchants: B's request carrying A's id acts on A's resource, so any 2xx answer to it is a
 * leak. The value is the pool of A's ids it is filled from. A path parameter of a new route
 * that is in none of these tables counts as a reference too, filled from every id A owns.
 */
export const referencePools: Readonly<Record<string, readonly string[]>> = {
  key_id: ['key_id'],
  user_id: ['user_id'],
  batchId: ['batch_id'],
  id: ['response_id', 'ingestion_id'],
  ingestionId: ['ingestion_id'],
  experiment_id: ['experiment_id'],
  routing_algorithm_id: ['routing_algorithm_id', 'experiment_id'],
  control_algorithm_id: ['routing_algorithm_id'],
  variant_algorithm_id: ['routing_algorithm_id'],
  previous_response_id: ['response_id'],
};

/**
 * Names inside a merchant's own namespace: B naming one of A's names reaches B's own thing of
 * that name (B's route group "x" is not A's). A 2xx is fine; A's copy must stay as it was (the
 * state check) and nothing of A's may come back (the canary check).
 */
export const namespacedPools: Readonly<Record<string, readonly string[]>> = {
  gateway: ['gateway'],
  feature: ['feature'],
  connector: ['connector'],
  account: ['account'],
  name: ['route_group', 'mcp_server'],
  sessionId: ['session_id'],
};

/** Catalog parameters: public names of the service's catalog, owned by no merchant. */
export const catalogValues: Readonly<Record<string, readonly string[]>> = {
  provider: ['openai', 'anthropic', 'not-a-provider'],
  alias: ['gpt-4o', 'claude', 'no-such-alias'],
  // Outbound endpoints (merchant MCP servers): loopback (allowed in the fuzz's app), private, metadata;
  // never a generated host name, which would send the run to DNS.
  url: ['http://127.0.0.1:9/mcp', 'http://10.1.2.3/mcp', 'http://169.254.169.254/latest/meta-data'],
};

/** Keys offered inside free-form objects (e.g. /api/generate's `context`), so references reach them. */
export const freeFormKeys = ['sessionId'];

/** Every operation of the document, sorted by key (the fuzz order, so a seed replays the same run). */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters = ((raw.parameters ?? []) as Record<string, unknown>[]).map((parameter) => ({
        name: String(parameter.name),
        in: parameter.in as OperationParameter['in'],
        required: parameter.required === true,
        schema: (parameter.schema ?? {}) as Schema,
      }));
      const content = (raw.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content;
      const security = (raw.security ?? []) as Record<string, unknown>[];
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters,
        body: content?.['application/json']?.schema,
        security: security.length === 0 ? 'none' : security.some((scheme) => 'ApiKeyAuth' in scheme) ? 'session-or-key' : 'session',
      });
    }
  }
  return operations.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** How a parameter or property of this name is filled: A's/B's merchant, A's ids or names, the catalog, or the schema. */
export function kindOf(name: string, where: 'path' | 'query' | 'body'): 'merchant' | 'reference' | 'namespaced' | 'catalog' | 'free' {
  if (merchantSlots.has(name)) return 'merchant';
  // A body's `id` is an item's own id (e.g. a Responses input item), not a reference to look up.
  if (name in referencePools) return where === 'body' && name === 'id' ? 'free' : 'reference';
  if (name in namespacedPools) return 'namespaced';
  if (name in catalogValues) return 'catalog';
  return where === 'path' ? 'reference' : 'free';
}
