import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MerchantSource, RouteTableEntry } from '../../api/plugins/authentication.js';
import { legacyDecisionBody } from './legacy-decision-body.js';
import { adminSecret, createMerchant, createTestApp, decideBody, logIn, signUp, testPassword, withKey, withToken, type TestApp } from './test-app.js';

/*
 * The guard matrix, generated from the app's own route table: every route that is not public is
 * called without a credential, with a bad token, a revoked token, a revoked key, a credential of
 * another merchant, and the right credential. A new route fails this file until it declares its
 * guard (`config.auth`, `config.merchantFrom`) and gets a fixture below.
 *
 * One credential rule for every route family (issue 26): a route that takes API keys takes them as
 * `x-api-key` and as `Authorization: Bearer DE_…` alike, so every key case below runs in both forms;
 * a session-only route refuses a key in either form.
 */

/** The two ways an API key may be sent, each checked on every guarded route. */
const keyForms = {
  'x-api-key': (apiKey: string) => withKey(apiKey),
  'Bearer DE_…': (apiKey: string) => ({ authorization: `Bearer ${apiKey}` }),
} as const;

/** A well-formed request for a route, naming `merchantId` where the handler reads it. */
interface GuardFixture {
  readonly body?: (merchantId: string) => Record<string, unknown>;
  /** Path parameters other than the merchant's. */
  readonly params?: Readonly<Record<string, string>>;
  /** Query parameters the route requires (validated before the guard's merchant check). */
  readonly query?: Readonly<Record<string, string>>;
  /** For 'resource' routes: creates the resource under `merchantId`, returns the path parameters naming it. */
  readonly resource?: (t: TestApp, merchantApiKey: string, merchantId: string) => Promise<Record<string, string>>;
  /** The right session for the route when a login's is not (super-admin routes); default: a login of `email`. */
  readonly session?: (t: TestApp, email: string) => Promise<string>;
  /** Only a rostered super-admin passes (SUPER_ADMIN_EMAILS = owner@example.com here): a member gets 403. */
  readonly superAdminOnly?: true;
}

