import analyticsQuery from '../schemas/http/analytics/analytics-query.json' with { type: 'json' };
import costSavingsReport from '../schemas/http/analytics/cost-savings-report.json' with { type: 'json' };
import postStepPriceReport from '../schemas/http/analytics/post-step-price-report.json' with { type: 'json' };
import postStepRateInterval from '../schemas/http/analytics/post-step-rate-interval.json' with { type: 'json' };
import routingEventsQuery from '../schemas/http/analytics/routing-events-query.json' with { type: 'json' };
import routingEventsReport from '../schemas/http/analytics/routing-events-report.json' with { type: 'json' };
import counterfactualEstimate from '../schemas/http/analytics/counterfactual-estimate.json' with { type: 'json' };
import counterfactualEstimates from '../schemas/http/analytics/counterfactual-estimates.json' with { type: 'json' };
import counterfactualReport from '../schemas/http/analytics/counterfactual-report.json' with { type: 'json' };
import counterfactualRequest from '../schemas/http/analytics/counterfactual-request.json' with { type: 'json' };
import autopilotCalibrated from '../schemas/events/autopilot.calibrated.v1.json' with { type: 'json' };
import autopilotRuns from '../schemas/http/autopilot/autopilot-runs.json' with { type: 'json' };
import autopilotRunsQuery from '../schemas/http/autopilot/autopilot-runs-query.json' with { type: 'json' };
import volumeForecastRunQuery from '../schemas/http/volume-commitment/run-forecast-query.json' with { type: 'json' };
import volumeForecastRunReport from '../schemas/http/volume-commitment/run-report.json' with { type: 'json' };
import volumeCommitmentView from '../schemas/http/volume-commitment/pacing-view.json' with { type: 'json' };
import volumeCommitmentSeriesPoint from '../schemas/http/volume-commitment/series-point.json' with { type: 'json' };
import volumeCommitmentDashboardQuery from '../schemas/http/volume-commitment/dashboard-query.json' with { type: 'json' };
import volumeCommitmentDashboard from '../schemas/http/volume-commitment/dashboard.json' with { type: 'json' };
import volumeCommitmentImpact from '../schemas/http/volume-commitment/impact.json' with { type: 'json' };
import volumeCommitmentSamples from '../schemas/http/volume-commitment/samples.json' with { type: 'json' };
import llmProviderUsage from '../schemas/http/analytics/llm-provider-usage.json' with { type: 'json' };
import llmApiUsage from '../schemas/http/analytics/llm-api-usage.json' with { type: 'json' };
import llmOverviewReport from '../schemas/http/analytics/llm-overview-report.json' with { type: 'json' };
import overviewReport from '../schemas/http/analytics/overview-report.json' with { type: 'json' };
import llmUsagePoint from '../schemas/http/analytics/llm-usage-point.json' with { type: 'json' };
import llmUsageReport from '../schemas/http/analytics/llm-usage-report.json' with { type: 'json' };
import llmLatencyRow from '../schemas/http/analytics/llm-latency-row.json' with { type: 'json' };
import llmLatencyReport from '../schemas/http/analytics/llm-latency-report.json' with { type: 'json' };
import llmErrorGroup from '../schemas/http/analytics/llm-error-group.json' with { type: 'json' };
import llmErrorsReport from '../schemas/http/analytics/llm-errors-report.json' with { type: 'json' };
import llmRouteApproachCounts from '../schemas/http/analytics/llm-route-approach-counts.json' with { type: 'json' };
import llmRouteCandidatePoint from '../schemas/http/analytics/llm-route-candidate-point.json' with { type: 'json' };
import llmRouteCandidateReport from '../schemas/http/analytics/llm-route-candidate-report.json' with { type: 'json' };
import llmRouteGroupPoint from '../schemas/http/analytics/llm-route-group-point.json' with { type: 'json' };
import llmRouteGroupReport from '../schemas/http/analytics/llm-route-group-report.json' with { type: 'json' };
import llmRouteGroupsReport from '../schemas/http/analytics/llm-route-groups-report.json' with { type: 'json' };
import llmPromptCacheUsage from '../schemas/http/analytics/llm-prompt-cache-usage.json' with { type: 'json' };
import llmPromptCacheReport from '../schemas/http/analytics/llm-prompt-cache-report.json' with { type: 'json' };
import llmEndUserUsage from '../schemas/http/analytics/llm-end-user-usage.json' with { type: 'json' };
import llmEndUsersReport from '../schemas/http/analytics/llm-end-users-report.json' with { type: 'json' };
import llmGuardsReport from '../schemas/http/analytics/llm-guards-report.json' with { type: 'json' };
import llmGuardOutcomeCount from '../schemas/http/analytics/llm-guard-outcome-count.json' with { type: 'json' };
import llmGuardKeyCount from '../schemas/http/analytics/llm-guard-key-count.json' with { type: 'json' };
import llmGuardPoint from '../schemas/http/analytics/llm-guard-point.json' with { type: 'json' };
import experimentArmMetrics from '../schemas/http/experiments/experiment-arm-metrics.json' with { type: 'json' };
import experimentParams from '../schemas/http/experiments/experiment-params.json' with { type: 'json' };
import experimentResults from '../schemas/http/experiments/experiment-results.json' with { type: 'json' };
import experimentResultsQuery from '../schemas/http/experiments/experiment-results-query.json' with { type: 'json' };
import experimentTransactions from '../schemas/http/experiments/experiment-transactions.json' with { type: 'json' };
import experimentTransactionsQuery from '../schemas/http/experiments/experiment-transactions-query.json' with { type: 'json' };
import apiKeyCreateRequest from '../schemas/http/api-keys/api-key-create-request.json' with { type: 'json' };
import apiKeyCreated from '../schemas/http/api-keys/api-key-created.json' with { type: 'json' };
import apiKeyListItem from '../schemas/http/api-keys/api-key-list-item.json' with { type: 'json' };
import apiKeyRevoked from '../schemas/http/api-keys/api-key-revoked.json' with { type: 'json' };
import keyCache from '../schemas/http/api-keys/key-cache.json' with { type: 'json' };
import keyMcpPolicy from '../schemas/http/api-keys/key-mcp-policy.json' with { type: 'json' };
import keyLimits from '../schemas/http/api-keys/key-limits.json' with { type: 'json' };
import keyPolicyRequest from '../schemas/http/api-keys/key-policy-request.json' with { type: 'json' };
import keyUsage from '../schemas/http/api-keys/key-usage.json' with { type: 'json' };
import batchItemFailure from '../schemas/http/batches/batch-item-failure.json' with { type: 'json' };
import batchItemResult from '../schemas/http/batches/batch-item-result.json' with { type: 'json' };
import batchItemUsage from '../schemas/http/batches/batch-item-usage.json' with { type: 'json' };
import batchResultsQuery from '../schemas/http/batches/batch-results-query.json' with { type: 'json' };
import batchResults from '../schemas/http/batches/batch-results.json' with { type: 'json' };
import batchSharedOptions from '../schemas/http/batches/batch-shared-options.json' with { type: 'json' };
import batchSubmitRequest from '../schemas/http/batches/batch-submit-request.json' with { type: 'json' };
import batch from '../schemas/http/batches/batch.json' with { type: 'json' };
import openAiFile from '../schemas/http/files/openai-file.json' with { type: 'json' };
import openAiFileList from '../schemas/http/files/openai-file-list.json' with { type: 'json' };
import openAiFileDeleted from '../schemas/http/files/openai-file-deleted.json' with { type: 'json' };
import openAiBatch from '../schemas/http/files/openai-batch.json' with { type: 'json' };
import openAiBatchList from '../schemas/http/files/openai-batch-list.json' with { type: 'json' };
import openAiBatchCreateRequest from '../schemas/http/files/openai-batch-create-request.json' with { type: 'json' };
import chatCompletionRequest from '../schemas/http/generation/chat-completion-request.json' with { type: 'json' };
import anthropicMessagesRequest from '../schemas/http/generation/anthropic-messages-request.json' with { type: 'json' };
import anthropicCountTokensRequest from '../schemas/http/generation/anthropic-count-tokens-request.json' with { type: 'json' };
import embeddingRequest from '../schemas/http/generation/embedding-request.json' with { type: 'json' };
import routeGroup from '../schemas/http/generation/route-group.json' with { type: 'json' };
import generateFileInput from '../schemas/http/generation/generate-file-input.json' with { type: 'json' };
import generateRequest from '../schemas/http/generation/generate-request.json' with { type: 'json' };
import generateResponse from '../schemas/http/generation/generate-response.json' with { type: 'json' };
import mcpExecuteRequest from '../schemas/http/generation/mcp-execute-request.json' with { type: 'json' };
import jsonRpcError from '../schemas/http/mcp/json-rpc-error.json' with { type: 'json' };
import mcpServerNameParams from '../schemas/http/mcp/mcp-server-name-params.json' with { type: 'json' };
import mcpServerRegisterRequest from '../schemas/http/mcp/mcp-server-register-request.json' with { type: 'json' };
import mcpServerRegistered from '../schemas/http/mcp/mcp-server-registered.json' with { type: 'json' };
import mcpServerRemoved from '../schemas/http/mcp/mcp-server-removed.json' with { type: 'json' };
import modelsSearchQuery from '../schemas/http/generation/models-search-query.json' with { type: 'json' };
import authResponse from '../schemas/http/auth/auth-response.json' with { type: 'json' };
import loginRequest from '../schemas/http/auth/login-request.json' with { type: 'json' };
import logoutResponse from '../schemas/http/auth/logout-response.json' with { type: 'json' };
import meResponse from '../schemas/http/auth/me-response.json' with { type: 'json' };
import merchantInfo from '../schemas/http/auth/merchant-info.json' with { type: 'json' };
import onboardingRequest from '../schemas/http/auth/onboarding-request.json' with { type: 'json' };
import onboardingResponse from '../schemas/http/auth/onboarding-response.json' with { type: 'json' };
import signupRequest from '../schemas/http/auth/signup-request.json' with { type: 'json' };
import switchMerchantRequest from '../schemas/http/auth/switch-merchant-request.json' with { type: 'json' };
import adminMerchantTokenRequest from '../schemas/http/auth/admin-merchant-token-request.json' with { type: 'json' };
import adminMerchantCodeResponse from '../schemas/http/auth/admin-merchant-code-response.json' with { type: 'json' };
import exchangeMerchantTokenRequest from '../schemas/http/auth/exchange-merchant-token-request.json' with { type: 'json' };
import enterMerchantRequest from '../schemas/http/auth/enter-merchant-request.json' with { type: 'json' };
import superAdminLookupRequest from '../schemas/http/auth/super-admin-lookup-request.json' with { type: 'json' };
import merchantLookupResult from '../schemas/http/auth/merchant-lookup-result.json' with { type: 'json' };
import accountMessageResponse from '../schemas/http/account/account-message-response.json' with { type: 'json' };
import changePasswordRequest from '../schemas/http/account/change-password-request.json' with { type: 'json' };
import forgotPasswordRequest from '../schemas/http/account/forgot-password-request.json' with { type: 'json' };
import resetPasswordRequest from '../schemas/http/account/reset-password-request.json' with { type: 'json' };
import verifyEmailQuery from '../schemas/http/account/verify-email-query.json' with { type: 'json' };
import inviteMemberRequest from '../schemas/http/members/invite-member-request.json' with { type: 'json' };
import inviteMemberResponse from '../schemas/http/members/invite-member-response.json' with { type: 'json' };
import memberInfo from '../schemas/http/members/member-info.json' with { type: 'json' };
import removeMemberResponse from '../schemas/http/members/remove-member-response.json' with { type: 'json' };
import srDimensionConfig from '../schemas/http/config/sr-dimension-config.json' with { type: 'json' };
import srDimensionRequest from '../schemas/http/config/sr-dimension-request.json' with { type: 'json' };
import coBadgedMetadata from '../schemas/http/gateway-decision/co-badged-metadata.json' with { type: 'json' };
import decideGatewayRequest from '../schemas/http/gateway-decision/decide-gateway-request.json' with { type: 'json' };
import decidedGateway from '../schemas/http/gateway-decision/decided-gateway.json' with { type: 'json' };
import decisionGatewayRequest from '../schemas/http/gateway-decision/decision-gateway-request.json' with { type: 'json' };
import legacyDeciderRequest from '../schemas/http/gateway-decision/legacy-decider-request.json' with { type: 'json' };
import legacyDecisionResponse from '../schemas/http/gateway-decision/legacy-decision-response.json' with { type: 'json' };
import paymentInfo from '../schemas/http/gateway-decision/payment-info.json' with { type: 'json' };
import debitRoutingToggle from '../schemas/http/merchant-account/debit-routing-toggle.json' with { type: 'json' };
import gatewayCapabilities from '../schemas/http/merchant-account/gateway-capabilities.json' with { type: 'json' };
import gatewayCapability from '../schemas/http/merchant-account/gateway-capability.json' with { type: 'json' };
import merchantAccountCreate from '../schemas/http/merchant-account/merchant-account-create.json' with { type: 'json' };
import merchantFeatures from '../schemas/http/merchant-features/merchant-features.json' with { type: 'json' };
import merchantFeatureToggle from '../schemas/http/merchant-features/merchant-feature-toggle.json' with { type: 'json' };
import guardrailSettings from '../schemas/http/guardrails/guardrail-settings.json' with { type: 'json' };
import merchantGuardrails from '../schemas/http/guardrails/merchant-guardrails.json' with { type: 'json' };
import merchantGuardrailsView from '../schemas/http/guardrails/merchant-guardrails-view.json' with { type: 'json' };
import reportingCurrencySetting from '../schemas/http/reporting-currency/reporting-currency-setting.json' with { type: 'json' };
import seedCostWireRow from '../schemas/http/seed-costs/seed-cost-wire-row.json' with { type: 'json' };
import seedCostsSave from '../schemas/http/seed-costs/seed-costs-save.json' with { type: 'json' };
import seedCostSimulateRequest from '../schemas/http/seed-costs/seed-cost-simulate-request.json' with { type: 'json' };
import seedCostQuote from '../schemas/http/seed-costs/seed-cost-quote.json' with { type: 'json' };
import multiObjectivePsp from '../schemas/http/gateway-decision/multi-objective-psp.json' with { type: 'json' };
import debitRoutingConfig from '../schemas/http/rule-configuration/debit-routing-config.json' with { type: 'json' };
import eliminationConfig from '../schemas/http/rule-configuration/elimination-config.json' with { type: 'json' };
import ruleConfigLookup from '../schemas/http/rule-configuration/rule-config-lookup.json' with { type: 'json' };
import ruleConfigRequest from '../schemas/http/rule-configuration/rule-config-request.json' with { type: 'json' };
import successRateConfig from '../schemas/http/rule-configuration/success-rate-config.json' with { type: 'json' };
import successRateSubLevelConfig from '../schemas/http/rule-configuration/success-rate-sub-level-config.json' with { type: 'json' };
import costAccountQuery from '../schemas/http/cost-ingestion/cost-account-query.json' with { type: 'json' };
import costIngestionConnector from '../schemas/http/cost-ingestion/cost-ingestion-connector.json' with { type: 'json' };
import costIngestionAccepted from '../schemas/http/cost-ingestion/cost-ingestion-accepted.json' with { type: 'json' };
import costIngestion from '../schemas/http/cost-ingestion/cost-ingestion.json' with { type: 'json' };
import costColumnMapping from '../schemas/http/cost-ingestion/cost-column-mapping.json' with { type: 'json' };
import costCoverage from '../schemas/http/cost-ingestion/cost-coverage.json' with { type: 'json' };
import costCluster from '../schemas/http/cost-ingestion/cost-cluster.json' with { type: 'json' };
import costClustersQuery from '../schemas/http/cost-ingestion/cost-clusters-query.json' with { type: 'json' };
import connectorFee from '../schemas/http/cost-ingestion/connector-fee.json' with { type: 'json' };
import feeOverrideRequest from '../schemas/http/cost-ingestion/fee-override-request.json' with { type: 'json' };
import connectorInfo from '../schemas/http/routing-rules/connector-info.json' with { type: 'json' };
import hybridRoutingRequest from '../schemas/http/routing-rules/hybrid-routing-request.json' with { type: 'json' };
import routingAlgorithmRef from '../schemas/http/routing-rules/routing-algorithm-ref.json' with { type: 'json' };
import routingEvaluateRequest from '../schemas/http/routing-rules/routing-evaluate-request.json' with { type: 'json' };
import routingEvaluateBatchRequest from '../schemas/http/routing-rules/routing-evaluate-batch-request.json' with { type: 'json' };
import routingRuleCreate from '../schemas/http/routing-rules/routing-rule-create.json' with { type: 'json' };
import routingRuleUpdate from '../schemas/http/routing-rules/routing-rule-update.json' with { type: 'json' };
import gsmErrorInfo from '../schemas/http/score-feedback/gsm-error-info.json' with { type: 'json' };
import gatewayScoreResetRequest from '../schemas/http/score-feedback/gateway-score-reset-request.json' with { type: 'json' };
import gatewayScoreReset from '../schemas/http/score-feedback/gateway-score-reset.json' with { type: 'json' };
import gsmOptionRow from '../schemas/http/gsm/gsm-option-row.json' with { type: 'json' };
import gsmOptions from '../schemas/http/gsm/gsm-options.json' with { type: 'json' };
import gsmRuleOverride from '../schemas/http/gsm/gsm-rule-override.json' with { type: 'json' };
import gsmRulesRequest from '../schemas/http/gsm/gsm-rules-request.json' with { type: 'json' };
import gsmRules from '../schemas/http/gsm/gsm-rules.json' with { type: 'json' };
import updateGatewayScoreRequest from '../schemas/http/score-feedback/update-gateway-score-request.json' with { type: 'json' };
import updateScoreLegacyRequest from '../schemas/http/score-feedback/update-score-legacy-request.json' with { type: 'json' };
import deciderErrorEnvelope from '../schemas/http/errors/decider-error-envelope.json' with { type: 'json' };
import genericErrorEnvelope from '../schemas/http/errors/generic-error-envelope.json' with { type: 'json' };
import generationError from '../schemas/http/errors/generation-error.json' with { type: 'json' };
import anthropicError from '../schemas/http/errors/anthropic-error.json' with { type: 'json' };
import openAiError from '../schemas/http/errors/openai-error.json' with { type: 'json' };

