/**
 * The wire types the dashboard reads and sends, taken from the service's own definitions (type-only
 * imports, erased at build): the JSON Schemas of schemas/http through src/generated/schema-types.ts,
 * and, for the reads whose shapes are decision-engine's and have no response schema, the service's
 * report interfaces. Nothing here is a second copy of a schema.
 */
export type {
  ApiKeyCreated,
  ApiKeyListItem,
  ApiKeyRevoked,
  AuthResponse,
  Batch,
  BatchResults,
  BatchSubmitRequest,
  DecideGatewayRequest,
  DecidedGateway,
  DebitRoutingConfig,
  EliminationConfig,
  GenerateRequest,
  LlmErrorsReport,
  LlmLatencyReport,
  LlmOverviewReport,
  LlmRouteGroupReport,
  LlmRouteGroupsReport,
  LlmUsageReport,
  MeResponse,
  MerchantInfo,
  OnboardingResponse,
  PaymentInfo,
  RouteGroup,
  RoutingEvaluateRequest,
  SuccessRateConfig,
} from '../../../src/generated/schema-types';
export type {
  AuditResult,
  AuditTimelineEntry,
  DecisionsReport,
  ErrorSummary,
  GatewayScorePoint,
  GatewayScoresReport,
  GatewayScoreSnapshot,
  KpiTile,
  LogSummariesReport,
  OverviewReport,
  PaymentAuditReport,
  RoutingStatsReport,
} from '../../../src/ports/analytics/analytics-reports';
export type {
  ComparisonType,
  ConnectorInfo,
  Comparison,
  IfStatement,
  Program,
  Rule,
  RuleOutput,
  RoutingAlgorithm,
  ValueType,
  VolumeSplit,
} from '../../../src/ports/state/routing-algorithm';
export type { ModelConfig } from '../../../src/generation/models/model-config';
export type { RoutingKeyView } from '../../../src/routing-rules/routing-keys';
