import { SwitchyardError } from '../errors/switchyard-error.js';
import type { EventEnvelope } from '../events/event-envelope.js';
import type { AuthAttemptedV1, DecisionCreatedV1, PaymentDimensions } from '../generated/schema-types.js';
import {
  maxDetailsBytes,
  type AnalyticsRows,
  type ApiEventRow,
  type DecisionPolicyRow,
  type DomainEventRow,
  type GuardOutcomeRow,
  type LlmCallRow,
} from '../ports/analytics/analytics-rows.js';
import { analyticsFlows } from './analytics-flows.js';
import { decisionPolicyRowOf } from './decision-policy-row.js';

/**
 * API flow types whose calls also count as a domain "request hit" (overview `route_hits`, and the
 * first entry of a payment's audit timeline), with the summary they belong to. Request hits are
 * derived here, once, from `api.requested`, so the reads only ever look at domain rows.
 */
const requestHitFlows: Readonly<Record<string, { readonly flowType: string; readonly summaryKind: string }>> = {
  decide_gateway: { flowType: 'decide_gateway_request_hit', summaryKind: 'dynamic' },
  update_gateway_score: { flowType: 'update_gateway_score_request_hit', summaryKind: 'dynamic' },
  routing_evaluate: { flowType: 'routing_evaluate_request_hit', summaryKind: 'preview' },
};

/**
 * Maps bus events to analytics rows. Deterministic (same event → same rows), so a re-mapped,
 * re-sent batch de-duplicates by event id.
 *
 * - `decision.created` → `decide_gateway_decision` (status `success`, stage `gateway_decided`), plus its
 *   logged policy (propensity, candidates, parameters) as an `analytics_decision_policies` row.
 * - `decision.failed` → `decide_gateway_error` (status `failure`, stage = the failing stage).
 * - `feedback.received` → `update_gateway_score_update` (status = the transaction status).
 * - `score.updated` → `update_gateway_score_score_snapshot` (score_value, transaction_count = bucket size).
 * - `api.requested` → one API row, plus a `<flow>_request_hit` domain row for decide / feedback / evaluate calls.
 * - `rule.evaluated` → from /routing/evaluate and /routing/hybrid: `routing_evaluate_<algorithm type>`
 *   (status `success`/`default_selection`, stage `preview_evaluated`, summary `preview`: preview-trace) or
 *   `routing_evaluate_error`; from /decide-gateway: `decide_gateway_rule_hit` (status `hit`, stage
 *   `rule_applied`, summary `dynamic`: the overview's "Rule hits" and the top rules).
 * - `autopilot.calibrated` → `autopilot_calibration` (summary `autopilot`, status = the run's outcome,
 *   rule name = the chosen candidate, details = the run with its segments and candidates).
 * - `llm.call` → one `analytics_llm_calls` row (no text: the event carries none).
 * - `auth.attempted` → `auth_<credential>_<outcome>` (summary `auth`, stage `authentication`, error code
 *   = the reason); the failures are in `analyticsFlows.errors`, so log-summaries and the overview's
 *   top errors show them. Details keep the subject (email or key prefix) and address, never a secret.
 *
 * - `guard.applied` → `guard_applied_<action>` (summary `guardrails`, stage `guard_<stage>`, error code = the guard,
 *   status `blocked` for the refusing outcome; details = guard, stage, action, count, score: never the matched text),
 *   plus its `analytics_llm_guard_outcomes` row (0011: what /analytics/llm/guards counts).
 * - `tool.executed` → `tool_executed_<outcome>` (summary `tools`, stage `tool_executed`, error code = the
 *   failure's code; details = the run: category, server, owner, tool, duration, argument bytes, never arguments);
 *   both outcomes are in `analyticsFlows.errors`, so log-summaries lists every tool run.
 *
 * @throws SwitchyardError `SY_EVENT_INVALID` for an event version this mapper does not know.
 */
