/** One candidate of a decision as the policy saw it, before hedging and elimination touched its score. */
export interface PolicyCandidate {
  readonly gateway: string;
  /** Routing score before hedging and elimination (SR score, priority score, or 1.0). */
  readonly score: number;
  /** The live (unexpired) elimination score, or null when elimination did not look at it. */
  readonly eliminationScore: number | null;
}

/**
 * The knobs of the decision rule that turn candidate scores into a pick. Re-running the rule with
 * other knobs on the same candidates is how a candidate configuration is evaluated offline.
 */
export interface PolicyParameters {
  /** Percent (0–100) of decisions that demote the top gateway; 0 when hedging does not apply. */
  readonly hedgingPercent: number;
  /** Elimination threshold; null when elimination was off for the decision. */
  readonly eliminationThreshold: number | null;
  readonly eliminationDivisor: number;
}

/**
 * What a decision logs about the policy that made it (Decision.policy): the candidates with their
 * scores, the parameters, the SR bucket size the scores were read with (null without SR scoring),
 * and which branch of the single hedging draw was taken.
 */
export interface DecisionPolicyLog extends PolicyParameters {
  readonly candidates: readonly PolicyCandidate[];
  readonly bucketSize: number | null;
  readonly hedged: boolean;
}

/** The probability of hedging in one draw: `u ∈ [0, 100) < hedgingPercent` (src/decision/hedging.ts). */
export function hedgeProbability(hedgingPercent: number): number {
  if (!(hedgingPercent > 0)) return 0;
  return Math.min(hedgingPercent, 100) / 100;
}

/** Parameters that leave every score as it is: no hedging, no elimination. */
const rawScores: PolicyParameters = { hedgingPercent: 0, eliminationThreshold: null, eliminationDivisor: 1 };

/**
 * The deterministic pick of one branch of the hedging draw: the top score (ties → listed first);
 * when hedged the top gateway scores 0.5 and every other 1.0; then elimination divides every
 * candidate whose elimination score is below the threshold. The same steps, in the same order, as
 * decideGateway (hedging.ts, elimination.ts). -1 for no candidates.
 */
export function pickIndex(candidates: readonly PolicyCandidate[], parameters: PolicyParameters, hedged: boolean): number {
  // One pass over the candidates, the hedged and divided scores computed in place of an array of
  // them: this runs for every decision logged with hedging on (the branch not taken, propensityOf)
  // and for every logged decision a counterfactual evaluation replays.
  const hedging = hedged && candidates.length >= 2;
  // The top the hedging draw demotes: the best raw score (ties: the lowest index), this pick unhedged and undivided.
  const top = hedging ? pickIndex(candidates, rawScores, false) : -1;
  const threshold = parameters.eliminationThreshold;
  let best = -1;
  let bestScore = -Infinity;
  for (let index = 0; index < candidates.length; index += 1) {
    const candidate = candidates[index] as PolicyCandidate;
    let score = hedging ? (index === top ? 0.5 : 1) : candidate.score;
    if (threshold !== null) {
      const elimination = candidate.eliminationScore;
      if (elimination != null && elimination < threshold) score /= parameters.eliminationDivisor;
    }
    // Ties go to the lowest index, as bestScoreIndex's.
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The probability of each candidate under the policy `parameters`: both branches of the single
 * hedging draw evaluated exactly. Gateways with probability 0 are absent.
 */
export function actionProbabilities(candidates: readonly PolicyCandidate[], parameters: PolicyParameters): ReadonlyMap<string, number> {
  const probabilities = new Map<string, number>();
  const hedge = candidates.length >= 2 ? hedgeProbability(parameters.hedgingPercent) : 0;
  const add = (index: number, probability: number) => {
    const gateway = candidates[index]?.gateway;
    if (gateway === undefined || probability <= 0) return;
    probabilities.set(gateway, (probabilities.get(gateway) ?? 0) + probability);
  };
  add(pickIndex(candidates, parameters, false), 1 - hedge);
  add(pickIndex(candidates, parameters, true), hedge);
  return probabilities;
}

/**
 * The propensity of the gateway a decision actually chose: the summed probability of the branches
 * that end on it. The branch that was taken is credited with the decided gateway itself, so a
 * deterministic step after scoring (such as a cost post-step, which never runs while hedging)
 * cannot make the logged choice look impossible.
 */
export function propensityOf(log: DecisionPolicyLog, decidedGateway: string): number {
  const hedge = log.candidates.length >= 2 ? hedgeProbability(log.hedgingPercent) : 0;
  // The two branches of the draw, unhedged then hedged, without an array of them per decision.
  const propensity = branchPropensity(log, decidedGateway, false, 1 - hedge) + branchPropensity(log, decidedGateway, true, hedge);
  // The taken branch always counts, so this is > 0 whenever the branch itself was possible.
  return propensity > 0 ? propensity : 1;
}

/** `probability` when the branch (`hedged` or not) ends on the decided gateway (the taken one always does), else 0. */
function branchPropensity(log: DecisionPolicyLog, decidedGateway: string, hedged: boolean, probability: number): number {
  if (probability <= 0) return 0;
  const gateway = hedged === log.hedged ? decidedGateway : log.candidates[pickIndex(log.candidates, log, hedged)]?.gateway;
  return gateway === decidedGateway ? probability : 0;
}
