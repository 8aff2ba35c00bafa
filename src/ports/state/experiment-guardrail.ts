/**
 * What ran the guardrail check that stopped an experiment: the periodic job. `results_read` only
 * on records written before reads became side-effect free (a read never stops an experiment now).
 */
export type GuardrailTrigger = 'schedule' | 'results_read';

/**
 * An experiment stopped by its guardrail (ConfigStore document `experimentGuardrail`, one per
 * merchant: a merchant runs at most one experiment). The stop itself is the experiment's
 * deactivation (the active rule stays); this document is its record, so the dashboard and the
 * results can say when, why and on what evidence the experiment was stopped.
 *
 * @remarks Written by src/experiments/check-experiment-guardrail.ts. Reactivating the experiment
 * starts a new observation period: later checks read only payments decided after `trippedAt`.
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
  /** Absent on records written before the stop recorded its evidence. */
  readonly trigger?: GuardrailTrigger;
  /** Resolved payments (a success or failure feedback) per arm, the sample the rates come from. */
  readonly controlTransactions?: number;
  readonly variantTransactions?: number;
  /** The observation window's start (epoch ms): the experiment's creation, or its restart after an earlier stop. */
  readonly windowStartMs?: number;
  /** The test that stopped it: the always-valid mSPRT (src/experiments/sequential-test.ts); absent on older records (a point estimate then). */
  readonly test?: 'msprt';
  /** variant − control auth rate at the stop, percentage points. */
  readonly deltaPp?: number;
  /** The always-valid p-value of "the arms' auth rates are equal" at the stop. */
  readonly pValue?: number;
  /** The always-valid 95 % confidence sequence of the auth delta at the stop, percentage points. */
  readonly confidenceIntervalPp?: readonly [number, number];
}
