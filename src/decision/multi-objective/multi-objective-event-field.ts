import type { Decision } from '../decision.js';

/** decision.created's `multiObjective` mark (schemas/events/decision.created.v1.json). */
export interface MultiObjectiveEventField {
  readonly outcome: 'COST_WON' | 'AUTH_WON';
  /** The gateway plain SR routing picked. */
  readonly srHead: string | null;
  /** The gateway decided. */
  readonly chosen: string | null;
  readonly chosenCostBps: number | null;
  /** Fee saved against the SR head in bps on COST_WON, else null. */
  readonly costSavedBps: number | null;
  /** Money saved against the SR head (amount × costSavedBps / 10 000) in the payment's currency on COST_WON, else 0. */
  readonly savedValue: number;
}

/**
 * The additive `multiObjective` field: present when the cost-aware post-step ran, so the sr-windows
 * and analytics consumers can tell cost-routed picks (COST_WON) from SR picks.
 */
export function multiObjectiveFieldOf(decision: Decision): { multiObjective?: MultiObjectiveEventField } {
  const info = decision.multiObjectiveInfo;
  if (info === undefined) return {};
  const saved = info.costSavedBps;
  return {
    multiObjective: {
      outcome: info.outcome,
      srHead: info.srHead?.psp ?? null,
      chosen: info.chosen?.psp ?? null,
      chosenCostBps: info.chosen?.costBps ?? null,
      costSavedBps: saved,
      savedValue: saved === null ? 0 : (decision.payment.amount * saved) / 10_000,
    },
  };
}