export function mapEventsToAnalyticsRows(events: readonly EventEnvelope[]): AnalyticsRows {
  const domain: DomainEventRow[] = [];
  const api: ApiEventRow[] = [];
  const llm: LlmCallRow[] = [];
  const policies: DecisionPolicyRow[] = [];
  const guards: GuardOutcomeRow[] = [];
  for (const event of events) {
    const rows = mapEventToRows(event);
    domain.push(...rows.domain);
    api.push(...rows.api);
    llm.push(...rows.llm);
    if (rows.policies !== undefined) policies.push(...rows.policies);
    if (rows.guards !== undefined) guards.push(...rows.guards);
  }
  return { domain, api, llm, ...(policies.length > 0 ? { policies } : {}), ...(guards.length > 0 ? { guards } : {}) };
}

export function mapEventToRows(event: EventEnvelope): AnalyticsRows {
  if (event.version !== 1) {
    throw new SwitchyardError('SY_EVENT_INVALID', {
      message: `No analytics mapping for ${event.type} version ${event.version}`,
      details: { eventId: event.id, type: event.type, version: event.version },
    });
  }
  switch (event.type) {
    case 'decision.created': {
      const p = event.payload;
      const rows = domainOnly({
        ...base(event, p.paymentId, p.requestId, 'decide_gateway_decision', 'dynamic'),
        ...dimensionsOf(p.payment),
        gateway: p.gateway,
        routing_approach: p.routingApproach,
        status: 'success',
        event_stage: 'gateway_decided',
        route: 'decide_gateway',
        details: detailsOf(p.sticky === undefined ? p : { ...p, sticky: analyticsStickyOf(p.sticky) }),
      });
      return p.policy === undefined ? rows : { ...rows, policies: [decisionPolicyRowOf(event as EventEnvelope<'decision.created'>)] };
    }
    case 'decision.failed': {
      const p = event.payload;
      return domainOnly({
        ...base(event, p.paymentId, p.requestId, 'decide_gateway_error', 'dynamic'),
        status: 'failure',
        event_stage: p.stage,
        error_code: p.errorCode,
        error_message: p.errorMessage,
        route: 'decide_gateway',
        details: detailsOf(p),
      });
    }
    case 'feedback.received': {
      const p = event.payload;
      return domainOnly({
        ...base(event, p.paymentId, p.requestId, 'update_gateway_score_update', 'dynamic'),
        gateway: p.gateway,
        status: p.status,
        event_stage: 'score_updated',
        route: p.source === 'update_score_legacy' ? 'update_score' : 'update_gateway_score',
        details: detailsOf(p),
      });
    }
    case 'score.updated': {
      const p = event.payload;
      return domainOnly({
        ...base(event, p.paymentId, null, 'update_gateway_score_score_snapshot', 'dynamic'),
        ...dimensionsOf(p.payment),
        gateway: p.gateway,
        status: 'snapshot',
        event_stage: 'score_snapshot',
        score_value: p.scoreValue,
        transaction_count: p.bucketSize,
        route: 'update_gateway_score',
        details: detailsOf(p),
      });
    }
    case 'api.requested': {
      const p = event.payload;
      const apiRow: ApiEventRow = {
        event_id: event.id,
        merchant_id: event.merchantId,
        created_at_ms: event.occurredAt,
        request_id: p.requestId,
        payment_id: p.paymentId ?? '',
        api_flow: p.apiFlow,
        flow_type: p.flowType,
        url_path: p.route,
        http_method: p.method,
        status_code: p.statusCode,
        latency_ms: p.latencyMs,
        error_code: p.errorCode ?? '',
        error_message: p.errorMessage ?? '',
        user_agent: p.userAgent ?? '',
      };
      const hit = requestHitFlows[p.flowType];
      if (hit === undefined) return { domain: [], api: [apiRow], llm: [] };
      const hitRow: DomainEventRow = {
        ...base(event, p.paymentId, p.requestId, hit.flowType, hit.summaryKind),
        api_flow: p.apiFlow,
        status: 'received',
        event_stage: 'request_received',
        error_code: p.errorCode ?? '',
        error_message: p.errorMessage ?? '',
        route: p.flowType,
        details: detailsOf({ method: p.method, path: p.route, statusCode: p.statusCode, latencyMs: p.latencyMs }),
      };
      return { domain: [hitRow], api: [apiRow], llm: [] };
    }
    case 'llm.call': {
      const p = event.payload;
      const row: LlmCallRow = {
        event_id: event.id,
        merchant_id: event.merchantId,
        created_at_ms: event.occurredAt,
        provider: p.provider,
        model: p.model,
        operation: p.operation,
        surface: p.surface,
        input_tokens: p.inputTokens,
        output_tokens: p.outputTokens,
        cost_usd: p.costUsd,
        latency_ms: p.latencyMs,
        ttft_ms: p.timeToFirstTokenMs ?? 0,
        has_ttft: p.timeToFirstTokenMs === null ? 0 : 1,
        outcome: p.outcome,
        error_class: p.errorClass ?? '',
        fallback_hops: p.fallbackHops,
        user_id: p.userId ?? '',
        request_id: p.requestId ?? '',
        batch_id: p.batchId ?? '',
        job_id: p.jobId ?? '',
        route_group: p.routeGroup ?? '',
        route_approach: p.routeApproach ?? '',
        eliminated_candidates: p.eliminatedCandidates ?? [],
        cache_hit: p.cacheHit === true ? 1 : 0,
        saved_cost_usd: p.cacheHit === true ? (p.savedCostUsd ?? 0) : 0,
        api: p.api ?? '',
        api_key_id: p.apiKeyId ?? '',
        end_user: p.endUser ?? '',
        cache_read_tokens: p.cacheReadTokens ?? 0,
        cache_write_tokens: p.cacheWriteTokens ?? 0,
        cache_write_1h_tokens: p.cacheWrite1hTokens ?? 0,
        reasoning_tokens: p.reasoningTokens ?? 0,
        prompt_cache_saved_usd: p.promptCacheSavedUsd ?? 0,
      };
      return { domain: [], api: [], llm: [row] };
    }
    case 'auth.attempted': {
      const p = event.payload;
      return domainOnly({
        ...base(event, null, p.requestId, authAttemptFlow(p.credential, p.outcome, p.action), 'auth'),
        api_flow: 'auth',
        status: p.outcome,
        event_stage: 'authentication',
        error_code: p.reason ?? '',
        error_message: p.outcome === 'failure' ? authFailureMessage(p) : auditMessage(p),
        route: p.route ?? '',
        details: detailsOf({
          credential: p.credential,
          subject: p.subject,
          userId: p.userId,
          keyId: p.keyId,
          sourceAddress: p.sourceAddress,
          userAgent: p.userAgent,
          ...(p.action !== undefined && p.action !== null ? { action: p.action } : {}),
        }),
      });
    }
    case 'tool.executed': {
      const p = event.payload;
      const where = p.serverId === null ? p.tool : `${p.serverId}/${p.tool}`;
      return domainOnly({
        ...base(event, null, p.requestId, toolRunFlow(p.outcome), 'tools'),
        api_flow: 'tools',
        status: p.outcome,
        event_stage: 'tool_executed',
        error_code: p.errorCode ?? '',
        error_message:
          p.outcome === 'failure'
            ? `Tool ${where} (${p.category}, ${p.origin}) failed: ${p.errorCode ?? 'unknown'}`
            : `Tool ${where} (${p.category}, ${p.origin}) ran in ${Math.round(p.durationMs)} ms`,
        route: p.origin === 'execute' ? 'mcp_execute' : 'generation',
        details: detailsOf(p),
      });
    }
    case 'guard.applied': {
      const p = event.payload;
      const rows = domainOnly({
        ...base(event, null, p.requestId, guardFlow(p.action), 'guardrails'),
        api_flow: 'guardrails',
        status: p.blocked ? 'blocked' : p.action,
        event_stage: `guard_${p.stage.replaceAll('-', '_')}`,
        error_code: p.guard,
        error_message: `Guard ${p.guard} (${p.stage}): ${p.count} found, ${p.action}${p.blocked ? ', call refused' : ''}`,
        route: p.surface,
        details: detailsOf(p),
      });
      return { ...rows, guards: [guardOutcomeRowOf(event as EventEnvelope<'guard.applied'>)] };
    }
    case 'rule.evaluated': {
      const p = event.payload;
      const common = {
        api_flow: 'rule_based_routing',
        // A decision's rule hit is named as its priority_logic_tag: the matched rule, else the algorithm.
        rule_name: p.ruleName ?? (p.source === 'decide_gateway' ? (p.algorithmName ?? '') : ''),
        gateway: p.evaluatedOutput[0] ?? '',
        details: detailsOf(p),
      };
      if (p.source === 'decide_gateway') {
        return domainOnly({
          ...base(event, p.paymentId, p.requestId, 'decide_gateway_rule_hit', 'dynamic'),
          ...common,
          status: p.status === 'failure' ? 'failure' : 'hit',
          event_stage: 'rule_applied',
          error_message: p.errorMessage ?? '',
          route: 'decide_gateway',
        });
      }
      if (p.status === 'failure') {
        return domainOnly({
          ...base(event, p.paymentId, p.requestId, 'routing_evaluate_error', 'preview'),
          ...common,
          status: 'failure',
          event_stage: 'request_failed',
          error_message: p.errorMessage ?? '',
          route: 'routing_evaluate',
        });
      }
      return domainOnly({
        ...base(event, p.paymentId, p.requestId, `routing_evaluate_${p.algorithmType ?? 'preview'}`, 'preview'),
        ...common,
        status: p.status,
        event_stage: 'preview_evaluated',
        route: 'routing_evaluate',
      });
    }
    case 'autopilot.calibrated': {
      const p = event.payload;
      // One row per run (summary `autopilot`): its outcome as the status, the chosen candidate as the rule, the run in details.
      return domainOnly({
        ...base(event, null, null, analyticsFlows.calibration, 'autopilot'),
        status: p.outcome,
        event_stage: 'calibrated',
        rule_name: p.chosen,
        error_message: p.reason ?? '',
        route: 'autopilot',
        details: detailsOf(p),
      });
    }
  }
}

