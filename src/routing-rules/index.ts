/**
 * The routing-rules (euclid) domain: the public surface the storage, HTTP and decision layers use.
 * Pure: no I/O, no clocks; randomness comes in as a RandomSource.
 */
export {
  routingKeyDefinitions,
  routingKeyDefinition,
  routingKeyTable,
  createRoutingKeyTable,
  routingKeysView,
  isAllowedEnumValue,
  type RoutingKeyDefinition,
  type RoutingKeyName,
  type RoutingKeyTable,
  type RoutingKeyType,
  type RoutingKeyView,
} from './routing-keys.js';
export {
  comparisonTypes,
  type Comparison,
  type ComparisonType,
  type ConnectorInfo,
  type EvaluationParameters,
  type IfStatement,
  type MetadataValue,
  type NumberComparison,
  type Program,
  type RoutingAlgorithm,
  type RoutingAlgorithmType,
  type Rule,
  type RuleOutput,
  type RuleRoutingType,
  type ValueType,
  type VolumeSplit,
} from '../ports/state/routing-algorithm.js';
export { parseRoutingAlgorithm, type RoutingAlgorithmParseResult, type RoutingAlgorithmRejection } from './parse-routing-algorithm.js';
export type { RuleValidationCode, RuleValidationIssue } from './rule-validation-issue.js';
export { compileRoutingAlgorithm, type CompiledRoutingAlgorithm } from './compile-routing-algorithm.js';
export {
  applyFallbackOutput,
  noActiveAlgorithmEvaluation,
  type EvaluationAnswer,
  type EvaluationOutput,
  type InterpreterError,
  type RuleEvaluation,
  type RuleEvaluationResult,
} from './rule-evaluation.js';
export {
  validateEvaluationParameters,
  type ParameterRejectionKind,
  type ParameterValidationResult,
} from './validate-evaluation-parameters.js';
