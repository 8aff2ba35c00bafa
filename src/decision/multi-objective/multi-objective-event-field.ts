import type { Decision } from '../decision.js';
import { expectedValue } from './rank-by-expected-value.js';

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
  /**
   * The saving net of the approvals the cheaper gateway is expected to lose, in the payment's
   * currency on COST_WON, else 0: amount × (EV(chosen) − EV(SR head)), EV = auth × (margin − cost),
   * with the auth rates (SR scores) and margin the post-step decided on.
   */
  readonly netValue: number;
  /** Expected approvals lost against the SR head on COST_WON (SR head's auth rate − chosen's), else 0. */
  readonly approvalsLost: number;
}

/**
 * The additive `multiObjective` field: present when the cost-aware post-step ran, so the sr-windows
 * and analytics consumers can tell cost-routed picks (COST_WON) from SR picks. One object, built
 * field by field in the event's key order (a spread into the literal would take V8's generic copy).
 */
export function multiObjectiveFieldOf(decision: Decision): MultiObjectiveEventField | undefined {
  const info = decision.multiObjectiveInfo;
  if (info === undefined) return undefined;
  const saved = info.costSavedBps;
  const head = info.srHead;
  const chosen = info.chosen;
  // The EV gain and the auth given up of a COST_WON pick; zeros for AUTH_WON or a side without a cost.
  const priced = info.outcome === 'COST_WON' && head != null && chosen != null && head.costBps !== null && chosen.costBps !== null;
  return {
    outcome: info.outcome,
    srHead: head?.psp ?? null,
    chosen: chosen?.psp ?? null,
    chosenCostBps: chosen?.costBps ?? null,
    costSavedBps: saved,
    savedValue: saved === null ? 0 : (decision.payment.amount * saved) / 10_000,
    netValue: priced
      ? decision.payment.amount *
        (expectedValue(chosen.authRate, chosen.costBps as number, info.margin) - expectedValue(head.authRate, head.costBps as number, info.margin))
      : 0,
    approvalsLost: priced ? head.authRate - chosen.authRate : 0,
  };
}
