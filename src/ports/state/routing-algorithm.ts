import type { VolumeContractConfig } from './volume-commitment.js';

/**
 * The euclid routing-algorithm model (decision-engine 1.4.x `/routing/*`), in its wire shapes.
 *
 * These are the shapes AFTER `parseRoutingAlgorithm` has checked and normalised a body: alias keys
 * (`routingType`, `routingOutput`) are folded into `routing_type` / `output`, `gateway_id` is always
 * present (string or null) and every comparison carries a `metadata` object. Serialising a parsed
 * algorithm with `JSON.stringify` gives the canonical stored form, and parsing that again gives an
 * equal value (a property test holds us to it).
 */

/** A connector (gateway) an algorithm can route to. */
export interface ConnectorInfo {
  readonly gateway_name: string;
  readonly gateway_id: string | null;
}

export const comparisonTypes = ['equal', 'not_equal', 'less_than', 'less_than_equal', 'greater_than', 'greater_than_equal'] as const;
export type ComparisonType = (typeof comparisonTypes)[number];

export interface NumberComparison {
  readonly comparison_type: ComparisonType;
  readonly number: number;
}

export interface MetadataValue {
  readonly key: string;
  readonly value: string;
}

/**
 * A typed value, externally tagged as `{"type": …, "value": …}`. Numbers are unsigned 64-bit on the
 * reference side; we accept non-negative safe integers (2^53 − 1), which covers every amount in minor
 * units that a payment can carry.
 */
export type ValueType =
  | { readonly type: 'number'; readonly value: number }
  | { readonly type: 'enum_variant'; readonly value: string }
  | { readonly type: 'metadata_variant'; readonly value: MetadataValue }
  | { readonly type: 'str_value'; readonly value: string }
  | { readonly type: 'global_ref'; readonly value: string }
  | { readonly type: 'number_array'; readonly value: readonly number[] }
  | { readonly type: 'enum_variant_array'; readonly value: readonly string[] }
  | { readonly type: 'number_comparison_array'; readonly value: readonly NumberComparison[] };

export type ValueTypeName = ValueType['type'];
export const valueTypeNames: readonly ValueTypeName[] = [
  'number',
  'enum_variant',
  'metadata_variant',
  'str_value',
  'global_ref',
  'number_array',
  'enum_variant_array',
  'number_comparison_array',
];

/** One condition: `parameters[lhs] <comparison> value`. `metadata` is carried through untouched. */
export interface Comparison {
  readonly lhs: string;
  readonly comparison: ComparisonType;
  readonly value: ValueType;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/**
 * A statement holds when ALL its conditions hold and, if `nested` is present, ANY nested statement
 * holds (recursively). `nested` is absent rather than null when the body had none.
 */
export interface IfStatement {
  readonly condition: readonly Comparison[];
  readonly nested?: readonly IfStatement[];
}

export interface VolumeSplit<T> {
  readonly split: number;
  readonly output: T;
}

/** A rule's (or the default selection's) output, externally tagged snake_case as on the wire. */
export type RuleOutput =
  | { readonly single: ConnectorInfo }
  | { readonly priority: readonly ConnectorInfo[] }
  | { readonly volume_split: readonly VolumeSplit<ConnectorInfo>[] }
  | { readonly volume_split_priority: readonly VolumeSplit<readonly ConnectorInfo[]>[] };

export const ruleRoutingTypes = ['priority', 'volume_split', 'volume_split_priority'] as const;
export type RuleRoutingType = (typeof ruleRoutingTypes)[number];

export interface Rule {
  readonly name: string;
  readonly routing_type: RuleRoutingType;
  readonly output: RuleOutput;
  readonly statements: readonly IfStatement[];
}

/** The `advanced` algorithm's data: rules tried in order, then `default_selection`. */
export interface Program {
  /** Named value sets, referred to by `{"type":"global_ref","value":<name>}`. */
  readonly globals: Readonly<Record<string, readonly ValueType[]>>;
  readonly default_selection: RuleOutput;
  readonly rules: readonly Rule[];
  readonly metadata: unknown;
}

/**
 * One arm's success-rate override (peer `SrConfigOverride`): each field set replaces the merchant's
 * live value for payments in that arm; absent fields keep the live value.
 */
export interface SrConfigOverride {
  readonly hedging_percent?: number;
  readonly elimination_threshold?: number;
  readonly enable_multi_objective?: boolean;
  readonly margin?: number;
  readonly use_autopilot?: boolean;
}

/** The id that stands for "success-rate routing" as an arm's algorithm (instead of a rule_id). */
export const srRoutingArm = 'sr_routing';

/**
 * One arm of an experiment as layers (decision-engine #434 `ExperimentArm`): a rule, an SR
 * strategy, or both. Each endpoint applies the layers it supports (src/experiments/experiment-arms.ts).
 */
export interface ExperimentArmLayers {
  /** The rule_id of another (non-experiment) algorithm of the same merchant. */
  readonly rule_algorithm_id?: string;
  /** Success-rate routing with this override (an empty object: the live settings). */
  readonly sr?: SrConfigOverride;
}

/** The endpoints an experiment can split traffic on (peer `ExperimentEndpoint`). */
export const experimentEndpoints = ['hybrid_routing', 'decide_gateway', 'evaluate'] as const;
export type ExperimentEndpoint = (typeof experimentEndpoints)[number];

/**
 * The `ab_test` algorithm's data (peer `ABTestData`); see docs/experiments.md. Each arm is given
 * either layered (`control` / `variant`) or in the single-strategy form (`*_algorithm_id`:
 * `sr_routing` with `*_sr_config`, or a rule_id); the layered form wins when both are given.
 */
export interface AbTestData {
  /** `sr_routing` or the rule_id of another (non-experiment) algorithm of the same merchant. */
  readonly control_algorithm_id?: string;
  readonly variant_algorithm_id?: string;
  readonly control?: ExperimentArmLayers;
  readonly variant?: ExperimentArmLayers;
  /** Where traffic is split; absent: every endpoint. */
  readonly endpoints?: readonly ExperimentEndpoint[];
  /** Percent of payments (1–49) sent to the variant. */
  readonly variant_split_pct: number;
  /** Resolved payments each arm needs before a verdict other than collecting_data. */
  readonly min_sample_size: number;
  /** Percentage points the variant's auth rate may fall below control's before the guardrail trips. */
  readonly guardrail_threshold_pp: number;
  readonly control_sr_config?: SrConfigOverride;
  readonly variant_sr_config?: SrConfigOverride;
}

/**
 * The algorithm union accepted by `/routing/create`. `volume_contract` is a merchant's volume
 * commitments (src/ports/state/volume-commitment.ts); it lives in its own `volume_commitment` slot. `volume_split_priority` exists only as an
 * advanced rule output. `ab_test` is an experiment between two arms (src/experiments/).
 */
export type RoutingAlgorithm =
  | { readonly type: 'single'; readonly data: ConnectorInfo }
  | { readonly type: 'priority'; readonly data: readonly ConnectorInfo[] }
  | { readonly type: 'volume_split'; readonly data: readonly VolumeSplit<ConnectorInfo>[] }
  | { readonly type: 'advanced'; readonly data: Program }
  | { readonly type: 'ab_test'; readonly data: AbTestData }
  | { readonly type: 'volume_contract'; readonly data: VolumeContractConfig };

export type RoutingAlgorithmType = RoutingAlgorithm['type'];

/** `/routing/evaluate` parameters: key → typed value; null (or absent) makes every condition on it false. */
export type EvaluationParameters = Readonly<Record<string, ValueType | null | undefined>>;
