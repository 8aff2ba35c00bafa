import type { RoutingAlgorithm } from './routing-algorithm.js';
import type { NotHeld } from './held-read.js';

/**
 * The slots an algorithm is active in (one active per merchant and slot). `volume_commitment` (the
 * peer's dedicated slot for `volume_contract` documents) comes last: evaluation and decisions route
 * by the first active algorithm, which is never a contract while a routing rule is active.
 */
export const algorithmForValues = ['payment', 'payout', 'three_ds_authentication', 'volume_commitment'] as const;
export type AlgorithmFor = (typeof algorithmForValues)[number];

/** One stored routing algorithm (decision-engine `routing_algorithm` row). `createdBy` is the merchant. */
export interface RoutingAlgorithmRecord {
  readonly id: string;
  readonly createdBy: string;
  readonly name: string;
  readonly description: string;
  readonly algorithmFor: AlgorithmFor;
  /** The parsed, normalised algorithm (`{type, data}`), as returned by parseRoutingAlgorithm. */
  readonly algorithm: RoutingAlgorithm;
  /** Stored, never returned (1.4.x behaviour). */
  readonly metadata: unknown;
  /** Epoch ms. */
  readonly createdAt: number;
  readonly modifiedAt: number;
}

/**
 * The experiment slot beside an `algorithmFor`'s rule slot (decision-engine #434's
 * `{algorithm_for}_experiment` mapper row): an `ab_test` algorithm is activated there, so the active
 * rule stays active while the experiment runs and after it stops.
 */
export type ExperimentSlot = `${AlgorithmFor}_experiment`;

/** A slot of the active mapping: an `algorithmFor` (its rule) or its experiment slot. */
export type ActiveSlot = AlgorithmFor | ExperimentSlot;

export function experimentSlotOf(algorithmFor: AlgorithmFor): ExperimentSlot {
  return `${algorithmFor}_experiment`;
}

/**
 * The active mapping of one merchant: at most one algorithm per slot (one rule per `algorithmFor`,
 * one experiment beside it). An experiment activated before the slot existed sits in the rule slot
 * and is still honoured there.
 */
export type ActiveRoutingAlgorithms = Readonly<Partial<Record<ActiveSlot, string>>>;

export interface RoutingRuleStore {
  /** Stores a new algorithm; 'exists' when the id is taken (client-supplied `rule_id`). */
  create(record: RoutingAlgorithmRecord): Promise<'created' | 'exists'>;
  get(id: string): Promise<RoutingAlgorithmRecord | undefined>;
  /** Every algorithm of a merchant, oldest first. */
  list(createdBy: string): Promise<readonly RoutingAlgorithmRecord[]>;
  /**
   * Replaces name, description, algorithm and modifiedAt of an existing record, atomically refusing
   * while it is active for its owner.
   */
  update(record: RoutingAlgorithmRecord): Promise<'updated' | 'missing' | 'active'>;
  /** Deletes an algorithm of `createdBy`, atomically refusing while it is active. */
  delete(createdBy: string, id: string): Promise<'deleted' | 'missing' | 'active'>;
  /** Makes `id` the active algorithm of (createdBy, slot), replacing any other in that slot. */
  activate(createdBy: string, slot: ActiveSlot, id: string): Promise<void>;
  /** Clears the mapping of (createdBy, slot) when it points at `id`; false when it did not. */
  deactivate(createdBy: string, slot: ActiveSlot, id: string): Promise<boolean>;
  /** The merchant's active mapping. */
  activeIds(createdBy: string): Promise<ActiveRoutingAlgorithms>;
  /**
   * The merchant's active algorithms, the rule slots first (`payment` first) and the experiment
   * slots after them (what evaluation and decisions read; the caching decorator serves it from
   * memory until an invalidation). One read gives both the rule and the running experiment.
   */
  loadActive(createdBy: string): Promise<readonly RoutingAlgorithmRecord[]>;
  /** {@link loadActive} answered synchronously when held in process memory, else {@link notHeld} (see MerchantStore.held). */
  readonly heldActive?: (createdBy: string) => readonly RoutingAlgorithmRecord[] | NotHeld;
  /** Changes whenever any answer of {@link heldActive} may have changed (see MerchantStore.heldVersion). */
  readonly heldVersion?: () => number;
}
