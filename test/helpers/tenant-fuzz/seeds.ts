import { readFileSync } from 'node:fs';
import { abTestRule } from '../ab-test-rule.js';
import { decideBody } from '../test-app.js';

/**
 * What merchant A creates before B attacks: one request per creating route of the document
 * (routing rules and an experiment, configs, API keys and their limits, a member, a batch, a cost
 * report and its settings, a route group, a stored response, a conversation, decisions with
 * feedback), with the ids its answers give harvested into pools (see `referencePools` and
 * `namespacedPools` in operations.ts). Text A stores carries `canary-a-…` markers: B must never
 * see one it did not send itself.
 */
export interface Seed {
  /** The operation, as the document names it; a seed of an operation the document lacks fails the run unless `optional`. */
  readonly op: string;
  readonly as?: 'key' | 'session';
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** A non-JSON body (the settlement report upload). */
  readonly raw?: { readonly contentType: string; readonly payload: string | Buffer };
  /** Pools filled from the answer: pool → the value(s) in it. */
  readonly harvest?: (answer: Record<string, unknown>) => Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Names A used (namespaced pools), known before the request. */
  readonly names?: Readonly<Record<string, string>>;
  /** Set once an operation exists in the document (a route another change adds). */
  readonly optional?: true;
}

export const canary = (what: string) => `canary-a-${what}`;

const report = readFileSync(new URL('../../fixtures/cost-ingestion/adyen-settlement-report.csv', import.meta.url));

const abTest = (a: string) => abTestRule(a, { name: canary('experiment'), description: canary('experiment-description') });

const idOf = (field: string) => (answer: Record<string, unknown>) => (typeof answer[field] === 'string' ? (answer[field] as string) : undefined);