/**
 * `auth_password_failure`, `auth_api_key_failure`, `auth_admin_secret_failure`, `auth_password_success`;
 * a password-credential row with an action (password change, reset request, reset, email
 * verification) is `auth_account_<outcome>`, so log-summaries can list those successes and not logins'.
 */
export function authAttemptFlow(credential: AuthAttemptedV1['credential'], outcome: AuthAttemptedV1['outcome'], action?: string | null): string {
  if (credential === 'password' && action !== undefined && action !== null) return `auth_account_${outcome}`;
  return `auth_${credential}_${outcome}`;
}

/** How an account action reads in a log line. */
const accountActionLabels: Readonly<Record<string, string>> = {
  password_change: 'Password change',
  password_reset_request: 'Password reset request',
  password_reset: 'Password reset',
  email_verify: 'Email verification',
};

function accountActionLabel(action: string): string {
  return accountActionLabels[action] ?? `Account ${action}`;
}

/**
 * The log line of a refused attempt: who or what was tried, from where, and why. Addresses are in
 * the message (not only in details) because log-summaries shows messages, and "from where" is what
 * an operator reading refused logins needs first.
 */
function authFailureMessage(p: AuthAttemptedV1): string {
  const why = p.reason ?? 'refused';
  switch (p.credential) {
    case 'password':
      if (p.action !== undefined && p.action !== null)
        return `${accountActionLabel(p.action)} refused for ${p.subject ?? 'unknown'} from ${p.sourceAddress}: ${why}`;
      return `Login refused for ${p.subject ?? 'unknown'} from ${p.sourceAddress}: ${why}`;
    case 'api_key':
      return `API key ${p.subject ?? '(malformed)'} refused from ${p.sourceAddress}: ${why}`;
    case 'admin_secret':
      return `Admin secret refused from ${p.sourceAddress}: ${why}`;
    case 'sso_code':
      return `SSO code ${p.action ?? 'exchange'} refused from ${p.sourceAddress}: ${why}`;
    case 'super_admin':
      return `Super-admin ${p.action ?? 'request'} by ${p.subject ?? 'unknown'} refused from ${p.sourceAddress}: ${why}`;
    case 'members':
      return `Team change ${p.action ?? ''} by ${p.subject ?? 'unknown'} refused from ${p.sourceAddress}: ${why}`;
  }
}

