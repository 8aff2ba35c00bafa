import type { FastifyContextConfig, FastifySchema, RouteOptions } from 'fastify';

/**
 * The error answers of every route, added to the OpenAPI document in one place (the routes declare
 * only their success answers). Each status comes from what the route declares and from the layer
 * that answers it, so a new route is documented by the same rules:
 *
 * - its guard (`config.auth`): 401 and 403 (api/plugins/authentication.ts, plain text), or the
 *   admin secret's 401 and throttling 429 (TE_04 envelope);
 * - its body: 400 (not JSON, plain text), 413 (too large), 415 (not JSON's content type, plain
 *   text), 422 (body schema, plain text) — api/plugins/errors.ts;
 * - its path and query parameters: 400 (schema), 404 (the resource they name), 414 (a path
 *   segment past the router's limit, api/plugins/path-limits.ts);
 * - its key limits (`config.keyLimits`): 429;
 * - every route: 500 and 503 (a store, the bus or the service itself unavailable);
 * - the toolkit's errors on generation routes (api/wire/generation-error.ts): 400, 403, 404, 422,
 *   429, 502, 503, 504;
 * - a decision that cannot be made, on the other 'Gateway Decision' routes: 400 in the decider envelope.
 *
 * The envelope follows the route's error wire: OpenAI's error on /v1/* (api/routes/openai-gateway.ts
 * has its own handler), Anthropic's on `config.envelope: 'anthropic'` routes (/v1/messages*), a JSON-RPC error on the MCP gateway (`config.envelope: 'jsonrpc'`, /mcp), the decider envelope on `config.envelope: 'decider'` routes (always 400 for
 * the caller's mistakes), decision-engine's generic envelope elsewhere.
 *
 * Used as @fastify/swagger's `transform`, so it changes the document only: the statuses added here
 * never get a response serializer, and an error body is sent exactly as its handler built it.
 */

/** Which error shape a route answers with. */
type ErrorWire = 'generic' | 'decider' | 'openai' | 'anthropic' | 'jsonrpc';

type Content = Readonly<Record<string, { readonly schema: unknown }>>;

interface DocumentedResponse {
  readonly description: string;
  readonly content: Content;
}

const plainText: Content = { 'text/plain': { schema: { type: 'string' } } };

function jsonOf(ids: readonly string[]): Content {
  const refs = ids.map((id) => ({ $ref: `${id}#` }));
  return { 'application/json': { schema: refs.length === 1 ? refs[0] : { anyOf: refs } } };
}

/** Tags of the routes whose handlers call the generation toolkit (its errors have their own body). */
const toolkitTags = new Set(['Generation', 'MCP', 'Batches', 'Models']);

const toolkitStatuses: Readonly<Record<number, string>> = {
  400: 'The toolkit refused the request (INVALID_REQUEST)',
  403: 'A tool needs the user to confirm it first',
  404: 'No such MCP server or model',
  422: 'A tool failed',
  429: 'The provider is rate-limiting or out of quota (Retry-After)',
  502: 'The provider failed or refused our credentials',
  503: 'The provider is not configured on this service',
  504: 'The provider timed out',
};

/** What one route is, as the rules read it. */
interface RouteFacts {
  readonly wire: ErrorWire;
  readonly auth: NonNullable<FastifyContextConfig['auth']>;
  readonly readsBody: boolean;
  readonly hasBodySchema: boolean;
  readonly hasParams: boolean;
  readonly hasQuery: boolean;
  readonly keyLimited: boolean;
  readonly callsToolkit: boolean;
  /** A decision can fail in the decider envelope here though the route's own errors are generic (POST /routing/hybrid). */
  readonly decides: boolean;
  /** The route takes only some session kinds (`config.sessionKinds`): 403 TE_04 to the others. */
  readonly sessionKinds: boolean;
  /** An 'Account' route (password change): its own 401/403 come in the TE_04 envelope (api/routes/auth-password.ts). */
  readonly account: boolean;
  /** A 'Members' route (api/routes/merchant-members.ts): its refusals in the TE_04 envelope. */
  readonly members: boolean;
  /** Body schema errors come in the JSON envelope (`config.bodyErrors: 'json'`), not as plain text. */
  readonly jsonBodyErrors: boolean;
}