/** A's seeds in order (a later seed may use an earlier one's ids through `{{pool}}` placeholders). */
export function seedsFor(a: string): Seed[] {
  return [
    {
      op: 'POST /api-key/create',
      body: { merchant_id: a, description: canary('key-description') },
      harvest: (r) => ({ key_id: idOf('key_id')(r), secret: idOf('api_key')(r) }),
    },
    { op: 'PUT /api-key/defaults/{merchant_id}', params: { merchant_id: a }, body: { limits: { rpm: 1000 } } },
    { op: 'POST /api-key/{key_id}/limits', params: { key_id: '{{key_id}}' }, body: { limits: { rpm: 500 } } },
    { op: 'POST /merchant/members/invite', as: 'session', body: { email: `${canary('member')}@example.com`, role: 'member' } },
    { op: 'GET /merchant/members', as: 'session', harvest: (r) => ({ user_id: (r as unknown as { user_id: string }[]).map((member) => member.user_id) }) },
    {
      op: 'GET /api-key/list/{merchant_id}',
      params: { merchant_id: a },
      harvest: (r) => ({ key_id: (r as unknown as { key_id: string }[]).map((key) => key.key_id) }),
    },
    {
      op: 'POST /merchant-account/{merchantId}/gateways',
      params: { merchantId: a },
      body: { gateway: 'stripe', currencies: ['USD'] },
      names: { gateway: 'stripe' },
    },
    { op: 'POST /merchant-account/{merchantId}/debit-routing', params: { merchantId: a }, body: { enabled: true } },
    {
      op: 'POST /merchant-account/{merchantId}/features/{feature}',
      params: { merchantId: a, feature: 'ab-test-real-payments' },
      body: { enabled: true },
      names: { feature: 'ab-test-real-payments' },
    },
    {
      op: 'PUT /merchant-account/{merchantId}/seed-costs',
      params: { merchantId: a },
      body: { rows: [{ psp: 'stripe', interchange_bps: 290, scheme_bps: 0, markup_bps: 0, fixed: 0.3, is_default: true }] },
    },
    { op: 'PUT /merchant-account/{merchantId}/gsm-rules', params: { merchantId: a }, body: { rules: [] } },
    {
      op: 'PUT /merchant-account/{merchantId}/reporting-currency',
      params: { merchantId: a },
      body: { currency: 'USD', rates: [{ currency: 'EUR', rate: 1.08, as_of: '2026-11-27' }] },
    },
    { op: 'POST /rule/create', body: { merchant_id: a, config: { type: 'successRate', data: { defaultBucketSize: 10 } } } },
    { op: 'POST /config-sr-dimension', body: { merchant_id: a, paymentInfo: { udfs: [], fields: ['currency'] } } },
    {
      op: 'POST /routing/create',
      body: {
        name: canary('rule'),
        description: canary('rule-description'),
        created_by: a,
        algorithm: { type: 'single', data: { gateway_name: 'stripe', gateway_id: null } },
      },
      harvest: (r) => ({ routing_algorithm_id: idOf('rule_id')(r) }),
    },
    { op: 'POST /routing/activate', body: { created_by: a, routing_algorithm_id: '{{routing_algorithm_id}}' } },
    { op: 'POST /routing/create', body: abTest(a), harvest: (r) => ({ experiment_id: idOf('rule_id')(r) }) },
    { op: 'POST /api/batches', body: { prompts: [canary('batch-prompt')] }, harvest: (r) => ({ batch_id: idOf('batchId')(r) }) },
    {
      op: 'PUT /v1/route-groups/{name}',
      params: { name: canary('group') },
      body: { candidates: [{ provider: 'openai', model: 'gpt-4o-mini' }] },
      names: { route_group: canary('group') },
    },
    {
      op: 'POST /v1/responses',
      body: { model: 'openai/gpt-4o-mini', input: canary('response-input'), store: true },
      harvest: (r) => ({ response_id: idOf('id')(r) }),
    },
    {
      op: 'POST /api/generate',
      body: { input: { text: canary('memory-text') }, disableTools: true, context: { sessionId: canary('session') } },
      names: { session_id: canary('session') },
    },
    {
      op: 'POST /merchant-account/{merchantId}/connectors/{connector}/report',
      params: { merchantId: a, connector: 'adyen' },
      query: { account: canary('account') },
      raw: { contentType: 'text/csv', payload: report },
      harvest: (r) => ({ ingestion_id: idOf('id')(r) }),
      names: { connector: 'adyen', account: canary('account') },
    },
    {
      op: 'PUT /merchant-account/{merchantId}/connectors/{connector}/report/column-mapping',
      params: { merchantId: a, connector: 'adyen' },
      query: { account: canary('account') },
      body: { columns: { payable: canary('column') } },
    },
    {
      op: 'PUT /merchant-account/{merchantId}/connectors/{connector}/fee-override',
      params: { merchantId: a, connector: 'adyen' },
      body: { pct_bps: 175, fixed: 0.1 },
    },
    { op: 'POST /decide-gateway', body: decideBody(a, canary('payment')) },
    { op: 'POST /update-gateway-score', body: { merchantId: a, gateway: 'stripe', paymentId: canary('payment'), status: 'CHARGED' } },
    {
      op: 'POST /v1/chat/completions',
      // The card number gives A a guard outcome (masked by default): /analytics/llm/guards has A's data to keep.
      body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: `${canary('chat')} card 4111 1111 1111 1111` }] },
    },
    // Merchant-registered MCP servers (issue 28's MCP part): seeded once the route exists.
    {
      op: 'POST /api/mcp/servers',
      body: { name: canary('mcp'), transport: 'http', url: 'http://127.0.0.1:9/a-mcp', description: canary('mcp-description') },
      names: { mcp_server: canary('mcp') },
      optional: true,
    },
  ];
}

/**
 * Requests A does not need to send but B should try, re-aimed like the seeds (see `reaimed` in
 * attack.ts): references to A's resources from the bodies of other operations.
 */
export function attackTemplates(a: string): { readonly op: string; readonly body: unknown }[] {
  const algorithm = { created_by: a, routing_algorithm_id: '{{routing_algorithm_id}}' };
  return [
    { op: 'POST /v1/responses', body: { model: 'openai/gpt-4o-mini', input: 'and then?', previous_response_id: '{{response_id}}' } },
    { op: 'POST /routing/update', body: { ...algorithm, name: canary('renamed') } },
    { op: 'POST /routing/deactivate', body: algorithm },
    { op: 'POST /routing/delete', body: algorithm },
    { op: 'POST /routing/evaluate', body: { ...algorithm, parameters: {} } },
    { op: 'POST /routing/hybrid', body: { static_routing_request: { ...algorithm, parameters: {} } } },
    { op: 'POST /rule/get', body: { merchant_id: a, algorithm: 'successRate' } },
    { op: 'POST /v1/chat/completions', body: { model: canary('group'), messages: [{ role: 'user', content: 'which group?' }] } },
    { op: 'POST /api/mcp/execute', body: { serverName: canary('mcp'), toolName: 'echo', params: {} } },
  ];
}