/** The log line of an audited success (SSO codes, super-admin view): who did what; '' for logins. */
function auditMessage(p: AuthAttemptedV1): string {
  switch (p.credential) {
    case 'sso_code':
      return `SSO code ${p.action ?? 'used'} from ${p.sourceAddress}`;
    case 'super_admin':
      return `Super-admin ${p.subject ?? p.userId ?? 'unknown'}: ${p.action ?? 'request'}`;
    case 'members':
      return `Admin ${p.subject ?? p.userId ?? 'unknown'}: ${p.action ?? 'team change'}`;
    case 'password':
      // A login's success has no line; an account action's names whom and from where.
      return p.action !== undefined && p.action !== null ? `${accountActionLabel(p.action)} for ${p.subject ?? 'unknown'} from ${p.sourceAddress}` : '';
    default:
      return '';
  }
}

/** The `analytics_llm_guard_outcomes` row of a guard outcome (0011): counts, never the text. */
function guardOutcomeRowOf(event: EventEnvelope<'guard.applied'>): GuardOutcomeRow {
  const p = event.payload;
  return {
    event_id: event.id,
    merchant_id: event.merchantId,
    created_at_ms: event.occurredAt,
    guard: p.guard,
    stage: p.stage,
    action: p.action,
    found: p.count,
    score: p.score,
    refused: p.blocked ? 1 : 0,
    surface: p.surface,
    request_id: p.requestId ?? '',
    api_key_id: p.apiKeyId ?? '',
    route_group: p.routeGroup ?? '',
  };
}

