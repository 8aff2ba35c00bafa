/**
 * A tripped experiment guardrail (ConfigStore document `experimentGuardrail`, one per merchant: a
 * merchant has at most one active experiment). The decision path reads it, through the config
 * cache, only while an `ab_test` algorithm is active; when it names that experiment at its current
 * version (`experimentModifiedAt`), every payment goes to the control arm.
 *
 * @remarks Written when results are computed with the experiment's stored thresholds
 * (src/experiments/experiment-results.ts). Editing the experiment (only possible while inactive)
 * changes its modifiedAt, so the trip no longer applies to the edited version.
 */
export interface ExperimentGuardrailTrip {
  readonly experimentId: string;
  /** The experiment record's modifiedAt when it tripped (epoch ms). */
  readonly experimentModifiedAt: number;
  /** Epoch ms. */
  readonly trippedAt: number;
  readonly controlAuthRate: number;
  readonly variantAuthRate: number;
  readonly thresholdPp: number;
}
