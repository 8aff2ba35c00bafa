/**
 * Which domain `flow_type`s each read counts (decision-engine §7.1 catalogue). The ClickHouse
 * queries receive these as bound arrays, so this is the only list.
 */
export const analyticsFlows = {
  decision: 'decide_gateway_decision',
  decisionError: 'decide_gateway_error',
  ruleHit: 'decide_gateway_rule_hit',
  /** One autopilot run (autopilot.calibrated); GET /analytics/routing-events replays the applied ones. */
  calibration: 'autopilot_calibration',
  /** Score snapshots, including the legacy /update-score flavour. */
  snapshots: ['update_gateway_score_score_snapshot', 'update_score_legacy_score_snapshot'],
  /** Structured failure summaries of every route, and refused authentication attempts (auth.attempted). */
  errors: [
    'decide_gateway_error',
    'update_gateway_score_error',
    'update_score_legacy_error',
    'routing_evaluate_error',
    'auth_password_failure',
    'auth_api_key_failure',
    'auth_admin_secret_failure',
    // Audit trail of issue 25 (admin SSO codes, super-admin view), successes included.
    'auth_sso_code_success',
    'auth_sso_code_failure',
    'auth_super_admin_success',
    'auth_super_admin_failure',
    // Team changes (invite, remove) by a merchant's admin.
    'auth_members_success',
    // Account actions (password change, reset request, reset, email verification), refusals included.
    'auth_account_success',
    'auth_account_failure',
    // Tool executions (tool.executed): MCP tools run through /api/mcp/execute and tools models called.
    'tool_executed_success',
    'tool_executed_failure',
    // Guardrail outcomes (guard.applied): every guard that found something, per call and stage.
    'guard_applied_log',
    'guard_applied_mask',
    'guard_applied_block',
  ],
} as const;

/** Overview `route_hits`: always these three routes, in this order, 0 when absent. */
export const routeHitFlows: readonly { readonly route: string; readonly flowType: string }[] = [
  { route: '/decide_gateway', flowType: 'decide_gateway_request_hit' },
  { route: '/update_gateway', flowType: 'update_gateway_score_request_hit' },
  { route: '/rule_evaluate', flowType: 'routing_evaluate_request_hit' },
];

/** Status values of rows that record no outcome; `latest_status` of an audit result skips them. */
export const outcomeFreeStatuses: readonly string[] = ['received', 'snapshot'];