function factsOf(route: RouteOptions, schema: FastifySchema): RouteFacts {
  const config: FastifyContextConfig = route.config ?? {};
  const methods = [route.method].flat().map((method) => method.toUpperCase());
  const tags = (schema as { tags?: readonly string[] }).tags ?? [];
  const wire: ErrorWire =
    config.envelope === 'anthropic' || config.envelope === 'jsonrpc'
      ? config.envelope
      : route.url.startsWith('/v1/')
        ? 'openai'
        : config.envelope === 'decider'
          ? 'decider'
          : 'generic';
  return {
    wire,
    auth: config.auth ?? 'either',
    readsBody: methods.some((method) => method === 'POST' || method === 'PUT' || method === 'PATCH'),
    hasBodySchema: schema.body !== undefined,
    hasParams: schema.params !== undefined || route.url.includes('/:'),
    hasQuery: schema.querystring !== undefined,
    keyLimited: config.keyLimits !== undefined,
    callsToolkit: wire === 'openai' || wire === 'anthropic' || tags.some((tag) => toolkitTags.has(tag)),
    decides: tags.includes('Gateway Decision'),
    sessionKinds: config.sessionKinds !== undefined,
    account: tags.includes('Account'),
    members: tags.includes('Members'),
    jsonBodyErrors: config.bodyErrors === 'json',
  };
}

/** Collects, per status, the descriptions and media types a route can answer with. */
class Answers {
  private readonly byStatus = new Map<number, { descriptions: string[]; json: Set<string>; text: boolean }>();

  add(status: number, description: string, body: { readonly json?: string; readonly text?: true }): void {
    const entry = this.byStatus.get(status) ?? { descriptions: [], json: new Set<string>(), text: false };
    if (!entry.descriptions.includes(description)) entry.descriptions.push(description);
    if (body.json !== undefined) entry.json.add(body.json);
    if (body.text === true) entry.text = true;
    this.byStatus.set(status, entry);
  }

  responses(): Record<string, DocumentedResponse> {
    const out: Record<string, DocumentedResponse> = {};
    for (const [status, entry] of [...this.byStatus].sort(([a], [b]) => a - b)) {
      out[String(status)] = {
        description: entry.descriptions.join('; '),
        content: { ...(entry.json.size > 0 ? jsonOf([...entry.json]) : {}), ...(entry.text ? plainText : {}) },
      };
    }
    return out;
  }
}

/** What an LLM wire's error answers say, status by status: its own body schema and error types. */
interface LlmWireAnswers {
  readonly schema: 'OpenAiError' | 'AnthropicError';
  readonly invalid: string;
  readonly unauthenticated: string;
  readonly forbidden: string;
  readonly notFound: string;
  readonly tooLarge: string;
  readonly notJson: string;
  readonly limited: string;
  readonly internal: string;
  readonly upstream: Readonly<Record<502 | 503 | 504, string>>;
}

const openAiWire: LlmWireAnswers = {
  schema: 'OpenAiError',
  invalid: 'Invalid request (schema, unsupported parameter, body not JSON)',
  unauthenticated: 'Missing or invalid API key',
  forbidden: "Not this credential's merchant",
  notFound: 'No such model or route group',
  tooLarge: 'Body too large',
  notJson: 'Body not sent as application/json',
  limited: 'A key limit or the provider refused the request (Retry-After)',
  internal: 'Internal error',
  upstream: {
    502: toolkitStatuses[502] ?? 'Provider failure',
    503: toolkitStatuses[503] ?? 'Provider failure',
    504: toolkitStatuses[504] ?? 'Provider failure',
  },
};

/** Anthropic's wire (`/v1/messages*`): its error types follow the statuses (api/wire/anthropic-error.ts). */
const anthropicWire: LlmWireAnswers = {
  schema: 'AnthropicError',
  invalid: 'invalid_request_error: invalid request (schema, unsupported block or tool, body not JSON)',
  unauthenticated: 'authentication_error: missing or invalid API key (x-api-key or Authorization: Bearer)',
  forbidden: "permission_error: not this credential's merchant",
  notFound: 'not_found_error: no such model, alias or route group',
  tooLarge: 'request_too_large: body too large',
  notJson: 'invalid_request_error: body not sent as application/json',
  limited: 'rate_limit_error: a key limit (x-should-retry: false) or the provider refused the request (Retry-After)',
  internal: 'api_error: internal error',
  upstream: {
    502: 'api_error: the provider failed',
    503: 'overloaded_error: the provider is not configured, or the service is unavailable',
    504: 'timeout_error: the provider timed out',
  },
};

