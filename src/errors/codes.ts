/**
 * The single list of Switchyard error codes. Each code names its area and what went wrong;
 * `docs/errors.md` documents every one (a unit test keeps the two in step).
 *
 * Wire envelopes (decision-engine 1.4.x compatibility) are chosen in `api/plugins/errors.ts`,
 * never here: the domain only knows codes.
 */
export const errorCodes = {
  SY_CONFIG_INVALID: 'A configuration value read from the environment is missing or malformed.',
  SY_REQUEST_INVALID: 'A request body, path or query failed schema validation.',
  SY_MERCHANT_NOT_FOUND: 'The merchant named in the request does not exist.',
  SY_MERCHANT_EXISTS: 'A merchant with this id already exists.',
  SY_RULE_CONFIG_EXISTS: 'The rule configuration already exists for this merchant.',
  SY_SR_DIMENSION_INVALID: 'The success-rate dimension configuration names a field that is not a dimension.',
  SY_RULE_CONFIG_NOT_FOUND: 'The rule configuration does not exist for this merchant.',
  SY_ROUTING_RULE_REJECTED:
    'A routing-rule (euclid) request was refused: invalid algorithm or parameters, unknown or active algorithm, or no active algorithm.',
  SY_ROUTING_GATEWAY_NOT_FOUND: 'No eligible gateway could be scored for the payment.',
  SY_ROUTING_DEBIT_DISABLED: 'Network (debit) routing is not enabled for the merchant.',
  SY_ROUTING_COBADGE_NOT_FOUND: 'The co-badged card networks could not be determined from the payment metadata.',
  SY_ROUTING_INVALID_INPUT: 'The decision or feedback request could not be parsed.',
  SY_AUTH_MISSING_CREDENTIALS: 'A protected route was called without a bearer token or API key.',
  SY_AUTH_INVALID_TOKEN: 'The bearer token is malformed, expired, not yet valid, revoked or signed wrongly.',
  SY_AUTH_INVALID_API_KEY: 'The API key is unknown.',
  SY_AUTH_REVOKED_API_KEY: 'The API key has been revoked.',
  SY_AUTH_INVALID_ADMIN_SECRET: 'The x-admin-secret header is missing or wrong.',
  SY_AUTH_FORBIDDEN_MERCHANT: 'The credential belongs to another merchant than the one the request names.',
  SY_AUTH_UNSUPPORTED_SESSION:
    'The route is refused to this kind of session: an SSO handoff or super-admin view session cannot manage accounts, and exit needs a view session.',
  SY_AUTH_NOT_SUPER_ADMIN: "The session's email is not on the super-admin roster (SUPER_ADMIN_EMAILS).",
  SY_AUTH_INVALID_SSO_CODE: 'The admin SSO code is unknown, expired or already redeemed.',
  SY_AUTH_FORBIDDEN_ROLE: "The session's role in its merchant does not allow the request: a member (read-only) called a write route.",
  SY_STATE_UNAVAILABLE: 'The state store (Redis or embedded) cannot be reached.',
  SY_BUS_UNAVAILABLE: 'The event bus cannot accept events and its spool is full.',
  SY_ANALYTICS_UNAVAILABLE: 'The analytics store (ClickHouse or chDB) cannot be reached.',
  SY_EVENT_INVALID: 'An event failed validation against its schema.',
  SY_SHUTTING_DOWN: 'The service is draining and accepts no new work.',
  SY_QUEUE_UNAVAILABLE: 'The job queue (BullMQ on Redis) cannot be reached.',
  SY_BATCH_INVALID: 'A batch submission was refused: too many or no prompts, or shared options the toolkit rejects.',
  SY_BATCH_NOT_FOUND: 'No batch with this id exists (or it has expired).',
  SY_FILE_INVALID: 'A file upload (POST /v1/files) was refused: no file part, an unknown purpose, or a batch input file whose line is not a valid request.',
  SY_FILE_TOO_LARGE: 'The uploaded file is larger than FILES_MAX_BYTES allows.',
  SY_FILE_NOT_FOUND: 'No file of this merchant has this id (never uploaded, deleted or expired).',
  SY_FILE_STORE_UNAVAILABLE:
    'The file store of /v1/files (an S3-compatible bucket) cannot be reached or refused the request: wrong credentials, a missing bucket, a timeout or a server error.',
  SY_EXPERIMENT_NOT_FOUND: 'No routing experiment (ab_test algorithm) of this merchant has this id.',
  SY_VOLUME_CONTRACT_NOT_FOUND: 'The merchant has no active volume_contract document (or its volume-contracts feature is off).',
  SY_VOLUME_FORECAST_UNAVAILABLE: 'Volume commitments cannot be forecast in this process: analytics is off, or delivered volume cannot be measured right now.',
  SY_MODEL_NOT_FOUND: 'No model or provider of the model registry has this name or alias.',
  SY_GATEWAY_REQUEST_UNSUPPORTED:
    'The LLM gateway cannot serve the request as sent: an unsupported parameter or input, an invalid route group, or a route group whose rules leave no candidate for it.',
  SY_RESPONSE_NOT_FOUND: 'No stored response of the Responses API has this id for this merchant (never stored, deleted or expired).',
  SY_PREVIOUS_RESPONSE_NOT_FOUND: 'The `previous_response_id` of a Responses API request names no stored response of this merchant.',
  SY_PROVIDER_CREDENTIALS_UNCONFIGURED:
    'Merchant provider credentials are off: the service runs distributed without PROVIDER_CREDENTIAL_KEYS, so it cannot seal or open them.',
  SY_PROVIDER_CREDENTIAL_NOT_FOUND: 'The merchant has no stored credentials for the provider the request names.',
  SY_KEY_LIMIT_EXCEEDED: "The API key's own limit (rpm, tpm, max_concurrent or budget) refuses the request; Retry-After says when to come back.",
  SY_GUARDRAIL_BLOCKED:
    'A guardrail with action block refused the request (a card number, personal data, a credential, an injection, a deny-listed term or an oversized input) before any provider call, or stopped an answer; the message names the guard, never the matched text.',
  SY_GUARDRAIL_INVALID: 'Guardrail settings were refused: an unknown guard or action, or a custom pattern that fails the catastrophic-backtracking check.',
  SY_INTERNAL: 'An unexpected failure; the log has the cause.',
} as const;

export type ErrorCode = keyof typeof errorCodes;
