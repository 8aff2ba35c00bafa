/** One PSP as the post-step saw it: its auth rate (SR score) and its processing cost (null without fee data). */
export interface PspSummary {
  readonly psp: string;
  readonly authRate: number;
  readonly costBps: number | null;
}

/**
 * The `multi_objective_info` block of a /decide-gateway answer (decision-engine's documented
 * fields), present only when the cost-aware post-step ran.
 */
export interface MultiObjectiveInfo {
  readonly outcome: 'COST_WON' | 'AUTH_WON';
  readonly reason: string;
  /** What plain SR routing picked. */
  readonly srHead: PspSummary | null;
  /** What the post-step picked; equals `srHead` when auth won. */
  readonly chosen: PspSummary | null;
  /** srHead.costBps − chosen.costBps on COST_WON, else null. */
  readonly costSavedBps: number | null;
  /** How many PSPs had fee data and were ranked on expected value. */
  readonly qualifiedCount: number;
  /** The merchant's margin (fraction of ticket) applied. */
  readonly margin: number;
  /** EV(#1) − EV(#2) among the ranked PSPs, as a fraction of ticket; null with fewer than two. */
  readonly evGapTop2: number | null;
}