/** The answers of a route on an LLM wire (`/v1/*`): the same statuses on every wire, each in its own words and body. */
function llmWireAnswers(facts: RouteFacts, answers: Answers, wire: LlmWireAnswers): void {
  const json = { json: wire.schema } as const;
  answers.add(400, wire.invalid, json);
  if (facts.auth !== 'none') {
    answers.add(401, wire.unauthenticated, json);
    answers.add(403, wire.forbidden, json);
  }
  answers.add(404, wire.notFound, json);
  if (facts.readsBody) {
    answers.add(413, wire.tooLarge, json);
    answers.add(415, wire.notJson, json);
  }
  answers.add(429, wire.limited, json);
  answers.add(500, wire.internal, json);
  for (const status of [502, 503, 504] as const) answers.add(status, wire.upstream[status], json);
}

/** The guard's answers, shared by the decider and generic wires. */
function guardAnswers(facts: RouteFacts, answers: Answers): void {
  if (facts.auth === 'either' || facts.auth === 'bearer') {
    answers.add(401, 'Missing, invalid or revoked credentials', { text: true });
    answers.add(403, "The request names another merchant than the credential's", { text: true });
  }
  if (facts.account && facts.auth === 'bearer') {
    answers.add(401, 'Wrong current password', { json: 'GenericErrorEnvelope' });
    answers.add(403, 'Not a standard session (SSO or super-admin view), or the account is inactive', { json: 'GenericErrorEnvelope' });
  }
  if (facts.members) {
    answers.add(403, "Not an admin of the session's merchant (Insufficient permissions), or a member's read-only role", {
      json: 'GenericErrorEnvelope',
      text: true,
    });
    if (facts.readsBody || facts.hasParams) answers.add(409, 'Already a member, or the merchant’s last admin', { json: 'GenericErrorEnvelope' });
  }
  if (facts.sessionKinds) {
    answers.add(403, 'Not for this session kind (SSO handoff or super-admin view), or not a rostered super-admin', { json: 'GenericErrorEnvelope' });
  }
  if (facts.auth === 'admin-secret') {
    answers.add(401, 'Missing or wrong admin secret', { json: 'GenericErrorEnvelope' });
    answers.add(429, 'Too many failed admin secret attempts (Retry-After)', { json: 'GenericErrorEnvelope' });
  }
  if (facts.auth === 'none' && facts.hasBodySchema) {
    // Sign-up and login answer the user-auth failures of api/plugins/authentication.ts (TE_04).
    for (const [status, description] of [
      [401, 'Wrong email or password, or admin secret'],
      [403, 'The account is inactive'],
      [404, 'No such merchant'],
      [409, 'The email is taken'],
      [429, 'Too many failed attempts (Retry-After)'],
    ] as const) {
      answers.add(status, description, { json: 'GenericErrorEnvelope' });
    }
  }
}

function deciderAnswers(facts: RouteFacts, answers: Answers): void {
  answers.add(400, 'Invalid request or no decision possible (error_info.code says which)', { json: 'DeciderErrorEnvelope' });
  guardAnswers(facts, answers);
  if (facts.keyLimited) answers.add(429, 'A key limit is reached (Retry-After)', { json: 'GenericErrorEnvelope' });
}

function genericAnswers(facts: RouteFacts, answers: Answers): void {
  const json = { json: 'GenericErrorEnvelope' } as const;
  if (facts.hasParams || facts.hasQuery || facts.readsBody) answers.add(400, 'Invalid request', json);
  if (facts.decides) answers.add(400, 'No decision possible (decider envelope; error_info.code says why)', { json: 'DeciderErrorEnvelope' });
  if (facts.readsBody) {
    answers.add(400, 'Body is not JSON', { text: true });
    answers.add(413, 'Body too large', json);
    answers.add(415, 'Body not sent as application/json', { text: true });
  }
  if (facts.hasBodySchema) answers.add(422, 'Body does not match its schema', facts.jsonBodyErrors ? json : { text: true });
  guardAnswers(facts, answers);
  if (facts.hasParams || facts.readsBody) answers.add(404, 'The resource named is not found', json);
  if (facts.keyLimited) answers.add(429, 'A key limit is reached (Retry-After)', json);
  if (facts.callsToolkit) {
    for (const [status, description] of Object.entries(toolkitStatuses)) answers.add(Number(status), description, { json: 'GenerationError' });
  }
}