/** A super-admin view session of `email` (rostered) inside merchant "mb". */
async function viewSession(t: TestApp, email: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/auth/super-admin/enter-merchant',
    headers: withToken(await logIn(t.app, email)),
    payload: { merchant_id: 'mb' },
  });
  if (response.statusCode !== 200) throw new Error(`enter-merchant failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { token: string }).token;
}

/** An admin SSO (hs_redirect) session of merchant "mb". */
async function ssoSession(t: TestApp): Promise<string> {
  const minted = await t.app.inject({
    method: 'POST',
    url: '/auth/admin/merchant-token',
    headers: { 'x-admin-secret': adminSecret },
    payload: { merchant_id: 'mb' },
  });
  const exchanged = await t.app.inject({
    method: 'POST',
    url: '/auth/admin/merchant-token/exchange',
    payload: { code: (minted.json() as { code: string }).code },
  });
  if (exchanged.statusCode !== 200) throw new Error(`sso exchange failed: ${exchanged.statusCode} ${exchanged.body}`);
  return (exchanged.json() as { token: string }).token;
}

const successRate = { type: 'successRate', data: { defaultBucketSize: 10 } };

/** A batch of the key's merchant (its jobs wait in the test app's queue: no worker runs). */
async function submitBatch(t: TestApp, apiKey: string): Promise<Record<string, string>> {
  const response = await t.app.inject({ method: 'POST', url: '/api/batches', headers: withKey(apiKey), payload: { prompts: ['guard prompt'] } });
  if (response.statusCode !== 202) throw new Error(`batch submit failed: ${response.statusCode} ${response.body}`);
  return { batchId: (response.json() as { batchId: string }).batchId };
}

/** One entry per protected route, keyed `METHOD url` as fastify registers it. */
const fixtures: Readonly<Record<string, GuardFixture>> = {
  'POST /decide-gateway': { body: (m) => decideBody(m, 'guard-p1') },
  // Takes two body shapes with the merchant in different places; the handler checks it (legacy body here).
  'POST /decision_gateway': { resource: async () => ({}), body: (m) => legacyDecisionBody(m, 'guard-p1') },
  'POST /update-gateway-score': { body: (m) => ({ merchantId: m, gateway: 'stripe', paymentId: 'guard-p1', status: 'CHARGED' }) },
  'POST /gateway-score/reset': { body: (m) => ({ merchant_id: m }) },
  'GET /gsm/options': {},
  'GET /merchant-account/:merchantId/gsm-rules': {},
  'PUT /merchant-account/:merchantId/gsm-rules': { body: () => ({ rules: [] }) },
  'DELETE /merchant-account/:merchantId/gsm-rules': {},
  'POST /update-score': { body: (m) => ({ txn_detail: { merchantId: m, gateway: 'stripe', status: 'CHARGED', txnUuid: 'guard-p1' }, txn_card_info: {} }) },
  'POST /rule/create': { body: (m) => ({ merchant_id: m, config: successRate }) },
  'POST /rule/update': { body: (m) => ({ merchant_id: m, config: successRate }) },
  'POST /rule/get': { body: (m) => ({ merchant_id: m, algorithm: 'successRate' }) },
  'POST /rule/delete': { body: (m) => ({ merchant_id: m, algorithm: 'successRate' }) },
  'POST /config-sr-dimension': { body: (m) => ({ merchant_id: m, paymentInfo: { udfs: [], fields: ['currency'] } }) },
  'GET /config-sr-dimension/:merchant_id': {},
  'GET /merchant-account/:merchantId': {},
  'DELETE /merchant-account/:merchantId': {},
  'GET /merchant-account/:merchantId/debit-routing': {},
  'POST /merchant-account/:merchantId/debit-routing': { body: () => ({ enabled: true }) },
  'GET /merchant-account/:merchantId/gateways': {},
  'POST /merchant-account/:merchantId/gateways': { body: () => ({ gateway: 'stripe', currencies: ['USD'] }) },
  'DELETE /merchant-account/:merchantId/gateways/:gateway': { params: { gateway: 'stripe' } },
  'GET /merchant-account/:merchantId/features': {},
  'GET /merchant-account/:merchantId/autopilot/runs': {},
  'POST /volume-commitment/run-forecast': { query: { merchant_id: 'mb' } },
  'GET /merchant-account/:merchantId/volume-commitment': {},
  'GET /merchant-account/:merchantId/volume-commitment/dashboard': {},
  'GET /merchant-account/:merchantId/volume-commitment/projection': {},
  'GET /merchant-account/:merchantId/volume-commitment/impact': {},
  'GET /merchant-account/:merchantId/volume-commitment/samples': {},
  'POST /merchant-account/:merchantId/features/:feature': { params: { feature: 'autopilot' }, body: () => ({ enabled: true }) },
  'GET /merchant-account/:merchantId/seed-costs': {},
  'PUT /merchant-account/:merchantId/seed-costs': {
    body: () => ({ rows: [{ psp: 'stripe', interchange_bps: 290, scheme_bps: 0, markup_bps: 0, fixed: 0.3, is_default: true }] }),
  },
  'DELETE /merchant-account/:merchantId/seed-costs': {},
  'POST /merchant-account/:merchantId/seed-costs/simulate': { body: () => ({ amount: 100 }) },
  'GET /merchant-account/:merchantId/reporting-currency': {},
  'PUT /merchant-account/:merchantId/reporting-currency': { body: () => ({ currency: 'USD', rates: [{ currency: 'EUR', rate: 1.08, as_of: '2026-11-27' }] }) },
  'DELETE /merchant-account/:merchantId/reporting-currency': {},
  'GET /cost-ingestion/connectors': {},
  'POST /merchant-account/:merchantId/connectors/:connector/report': { params: { connector: 'adyen' }, query: { account: 'guard-account' } },
  'GET /merchant-account/:merchantId/cost-ingestions': {},
  'DELETE /merchant-account/:merchantId/cost-ingestions/:ingestionId': { params: { ingestionId: 'ing_guard' } },
  'GET /merchant-account/:merchantId/connectors/:connector/report/column-mapping': { params: { connector: 'adyen' }, query: { account: 'guard-account' } },
  'PUT /merchant-account/:merchantId/connectors/:connector/report/column-mapping': {
    params: { connector: 'adyen' },
    query: { account: 'guard-account' },
    body: () => ({ columns: { payable: 'Net Amount' } }),
  },
  'DELETE /merchant-account/:merchantId/connectors/:connector/report/column-mapping': { params: { connector: 'adyen' }, query: { account: 'guard-account' } },
  'GET /merchant-account/:merchantId/cost-coverage': {},
  'GET /merchant-account/:merchantId/cost-clusters': {},
  'GET /merchant-account/:merchantId/connector-fees': {},
  'PUT /merchant-account/:merchantId/connectors/:connector/fee-override': { params: { connector: 'adyen' }, body: () => ({ pct_bps: 175, fixed: 0.1 }) },
  'DELETE /merchant-account/:merchantId/connectors/:connector/fee-override': { params: { connector: 'adyen' } },
  'POST /auth/logout': {},
  'GET /auth/me': {},
  'GET /auth/merchants': {},
  'POST /auth/switch-merchant': { body: (m) => ({ merchant_id: m }) },
  'POST /onboarding/merchant': { body: () => ({ merchant_name: 'Guard Shop' }) },
  // The same password again: the route answers 200 and the owner's password stays testPassword.
  'POST /auth/change-password': { body: () => ({ current_password: testPassword, new_password: testPassword }) },
  'POST /auth/super-admin/enter-merchant': { body: (m) => ({ merchant_id: m }), superAdminOnly: true },
  'POST /auth/super-admin/lookup': { body: (m) => ({ query: m }), superAdminOnly: true },
  'POST /auth/super-admin/exit': { session: viewSession, superAdminOnly: true },
  'GET /merchant/members': {},
  'POST /merchant/members/invite': { body: () => ({ email: 'guard-invitee@example.com', role: 'member' }) },
  'DELETE /merchant/members/:user_id': { params: { user_id: 'user_guard' } },
  'POST /api-key/create': { body: (m) => ({ merchant_id: m, description: 'guard' }) },
  'GET /api-key/list/:merchant_id': {},
  'GET /api-key/defaults/:merchant_id': {},
  'PUT /api-key/defaults/:merchant_id': { body: () => ({ limits: { rpm: 100 } }) },
  'POST /api-key/:key_id/limits': {
    body: () => ({ limits: { rpm: 100 } }),
    resource: async (t, apiKey, merchantId) => {
      const response = await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withKey(apiKey), payload: { merchant_id: merchantId } });
      return { key_id: (response.json() as { key_id: string }).key_id };
    },
  },
  'DELETE /api-key/:key_id': {
    resource: async (t, apiKey, merchantId) => {
      const response = await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withKey(apiKey), payload: { merchant_id: merchantId } });
      return { key_id: (response.json() as { key_id: string }).key_id };
    },
  },
  'POST /routing/create': {
    body: (m) => ({ name: 'guard', created_by: m, algorithm: { type: 'single', data: { gateway_name: 'stripe', gateway_id: null } } }),
  },
  'POST /routing/activate': { body: (m) => ({ created_by: m, routing_algorithm_id: 'routing_guard' }) },
  'POST /routing/deactivate': { body: (m) => ({ created_by: m, routing_algorithm_id: 'routing_guard' }) },
  'POST /routing/update': { body: (m) => ({ created_by: m, routing_algorithm_id: 'routing_guard', name: 'guard' }) },
  'POST /routing/delete': { body: (m) => ({ created_by: m, routing_algorithm_id: 'routing_guard' }) },
  'POST /routing/list/:created_by': {},
  'POST /routing/list/active/:created_by': {},
  'POST /routing/evaluate': { body: (m) => ({ created_by: m, parameters: {} }) },
  'POST /routing/evaluate/batch': { body: (m) => ({ created_by: m, requests: [] }) },
  'POST /routing/hybrid': {
    // Names the merchant twice (static created_by, dynamic merchantId); the handler checks both.
    resource: async () => ({}),
    body: (m) => ({ static_routing_request: { created_by: m, parameters: {} }, dynamic_routing_request: decideBody(m, 'guard-p1') }),
  },
  'GET /config/routing-keys': {},
  'GET /analytics': {},
  'GET /analytics/overview': {},
  'GET /analytics/decisions': {},
  'GET /analytics/gateway-scores': {},
  'GET /analytics/log-summaries': {},
  'GET /analytics/payment-audit': {},
  'GET /analytics/preview-trace': {},
  'GET /analytics/routing-stats': {},
  'POST /api/batches': { body: () => ({ prompts: ['guard prompt'] }) },
  'POST /api/generate': { body: () => ({ input: { text: 'guard prompt' }, disableTools: true }) },
  'POST /api/stream': { body: () => ({ input: { text: 'guard prompt' }, disableTools: true }) },
  'GET /api/status': {},
  'GET /api/mcp/tools': {},
  'POST /api/mcp/execute': { body: () => ({ serverName: 'guard-server', toolName: 'echo', params: {} }) },
  'GET /api/mcp/status': {},
  'GET /api/mcp/servers': {},
  'GET /api/mcp/gateway-tools': {},
  // A reserved (non-public) address: the right credential gets the SSRF guard's 400, nothing is connected.
  'POST /api/mcp/servers': { body: () => ({ name: 'guard-server', url: 'http://192.0.2.1/mcp' }) },
  'DELETE /api/mcp/servers/:name': { params: { name: 'guard-server' } },
  // The MCP gateway: without a session these are the transport's 400s (nothing is opened).
  'POST /mcp': { body: () => ({ jsonrpc: '2.0', id: 1, method: 'ping' }) },
  'GET /mcp': {},
  'DELETE /mcp': {},
  'GET /models': {},
  'GET /models/search': {},
  'GET /models/provider/:provider': { params: { provider: 'openai' } },
  'GET /models/resolve/:alias': { params: { alias: 'gpt-4o' } },
  'GET /v1/models': {},
  'GET /guardrails': {},
  'PUT /guardrails': { body: () => ({ settings: { email: { action: 'mask' } } }) },
  'DELETE /guardrails': {},
  'GET /v1/route-groups': {},
  'PUT /v1/route-groups/:name': { params: { name: 'guard-group' }, body: () => ({ candidates: [{ provider: 'openai', model: 'gpt-4o-mini' }] }) },
  'GET /v1/route-groups/:name': { params: { name: 'guard-group' } },
  'DELETE /v1/route-groups/:name': { params: { name: 'guard-group' } },
  'POST /v1/chat/completions': { body: () => ({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'guard' }] }) },
  'POST /v1/embeddings': { body: () => ({ model: 'openai/text-embedding-3-small', input: 'guard' }) },
  'POST /v1/messages': { body: () => ({ model: 'openai/gpt-4o-mini', max_tokens: 8, messages: [{ role: 'user', content: 'guard' }] }) },
  'POST /v1/messages/count_tokens': { body: () => ({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'guard' }] }) },
  'POST /v1/responses': { body: () => ({ model: 'openai/gpt-4o-mini', input: 'guard' }) },
  'GET /v1/responses/:id': { params: { id: 'resp_guard' } },
  'DELETE /v1/responses/:id': { params: { id: 'resp_guard' } },
  'GET /v1/responses/:id/input_items': { params: { id: 'resp_guard' } },
  'GET /provider-credentials': {},
  'PUT /provider-credentials': { body: () => ({ operator_fallback: true }) },
  'PUT /provider-credentials/:provider': { params: { provider: 'mistral' }, body: () => ({ variables: { MISTRAL_API_KEY: 'guard-mistral-key-0000' } }) },
  'DELETE /provider-credentials/:provider': { params: { provider: 'mistral' } },
  'POST /provider-credentials/rotate': {},
  // A JSON body where a multipart form belongs: the right credential gets the upload's 400.
  'POST /v1/files': { body: () => ({ purpose: 'batch' }) },
  'GET /v1/files': {},
  'GET /v1/files/:fileId': { params: { fileId: 'file-guard' } },
  'GET /v1/files/:fileId/content': { params: { fileId: 'file-guard' } },
  'DELETE /v1/files/:fileId': { params: { fileId: 'file-guard' } },
  'POST /v1/batches': { body: () => ({ input_file_id: 'file-guard', endpoint: '/v1/chat/completions', completion_window: '24h' }) },
  'GET /v1/batches': {},
  'GET /v1/batches/:batchId': { params: { batchId: 'batch_guard' } },
  'POST /v1/batches/:batchId/cancel': { params: { batchId: 'batch_guard' } },
  'GET /analytics/llm/overview': {},
  'GET /analytics/llm/usage': {},
  'GET /analytics/llm/latency': {},
  'GET /analytics/llm/errors': {},
  'GET /analytics/llm/route-groups': {},
  'GET /analytics/llm/prompt-cache': {},
  'GET /analytics/llm/end-users': {},
  'GET /analytics/llm/guards': {},
  'GET /analytics/cost-savings': {},
  'GET /analytics/routing-events': {},
  'POST /analytics/counterfactual': { body: (m) => ({ merchant_id: m }) },
  'GET /analytics/experiment/:experiment_id/results': { params: { experiment_id: 'routing_guard_experiment' } },
  'GET /analytics/experiment/:experiment_id/transactions': { params: { experiment_id: 'routing_guard_experiment' } },
  'GET /api/batches/:batchId': { resource: (t, apiKey) => submitBatch(t, apiKey) },
  'GET /api/batches/:batchId/results': { resource: (t, apiKey) => submitBatch(t, apiKey) },
  'POST /api/batches/:batchId/cancel': { resource: (t, apiKey) => submitBatch(t, apiKey) },
};

/** The only routes allowed to skip the guard; anything else declared 'none' or 'admin-secret' fails. */
const publicRoutes = [
  'GET /health',
  'GET /health/ready',
  'GET /health/diagnostics',
  'GET /openapi.json',
  'GET /metrics',
  'POST /auth/signup',
  'POST /auth/login',
  'POST /auth/forgot-password',
  'POST /auth/reset-password',
  'GET /auth/verify-email',
  'POST /auth/admin/merchant-token/exchange',
  'GET /dashboard',
  'GET /dashboard/*',
];
const adminSecretRoutes = ['POST /auth/admin/merchant-token', 'POST /merchant-account/create'];

/**
 * Merchant routes ('either') that take a body or a POST but change nothing: the only non-GET
 * routes a member (read-only) session may call. Anything else that is not a GET needs an admin.
 */
const memberReadableWrites = [
  'POST /rule/get',
  'POST /routing/list/:created_by',
  'POST /routing/list/active/:created_by',
  'POST /routing/evaluate',
  'POST /routing/evaluate/batch',
  'POST /analytics/counterfactual',
  'POST /merchant-account/:merchantId/seed-costs/simulate',
  'POST /v1/messages/count_tokens',
];

const keyOf = (route: RouteTableEntry) => `${route.method} ${route.url}`;

// The route table of a real app, read once to generate the tests below.
const probe = await createTestApp();
await probe.app.ready();
const allRoutes = [...probe.app.routeTable];
await probe.close();

/** fastify adds a HEAD twin (same config) for every GET; the GET stands for both. */
const routes = allRoutes.filter((route) => route.method !== 'HEAD' || !allRoutes.some((other) => other.method === 'GET' && other.url === route.url));
const guarded = routes.filter((route) => route.auth !== 'none' && route.auth !== 'admin-secret');

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const step of path) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[step] : undefined;
  return node;
}

/** Builds the request for `route` naming merchant `target`, with its merchant where `merchantFrom` says. */
async function requestFor(t: TestApp, route: RouteTableEntry, targetKey: string, target: string): Promise<InjectOptions> {
  const fixture = fixtures[keyOf(route)] ?? {};
  const from = route.merchantFrom as MerchantSource;
  const params: Record<string, string> = from === 'resource' ? await fixture.resource!(t, targetKey, target) : { ...fixture.params };
  if (typeof from === 'object' && 'params' in from) params[from.params] = target;
  const url = route.url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`fixture for ${keyOf(route)} gives no value for :${name}`);
    return encodeURIComponent(value);
  });
  const query = {
    ...fixture.query,
    ...(typeof from === 'object' && 'query' in from ? { [from.query]: target } : from === 'credential' ? { merchant_id: target } : {}),
  };
  const payload = fixture.body?.(target);
  if (typeof from === 'object' && 'body' in from) {
    // The declaration and the handler's body shape must agree, or the guard checks a field nobody reads.
    expect(valueAt(payload, from.body), `${keyOf(route)}: merchantFrom ${from.body.join('.')} is not where the fixture names the merchant`).toBe(target);
  }
  return { method: route.method as InjectOptions['method'], url, query, ...(payload === undefined ? {} : { payload }) };
}

/** The route table itself: every route declares its guard, merchant source and fixture. */
export function describeGuardTable(): void {
  describe('the guard route table', () => {
    it('has every route declare its guard', () => {
      expect(routes.filter((route) => route.auth === undefined).map(keyOf)).toEqual([]);
    });

    it('leaves only the known public and admin-secret routes unguarded', () => {
      const unguarded = routes.filter((route) => (route.auth === 'none' || route.auth === 'admin-secret') && !route.url.startsWith('/docs'));
      expect(
        unguarded
          .filter((route) => route.auth === 'none')
          .map(keyOf)
          .sort(),
      ).toEqual([...publicRoutes].sort());
      expect(unguarded.filter((route) => route.auth === 'admin-secret').map(keyOf)).toEqual(adminSecretRoutes);
    });

    it('has every guarded route declare where it names its merchant', () => {
      expect(guarded.filter((route) => route.merchantFrom === undefined).map(keyOf)).toEqual([]);
    });

    it('has a guard fixture for every guarded route', () => {
      expect(guarded.filter((route) => fixtures[keyOf(route)] === undefined).map((route) => `${keyOf(route)} has no fixture in guard-matrix.test.ts`)).toEqual(
        [],
      );
    });

    it('has a member (read-only) session read every GET and change nothing else on a merchant route', () => {
      const either = guarded.filter((route) => route.auth === 'either');
      expect(either.filter((route) => route.method === 'GET' && route.minRole !== 'member').map(keyOf)).toEqual([]);
      expect(
        either
          .filter((route) => route.method !== 'GET' && route.minRole === 'member')
          .map(keyOf)
          .sort(),
      ).toEqual([...memberReadableWrites].sort());
    });

    it('covers the routes of every protected area', () => {
      const urls = guarded.map((route) => route.url);
      for (const url of [
        '/decide-gateway',
        '/update-gateway-score',
        '/merchant-account/:merchantId',
        '/rule/create',
        '/config-sr-dimension',
        '/api-key/create',
        '/auth/me',
      ]) {
        expect(urls).toContain(url);
      }
    });
  });
}

/**
 * The refusal text of a guarded route: decision-engine's plain text, or, on the OpenAI-compatible
 * gateway (/v1/*) and the MCP gateway (/mcp, a JSON-RPC error), the same text inside `{error: {message}}`
 * so their clients raise their own errors.
 */
function expectRefusal(route: RouteTableEntry, response: { body: string; json(): unknown }, text: string): void {
  if (!route.url.startsWith('/v1/') && route.url !== '/mcp') {
    expect(response.body).toBe(text);
    return;
  }
  expect((response.json() as { error: { message: string } }).error.message).toContain(text);
}

/** How many guard-matrix-routes-<n>.test.ts files there are; each takes shard n − 1. */
export const guardShards = 6;

/**
 * The per-route cases of the routes whose index in the table is `shard` modulo `shards`: the matrix
 * builds an app per route, so one file for all of them was the longest file of the run by far (38 min
 * of a 65-min parallel run on a loaded machine); guard-matrix-routes-<n>.test.ts each take one shard and
 * run side by side.
 */
export function describeRouteGuards(shard: number, shards: number): void {
  if (shards !== guardShards) throw new Error(`the guard matrix has ${guardShards} shard files, asked for ${shards}`);
  const mine = guarded.filter((_route, index) => index % shards === shard);
  // A shard with no route would be a file that tests nothing.
  if (mine.length === 0) throw new Error(`guard matrix shard ${shard} of ${shards} has no route (${guarded.length} guarded routes)`);
  for (const route of mine) {
    describe(`guard of ${keyOf(route)}`, () => {
      let t: TestApp;
      /** Merchant "ma" is the intruder, "mb" the merchant every request names. */
      let intruderKey: string;
      let ownerKey: string;

      beforeAll(async () => {
        t = await createTestApp({ env: { SUPER_ADMIN_EMAILS: 'owner@example.com' } });
        intruderKey = (await createMerchant(t.app, 'ma')).apiKey;
        ownerKey = (await createMerchant(t.app, 'mb')).apiKey;
        await signUp(t.app, 'intruder@example.com', 'ma');
        await signUp(t.app, 'owner@example.com', 'mb');
      });
      afterAll(async () => t.close());

      const acceptsKeys = route.auth !== 'bearer';
      const call = async (headers: Record<string, string>) => t.app.inject({ ...(await requestFor(t, route, ownerKey, 'mb')), headers });

      it('answers 401 Missing authentication credentials without a credential', async () => {
        const response = await call({});
        expect(response.statusCode).toBe(401);
        expectRefusal(route, response, 'Missing authentication credentials');
      });

      it('answers 401 Invalid or expired token for a bad token', async () => {
        const response = await call({ authorization: 'Bearer not.a.token' });
        expect(response.statusCode).toBe(401);
        expectRefusal(route, response, 'Invalid or expired token');
      });

      it('answers 401 Invalid or expired token for a revoked token', async () => {
        const token = await logIn(t.app, 'owner@example.com');
        expect((await t.app.inject({ method: 'POST', url: '/auth/logout', headers: withToken(token) })).statusCode).toBe(200);
        const response = await call(withToken(token));
        if (keyOf(route) === 'POST /auth/logout') {
          // Logout alone is idempotent for the same token (decision-engine skips its denylist there).
          expect(response.statusCode).toBe(200);
          return;
        }
        expect(response.statusCode).toBe(401);
        expectRefusal(route, response, 'Invalid or expired token');
      });

      it('answers 401 for a revoked API key', async () => {
        const created = (await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withKey(ownerKey), payload: { merchant_id: 'mb' } })).json() as {
          key_id: string;
          api_key: string;
        };
        expect((await t.app.inject({ method: 'DELETE', url: `/api-key/${created.key_id}`, headers: withKey(ownerKey) })).statusCode).toBe(200);
        for (const [form, headers] of Object.entries(keyForms)) {
          const response = await call(headers(created.api_key));
          expect(response.statusCode, form).toBe(401);
          // A session-only route reads no x-api-key, and a `Bearer DE_…` there is a token that is not one.
          const refusal = acceptsKeys ? 'API key is revoked' : form === 'x-api-key' ? 'Missing authentication credentials' : 'Invalid or expired token';
          expectRefusal(route, response, refusal);
        }
      });

      // Only on session-only routes: a route that takes keys lets a valid one through in both forms
      // ('lets the right credential through'), so there is no refusal to test (and no skipped case).
      if (!acceptsKeys) {
        it('refuses a valid API key in both forms (sessions only)', async () => {
          for (const [form, headers] of Object.entries(keyForms)) {
            const response = await call(headers(ownerKey));
            expect(response.statusCode, form).toBe(401);
          }
        });
      }

      // A resource looked up by id (a path parameter) that is another merchant's is an unknown id:
      // 404, naming no owner. A merchant the path, query or body names is a 403.
      const byId = route.merchantFrom === 'resource' && route.url.includes(':');
      it(byId ? "answers another merchant's credential as for an unknown id (404)" : "answers 403 to another merchant's credential", async () => {
        const keys = acceptsKeys ? Object.values(keyForms).map((headers) => headers(intruderKey)) : [];
        const credentials = [withToken(await logIn(t.app, 'intruder@example.com')), ...keys];
        for (const headers of credentials) {
          const response = await call(headers);
          if (byId) {
            expect(response.statusCode, response.body).toBe(404);
            expect(response.body).not.toContain("'mb'");
            continue;
          }
          expect(response.statusCode).toBe(403);
          expectRefusal(route, response, "Forbidden: this credential is for merchant 'ma', not 'mb'");
        }
      });

      it(route.minRole === 'admin' ? 'answers 403 to a member (read-only) session' : 'lets a member (read-only) session through', async () => {
        // A user signed up on its own (its password is the fixtures' testPassword), invited into "mb"
        // as a member by its admin: its sessions start in "mb" with role member.
        await signUp(t.app, 'member@example.com');
        const ownerToken = await logIn(t.app, 'owner@example.com');
        const invite = await t.app.inject({
          method: 'POST',
          url: '/merchant/members/invite',
          headers: withToken(ownerToken),
          payload: { email: 'member@example.com', role: 'member' },
        });
        expect(invite.statusCode, invite.body).toBe(200);
        const memberToken = (
          await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'member@example.com', password: testPassword } })
        ).json() as {
          token: string;
          role: string;
          merchant_id: string;
        };
        expect([memberToken.role, memberToken.merchant_id]).toEqual(['member', 'mb']);
        const response = await call(withToken(memberToken.token));
        if (fixtures[keyOf(route)]?.superAdminOnly === true) {
          // Not on the roster (or, for exit, not in a view session): refused whatever the role.
          expect(response.statusCode).toBe(403);
        } else if (route.minRole === 'admin') {
          expect(response.statusCode).toBe(403);
          expectRefusal(route, response, "Forbidden: role 'member' can only read merchant 'mb'; ask an admin of the merchant");
        } else {
          expect([401, 403], `${response.statusCode} ${response.body}`).not.toContain(response.statusCode);
        }
      });

      it('lets the right credential through', async () => {
        const session = fixtures[keyOf(route)]?.session ?? ((app: TestApp, email: string) => logIn(app.app, email));
        const keys = acceptsKeys ? Object.values(keyForms).map((headers) => headers(ownerKey)) : [];
        const credentials = [...keys, withToken(await session(t, 'owner@example.com'))];
        for (const headers of credentials) {
          const response = await call(headers);
          expect([401, 403], `${response.statusCode} ${response.body}`).not.toContain(response.statusCode);
        }
      });
    });
  }
}

/*
 * Session kinds (issue 25): an admin SSO (hs_redirect) session and a super-admin view session of
 * merchant "mb" on every route that names its kinds (`config.sessionKinds`): refused with 403
 * `Operation not supported for this session type` unless the route takes the kind. Every other
 * guarded route takes both (the peer gives both sessions admin's permissions in their merchant).
 */
export function describeSessionKinds(): void {
  describe('session kinds', () => {
    let t: TestApp;
    let tokens: Record<'hs_redirect' | 'super_admin_view', string>;
    beforeAll(async () => {
      t = await createTestApp({ env: { SUPER_ADMIN_EMAILS: 'owner@example.com' } });
      await createMerchant(t.app, 'ma');
      await createMerchant(t.app, 'mb');
      await signUp(t.app, 'owner@example.com', 'ma');
      tokens = { hs_redirect: await ssoSession(t), super_admin_view: await viewSession(t, 'owner@example.com') };
    }, 60_000);
    afterAll(async () => t.close());

    it('declares the account and super-admin routes with their session kinds', () => {
      const declared = Object.fromEntries(guarded.filter((route) => route.sessionKinds !== undefined).map((route) => [keyOf(route), route.sessionKinds]));
      expect(declared).toMatchObject({
        'POST /onboarding/merchant': ['standard'],
        'POST /auth/super-admin/enter-merchant': ['standard'],
        'POST /auth/super-admin/lookup': ['standard'],
        'POST /auth/super-admin/exit': ['super_admin_view'],
      });
    });

    for (const route of guarded.filter((entry) => entry.sessionKinds !== undefined)) {
      for (const kind of ['hs_redirect', 'super_admin_view'] as const) {
        if (route.sessionKinds!.includes(kind)) continue;
        it(`refuses a ${kind} session on ${keyOf(route)}`, async () => {
          const fixture = fixtures[keyOf(route)] ?? {};
          const params = fixture.params ?? {};
          const url = route.url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => encodeURIComponent(params[name] ?? 'mb'));
          const payload = fixture.body?.('mb');
          const response = await t.app.inject({
            method: route.method as InjectOptions['method'],
            url,
            headers: withToken(tokens[kind]),
            ...(payload === undefined ? {} : { payload }),
          });
          expect(response.statusCode, response.body).toBe(403);
          expect(response.json()).toEqual({ code: 'TE_04', message: 'Operation not supported for this session type', data: null });
        });
      }
    }

    it('lets both limited sessions mint an API key for their merchant (the peer allows it)', async () => {
      for (const token of Object.values(tokens)) {
        const response = await t.app.inject({ method: 'POST', url: '/api-key/create', headers: withToken(token), payload: { merchant_id: 'mb' } });
        expect(response.statusCode, response.body).toBe(200);
      }
    });
  });
}
