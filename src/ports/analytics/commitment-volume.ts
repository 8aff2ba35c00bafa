/**
 * What each committed PSP was sent, per contract day: the volume-commitment forecaster's and
 * dashboard's one read (src/volume-commitment/). Counted over the decisions that logged their
 * policy (migration 0007: every decision but network routing, whose gateway is not consumed).
 */

export interface CommitmentVolumeQuery {
  readonly merchantId: string;
  /** The PSPs to count (others are left out). */
  readonly connectors: readonly string[];
  /** Inclusive start (the cycle's opening), wall-clock ms; day 0 starts here. */
  readonly sinceMs: number;
  /** Exclusive end, wall-clock ms. */
  readonly untilMs: number;
  /** One contract day in ms (86,400,000, or 60,000 on a test cycle). */
  readonly dayMs: number;
  /** The routing_approach of steered decisions (`SR_SELECTION_VOLUME_COMMITMENT`). */
  readonly steeredApproach: string;
}

/** One PSP on one contract day. Amounts are as the decisions carried them (the payment's amount). */
export interface CommitmentDayVolume {
  readonly connector: string;
  /** Contract days since `sinceMs`, from 0. */
  readonly dayIndex: number;
  readonly payments: number;
  readonly amount: number;
  /** Of those, what steering moved here. */
  readonly steeredPayments: number;
  readonly steeredAmount: number;
}
