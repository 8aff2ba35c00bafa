import type { DecideGatewayRequest, EliminationConfig, PaymentDimensions, SrDimensionConfig, SuccessRateConfig } from '../generated/schema-types.js';
import type { MerchantAccount } from '../ports/state-store.js';
import type { CostModel } from '../ports/state/cost-model.js';
import type { MerchantFeatureFlags } from '../ports/state/merchant-features.js';
import type { SeedCostTable } from '../ports/state/seed-costs.js';
import type { MultiObjectiveInfo } from './multi-objective/multi-objective-info.js';
import type { DebitRoutingOutput } from './network/debit-routing-output.js';
import type { CoBadgedProblem } from './network/parse-co-badged-metadata.js';
import type { DecisionPolicyLog } from './policy/decision-policy.js';
import type { PriorityLogicOutput } from './priority-logic-output.js';
import type { ResetApproach, RoutingApproach } from './routing-approach.js';
import type { StickyInfo } from './sticky/sticky-info.js';

/**
 * What a decision needs besides the request and the score store. The API layer fetches these
 * through its caches, so the decision path itself only awaits score reads.
 */
export interface DecisionInputs {
  readonly merchant: MerchantAccount | undefined;
  readonly successRate: SuccessRateConfig | undefined;
  readonly elimination: EliminationConfig | undefined;
  readonly srDimension: SrDimensionConfig | undefined;
  readonly debitRoutingEnabled: boolean;
  /** The merchant's active routing algorithms (payment first); undefined or [] when none. */
  readonly activeRules?: readonly import('../ports/state-store.js').RoutingAlgorithmRecord[];
  /** The active rule as applied to this payment (see src/routing-rules/apply-active-rule.ts). */
  readonly rule?: DecisionRule;
  /** The merchant's feature flags (`multi-objective-routing` switches the cost-aware post-step). */
  readonly features?: MerchantFeatureFlags;
  /** The merchant's saved seed cost table; absent: the default table. */
  readonly seedCosts?: SeedCostTable;
  /** The merchant's served cost model (cost ingestion); absent until one is fitted. */
  readonly costModel?: CostModel;
}

/**
 * A routing rule's verdict for one payment: the eligible gateways it kept, in its order (the
 * request's candidates are already narrowed to these), and the rule's name as priority-logic tag.
 */
export interface DecisionRule {
  readonly name: string;
  readonly gateways: readonly string[];
}

/**
 * A decided gateway: everything the decision-engine 1.4.x response carries (camelCase; the API
 * writes the snake_case wire keys and adds latency and the constant fields), plus what the
 * `decision.created` event and later feedback need.
 */
export interface Decision {
  readonly decidedGateway: string;
  /** The other candidates by descending final score, ties in eligible-list order. */
  readonly fallbackGateways: readonly string[];
  /** Final score per candidate in eligible-list order; null for network routing. */
  readonly gatewayPriorityMap: Readonly<Record<string, number>> | null;
  readonly routingApproach: RoutingApproach;
  /** Top gateway before elimination; null for network routing. */
  readonly gatewayBeforeEvaluation: string | null;
  readonly priorityLogicOutput: PriorityLogicOutput | null;
  readonly debitRoutingOutput: DebitRoutingOutput | null;
  readonly resetApproach: ResetApproach;
  readonly routingDimension: string | null;
  readonly routingDimensionLevel: string | null;
  readonly isScheduledOutage: boolean;

  /** The request's algorithm (null when absent); NTW_SR_HYBRID_ROUTING stays as sent. */
  readonly rankingAlgorithm: DecideGatewayRequest['rankingAlgorithm'] | null;
  /** SR window key without the gateway suffix; null for network routing, whose gateway is not consumed. */
  readonly windowDimension: string | null;
  /** Elimination key without the gateway part; see eliminationDimensionOf for how feedback splits it. */
  readonly eliminationDimension: string;
  readonly payment: PaymentDimensions;
  /** Whether feedback on this decision moves elimination scores. */
  readonly eliminationEnabled: boolean;
  /** Clock time of the decision, epoch ms. */
  readonly decidedAt: number;
  /** What the cost-aware post-step did (src/decision/multi-objective/); absent when it did not run. */
  readonly multiObjectiveInfo?: MultiObjectiveInfo;
  /** What volume-commitment steering did (src/volume-commitment/); absent when it did not run. */
  readonly volumeSteerInfo?: import('../volume-commitment/steer-payment.js').VolumeSteerInfo;
  /** What the policy saw and how it could have chosen (candidates, scores, parameters, hedging branch); absent for network routing. */
  readonly policy?: DecisionPolicyLog;
  /** What sticky routing did (src/decision/sticky/); absent unless it was on for a payment naming a customer. */
  readonly sticky?: StickyInfo;
}

/**
 * Why no gateway was decided. `message` is the decision-engine wire `error_message`, verbatim;
 * the API maps `kind` to the 1.4.x error envelope.
 */
export type DecisionFailure =
  | { readonly kind: 'merchant_not_found'; readonly message: string }
  | {
      readonly kind: 'gateway_not_found';
      readonly message: string;
      /** Upstream includes the computed priority-logic output in this error. */
      readonly priorityLogicOutput: PriorityLogicOutput | null;
    }
  | { readonly kind: 'debit_routing_not_enabled'; readonly message: string }
  | {
      readonly kind: 'co_badged_network_not_found';
      readonly message: string;
      readonly problem: CoBadgedProblem;
      /** What is wrong with the metadata, for the developer message. */
      readonly detail: string;
    }
  | { readonly kind: 'invalid_input'; readonly message: string };

export type DecisionOutcome = { readonly ok: true; readonly decision: Decision } | { readonly ok: false; readonly failure: DecisionFailure };