/**
 * Every HTTP schema under schemas/http, registered once with fastify (`app.addSchema`) so routes
 * refer to them by `$id` and /openapi.json is generated from the same documents.
 */
export const httpSchemas: readonly { readonly $id: string }[] = [
  analyticsQuery,
  overviewReport,
  llmProviderUsage,
  llmApiUsage,
  llmOverviewReport,
  llmUsagePoint,
  llmUsageReport,
  llmLatencyRow,
  llmLatencyReport,
  llmErrorGroup,
  llmErrorsReport,
  llmRouteApproachCounts,
  llmRouteCandidatePoint,
  llmRouteCandidateReport,
  llmRouteGroupPoint,
  llmRouteGroupReport,
  llmRouteGroupsReport,
  llmPromptCacheUsage,
  llmPromptCacheReport,
  llmEndUserUsage,
  llmEndUsersReport,
  llmGuardOutcomeCount,
  llmGuardKeyCount,
  llmGuardPoint,
  llmGuardsReport,
  costSavingsReport,
  postStepRateInterval,
  postStepPriceReport,
  routingEventsQuery,
  routingEventsReport,
  counterfactualRequest,
  counterfactualEstimate,
  counterfactualEstimates,
  counterfactualReport,
  experimentArmMetrics,
  experimentParams,
  experimentResults,
  experimentResultsQuery,
  experimentTransactions,
  experimentTransactionsQuery,
  keyLimits,
  keyCache,
  keyMcpPolicy,
  keyUsage,
  keyPolicyRequest,
  apiKeyCreateRequest,
  apiKeyCreated,
  apiKeyListItem,
  apiKeyRevoked,
  batchSharedOptions,
  batchSubmitRequest,
  batch,
  openAiFile,
  openAiFileList,
  openAiFileDeleted,
  openAiBatch,
  openAiBatchList,
  openAiBatchCreateRequest,
  batchItemFailure,
  batchItemUsage,
  batchItemResult,
  batchResults,
  batchResultsQuery,
  generateFileInput,
  generateRequest,
  chatCompletionRequest,
  anthropicMessagesRequest,
  anthropicCountTokensRequest,
  embeddingRequest,
  routeGroup,
  generateResponse,
  mcpExecuteRequest,
  mcpServerRegisterRequest,
  jsonRpcError,
  mcpServerNameParams,
  mcpServerRegistered,
  mcpServerRemoved,
  modelsSearchQuery,
  merchantInfo,
  signupRequest,
  loginRequest,
  switchMerchantRequest,
  onboardingRequest,
  authResponse,
  meResponse,
  onboardingResponse,
  logoutResponse,
  adminMerchantTokenRequest,
  adminMerchantCodeResponse,
  exchangeMerchantTokenRequest,
  enterMerchantRequest,
  superAdminLookupRequest,
  merchantLookupResult,
  accountMessageResponse,
  changePasswordRequest,
  forgotPasswordRequest,
  resetPasswordRequest,
  verifyEmailQuery,
  memberInfo,
  inviteMemberRequest,
  inviteMemberResponse,
  removeMemberResponse,
  srDimensionConfig,
  srDimensionRequest,
  coBadgedMetadata,
  paymentInfo,
  decideGatewayRequest,
  multiObjectivePsp,
  decidedGateway,
  legacyDeciderRequest,
  decisionGatewayRequest,
  legacyDecisionResponse,
  debitRoutingToggle,
  gatewayCapability,
  gatewayCapabilities,
  merchantAccountCreate,
  merchantFeatures,
  merchantFeatureToggle,
  guardrailSettings,
  merchantGuardrails,
  merchantGuardrailsView,
  reportingCurrencySetting,
  seedCostWireRow,
  seedCostsSave,
  seedCostSimulateRequest,
  seedCostQuote,
  debitRoutingConfig,
  eliminationConfig,
  successRateSubLevelConfig,
  successRateConfig,
  ruleConfigRequest,
  ruleConfigLookup,
  gsmErrorInfo,
  updateGatewayScoreRequest,
  gatewayScoreResetRequest,
  gatewayScoreReset,
  gsmOptionRow,
  gsmOptions,
  gsmRuleOverride,
  gsmRulesRequest,
  gsmRules,
  updateScoreLegacyRequest,
  connectorInfo,
  costAccountQuery,
  costIngestionConnector,
  costIngestionAccepted,
  costIngestion,
  costColumnMapping,
  costCoverage,
  costCluster,
  costClustersQuery,
  connectorFee,
  feeOverrideRequest,
  routingRuleCreate,
  routingRuleUpdate,
  routingAlgorithmRef,
  routingEvaluateRequest,
  routingEvaluateBatchRequest,
  hybridRoutingRequest,
  genericErrorEnvelope,
  deciderErrorEnvelope,
  openAiError,
  anthropicError,
  generationError,
  // The run record is the autopilot.calibrated event's payload: one schema for the bus and the route.
  autopilotCalibrated,
  autopilotRuns,
  autopilotRunsQuery,
  volumeForecastRunQuery,
  volumeForecastRunReport,
  volumeCommitmentView,
  volumeCommitmentSeriesPoint,
  volumeCommitmentDashboardQuery,
  volumeCommitmentDashboard,
  volumeCommitmentImpact,
  volumeCommitmentSamples,
];

/** A `$ref` to a registered schema, as fastify route schemas want it. */
export function ref(id: string): { $ref: string } {
  return { $ref: `${id}#` };
}
