import type { SteeringPlan } from '../ports/state/volume-commitment.js';

/** Why a payment was or was not moved: the decide response's `volume_steer_info` (the peer's `VolumeSteerInfo`). */
export interface VolumeSteerInfo {
  readonly outcome: 'STEERED' | 'SR_PREVAILED';
  readonly reason: string;
  /** The PSP normal routing picked. */
  readonly srHead: string | null;
  /** The PSP decided (the SR head when nothing moved). */
  readonly chosen: string | null;
  /** Approval rate given up against the SR head, as a fraction; null when nothing moved. */
  readonly srGapConceded: number | null;
  /** The steered PSP's share of eligible payments when the roll happened; null when nothing moved. */
  readonly steerRate: number | null;
  /** PSPs that needed extra volume when the payment arrived. */
  readonly steeringCount: number;
  /** The contract execution a steer belongs to. */
  readonly runId: string | null;
}

export interface SteerOutcome {
  /** Set only when the payment moved. */
  readonly chosen: string | undefined;
  readonly info: VolumeSteerInfo;
}

/**
 * The per-payment decision, the only part of volume commitments on the routing path. A behind-pace
 * PSP takes the payment only when the plan is fresh, its cycle is still open, it is a candidate
 * that approves within the tolerance of the SR head, and a roll lands under the rate the forecast
 * published for it. Sampling a rate, not counting volume, keeps this stateless across replicas.
 * The plan lists PSPs by reward, so the first that passes every check wins a contested payment.
 * `roll` is drawn only for PSPs that passed the other checks.
 */
export function steerPayment(scores: Readonly<Record<string, number>>, srHead: string, plan: SteeringPlan, nowMs: number, roll: () => number): SteerOutcome {
  let steeringCount = 0;
  for (const psp of plan.psps) if (psp.needsSteering) steeringCount += 1;
  const headScore = scores[srHead];
  if (nowMs > plan.staleAfterMs) {
    return kept(srHead, 'The pacing plan has expired without a fresh forecast; normal routing keeps this payment.', steeringCount);
  }
  if (headScore !== undefined) {
    for (const psp of plan.psps) {
      if (!psp.needsSteering || psp.connector === srHead || nowMs >= psp.periodEndMs) continue;
      const score = scores[psp.connector];
      if (score === undefined) continue; // not a candidate for this payment
      const conceded = Math.max(0, headScore - score);
      if (conceded > plan.tolerance || roll() >= psp.steerRate) continue;
      return {
        chosen: psp.connector,
        info: {
          outcome: 'STEERED',
          reason: `Sent to ${psp.connector} to help meet its volume commitment (worth ${psp.reward.toFixed(0)}). It is taking ${(psp.steerRate * 100).toFixed(1)}% of eligible payments; gave up ${conceded.toFixed(4)} approval rate versus ${srHead}, within the ${plan.tolerance.toFixed(4)} allowed.`,
          srHead,
          chosen: psp.connector,
          srGapConceded: conceded,
          steerRate: psp.steerRate,
          steeringCount,
          runId: plan.runId,
        },
      };
    }
  }
  return kept(
    srHead,
    steeringCount === 0
      ? 'Every commitment is on track; normal routing keeps this payment.'
      : 'No PSP behind on its commitment was both close enough on approval and selected by its steering rate; normal routing keeps this payment.',
    steeringCount,
  );
}

function kept(srHead: string, reason: string, steeringCount: number): SteerOutcome {
  return {
    chosen: undefined,
    info: { outcome: 'SR_PREVAILED', reason, srHead, chosen: srHead, srGapConceded: null, steerRate: null, steeringCount, runId: null },
  };
}