/** The MCP gateway's answers (`config.envelope: 'jsonrpc'`): every one a JSON-RPC error with a null id. */
function jsonRpcAnswers(facts: RouteFacts, answers: Answers): void {
  const json = { json: 'JsonRpcError' } as const;
  answers.add(400, 'No mcp-session-id on a request that is not initialize, a body that is not JSON-RPC, or an unsupported MCP-Protocol-Version', json);
  answers.add(401, 'Missing, invalid or revoked credentials (WWW-Authenticate: Bearer)', json);
  answers.add(403, "The request names another merchant than the credential's, or a member (read-only) session writes", json);
  answers.add(404, "Unknown, expired or ended session, or another credential's (code -32001): start a new session with initialize", json);
  answers.add(406, 'Accept does not list both application/json and text/event-stream (text/event-stream for GET)', json);
  if (facts.readsBody) {
    answers.add(413, 'Body too large', json);
    answers.add(415, 'Body not sent as application/json', json);
  }
  if (facts.keyLimited) answers.add(429, 'A key limit is reached (Retry-After)', json);
  answers.add(500, 'Internal error', json);
  answers.add(503, 'A store, the event bus or the service is unavailable (shutting down)', json);
}

/** Every error answer of one route, by status. */
export function errorResponsesOf(route: RouteOptions, schema: FastifySchema): Record<string, DocumentedResponse> {
  const facts = factsOf(route, schema);
  const answers = new Answers();
  if (facts.wire === 'openai') llmWireAnswers(facts, answers, openAiWire);
  else if (facts.wire === 'anthropic') llmWireAnswers(facts, answers, anthropicWire);
  else if (facts.wire === 'decider') deciderAnswers(facts, answers);
  else if (facts.wire === 'jsonrpc') jsonRpcAnswers(facts, answers);
  else genericAnswers(facts, answers);
  if (facts.hasParams) answers.add(414, 'A path parameter is longer than the router accepts', { json: 'GenericErrorEnvelope' });
  if (facts.wire !== 'openai' && facts.wire !== 'anthropic' && facts.wire !== 'jsonrpc') {
    answers.add(500, 'Internal error', { json: 'GenericErrorEnvelope' });
    answers.add(503, 'A store, the event bus or the service is unavailable (shutting down)', { json: 'GenericErrorEnvelope' });
  }
  return answers.responses();
}

/**
 * @fastify/swagger `transform`: the route's own schema plus its error answers. A status the route
 * documents itself is kept as it is; a route with no success answer keeps the default 200.
 */
export function documentErrorResponses({ schema, route, url }: { schema: FastifySchema; route: RouteOptions; url: string }): {
  schema: FastifySchema;
  url: string;
} {
  if (schema === undefined || (schema as { hide?: boolean }).hide === true) return { schema, url };
  const own = (schema.response ?? { 200: { description: 'Default Response', type: 'null' } }) as Record<string, unknown>;
  return { schema: { ...schema, response: { ...errorResponsesOf(route, schema), ...own } }, url };
}

/** The operation extension a route's schema sets when its body may be left out (`{}` is assumed). */
export const optionalBodyExtension = 'x-body-optional';

/**
 * @fastify/swagger `transformObject`: @fastify/swagger marks every request body required; an
 * operation whose route says its body may be left out (`'x-body-optional': true` in its schema)
 * gets `requestBody.required: false`, and the marker is not published.
 */
export function markOptionalBodies(document: { openapiObject: object } | { swaggerObject: object }): object {
  if (!('openapiObject' in document)) return document.swaggerObject;
  const { openapiObject } = document;
  const paths = ((openapiObject as { paths?: unknown }).paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const operations of Object.values(paths))
    for (const operation of Object.values(operations)) {
      if (operation[optionalBodyExtension] !== true) continue;
      delete operation[optionalBodyExtension];
      const body = operation['requestBody'] as { required?: boolean } | undefined;
      if (body !== undefined) body.required = false;
    }
  return openapiObject;
}
