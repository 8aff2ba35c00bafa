/**
 * Operations that may answer 2xx to merchant B even on a request naming merchant A (the tenant
 * fuzz's `names-a` requests, which add `merchant_id=A` to the query where the operation has no
 * merchant slot): they serve no merchant's data. Each entry says why. Every entry must be an
 * operation of the OpenAPI document (test/contract/tenant-isolation-fuzz.test.ts checks it), and
 * the canary check still applies to them: none may return anything of A's.
 */
export const crossMerchantReadable: ReadonlySet<string> = new Set([
  // Liveness, readiness and diagnostics of the process: public, the same for every caller.
  'GET /health',
  'GET /health/ready',
  'GET /health/diagnostics',
  // Prometheus metrics of the process (no merchant label carries a merchant's data).
  'GET /metrics',
  // Answers the same 200 for every email, known or not (no account enumeration); the link goes
  // only to the account's own address.
  'POST /auth/forgot-password',
]);

/**
 * Operations that answer 2xx while ignoring a reference that is not the caller's, as the peer
 * does: /routing/hybrid falls back to the request's own `fallback_output` when its static part
 * is refused (another merchant's `routing_algorithm_id` is "not found" there). The canary check
 * still applies: the answer holds nothing of A's.
 */
export const fallsBackOnForeignReference: ReadonlySet<string> = new Set(['POST /routing/hybrid']);

/**
 * A's own reads that change when B is refused, by design: every refused attempt naming merchant
 * A (a wrong admin secret for A, a credential of B naming A) is an audit record shown to A in its
 * logs. The state check leaves these out; the other reads of A must not change at all.
 */
export const showsAttemptsOnA: ReadonlySet<string> = new Set(['GET /analytics/log-summaries', 'GET /analytics/overview', 'GET /analytics/payment-audit']);