/** `guard_applied_log` / `guard_applied_mask` / `guard_applied_block`. */
export function guardFlow(action: 'log' | 'mask' | 'block'): string {
  return `guard_applied_${action}`;
}

/** `tool_executed_success` / `tool_executed_failure`. */
export function toolRunFlow(outcome: 'success' | 'failure'): string {
  return `tool_executed_${outcome}`;
}

function domainOnly(row: DomainEventRow): AnalyticsRows {
  return { domain: [row], api: [], llm: [] };
}

function base(event: EventEnvelope, paymentId: string | null, requestId: string | null, flowType: string, summaryKind: string): DomainEventRow {
  const payment = paymentId ?? '';
  const request = requestId ?? '';
  return {
    event_id: event.id,
    merchant_id: event.merchantId,
    created_at_ms: event.occurredAt,
    api_flow: 'dynamic_routing',
    flow_type: flowType,
    summary_kind: summaryKind,
    payment_id: payment,
    request_id: request,
    // The event id is a last resort so that anonymous failures never merge into one audit entry.
    lookup_key: payment !== '' ? payment : request !== '' ? request : event.id,
    global_request_id: '',
    trace_id: '',
    payment_method_type: '',
    payment_method: '',
    card_network: '',
    card_is_in: '',
    currency: '',
    country: '',
    auth_type: '',
    gateway: '',
    event_stage: '',
    routing_approach: '',
    rule_name: '',
    status: '',
    error_code: '',
    error_message: '',
    score_value: null,
    sigma_factor: null,
    average_latency: null,
    tp99_latency: null,
    transaction_count: null,
    route: '',
    details: '',
  };
}

function dimensionsOf(payment: PaymentDimensions) {
  return {
    payment_method_type: payment.paymentMethodType,
    payment_method: payment.paymentMethod,
    card_network: payment.cardNetwork ?? '',
    card_is_in: payment.cardIsIn ?? '',
    currency: payment.currency,
    country: payment.country ?? '',
    auth_type: payment.authType ?? '',
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

type StickyRecord = NonNullable<DecisionCreatedV1['sticky']>;

/**
 * A decision's sticky-routing record as analytics keeps it: without the customer key. No analytics
 * read uses it (feedback reads it from the decision context), a customer's hash is still a
 * customer's identifier, and 64 random hex characters per decision are the least compressible part
 * of the table, inserted and merged again and again by ClickHouse.
 */
function analyticsStickyOf(sticky: StickyRecord): Omit<StickyRecord, 'customerKey'> {
  return { combo: sticky.combo, outcome: sticky.outcome, srHead: sticky.srHead };
}

/** The payload as JSON, cut to {@link maxDetailsBytes} on a character boundary when larger. */
export function detailsOf(value: unknown): string {
  const json = JSON.stringify(value);
  // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4): most payloads
  // are far below the cap and need no encoding to know it.
  if (json.length * 3 <= maxDetailsBytes) return json;
  const bytes = encoder.encode(json);
  if (bytes.length <= maxDetailsBytes) return json;
  // Decoding a cut buffer may end in a replacement char for a split code point; drop it.
  return decoder.decode(bytes.subarray(0, maxDetailsBytes)).replace(/\uFFFD$/, '');
}
