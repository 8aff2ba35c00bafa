import type { Estimate, Estimates } from './estimators.js';
import type { LoggedDecision } from './logged-decision.js';

/** The one estimate an operator should read, and which estimator it is. */
export interface RecommendedEstimate extends Estimate {
  /** `logged` when the candidate routes exactly as the logging policy did (its value is then the observed one). */
  readonly estimator: 'doubly_robust' | 'logged';
}

/** What the explanation weighs besides the estimates themselves. */
export interface ExplanationFacts {
  readonly labelled: readonly LoggedDecision[];
  readonly unsupportedShare: number;
  /** The candidate chooses as the logging policy did on every labelled decision. */
  readonly sameAsLogging: boolean;
  /** Set when the candidate differs from the logged configuration only by its elimination threshold. */
  readonly eliminationOnly: boolean;
}

/** A gateway whose success rate moved between the first and second half of the range. */
export interface Drift {
  readonly gateway: string;
  readonly firstHalf: number;
  readonly secondHalf: number;
}

/** Outcomes per half a gateway needs before its move is judged. */
const minDriftOutcomes = 30;
/** |z| of a two-proportion test beyond which a move is drift, not noise. */
const driftZ = 3;

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

/**
 * The recommended estimate and the sentence that goes with it. The recommendation is the doubly
 * robust estimate (unbiased when either the logged propensities or its gateway-rate model is right,
 * and the narrowest interval of the three), or the logged rate itself when the candidate routes
 * exactly as the logging policy did. The sentence says whether IPS, SNIPS and DR agree, and when
 * they do not, why, from the facts that make them part: a low effective sample size, importance
 * weights that do not average 1, choices the logs never made (overlap), and gateways whose success
 * rate moved within the range (drift).
 */
export function explainEstimates(
  estimates: Estimates,
  logged: Estimate,
  facts: ExplanationFacts,
): { readonly recommended: RecommendedEstimate; readonly explanation: string } {
  if (facts.sameAsLogging) {
    const why = facts.eliminationOnly
      ? 'This elimination threshold changes no decision in the range: success and failure feedback never move a gateway’s elimination score (only the pending statuses PENDING_VBV and STARTED lower it, and a success raises it back), so no logged elimination score fell between the two thresholds'
      : 'The candidate chooses exactly as the logging policy did on every decision in the range';
    return {
      recommended: { ...logged, estimator: 'logged' },
      explanation: `${why}; its success rate is the one observed, ${percent(logged.value)}, not an estimate.`,
    };
  }
  const { ips, snips, doublyRobust: dr } = estimates;
  const recommended: RecommendedEstimate = { ...dr, estimator: 'doubly_robust' };
  const widened =
    facts.unsupportedShare > 0
      ? `, widened for the ${percent(facts.unsupportedShare)} of its choices the logs never made in the same situation, which could have gone either way`
      : '';
  const head = `Doubly robust: ${percent(dr.value)} (95 % interval ${percent(dr.ci95[0])} to ${percent(dr.ci95[1])}${widened})`;
  const ipsApart = Math.abs(ips.value - dr.value) > 1.96 * Math.max(ips.standardError, dr.standardError);
  const snipsApart = Math.abs(snips.value - dr.value) > 1.96 * Math.max(snips.standardError, dr.standardError);
  if (!ipsApart && !snipsApart) {
    return {
      recommended,
      explanation: `${head}; IPS (${percent(ips.value)}) and SNIPS (${percent(snips.value)}) agree within their noise, and DR is recommended as the steadiest of the three.`,
    };
  }
  const reasons: string[] = [];
  const n = facts.labelled.length;
  if (Math.abs(estimates.meanWeight - 1) > 0.05) {
    reasons.push(
      `the importance weights average ${estimates.meanWeight.toFixed(2)} instead of 1, which scales IPS by as much (SNIPS divides it out, DR corrects it with its gateway model)`,
    );
  }
  if (estimates.effectiveSampleSize < 0.3 * n) {
    reasons.push(
      `the ${n} decisions with outcomes are worth only ${Math.round(estimates.effectiveSampleSize)} under this candidate (effective sample size), so IPS and SNIPS rest on a few heavily weighted decisions`,
    );
  }
  if (facts.unsupportedShare > 0) {
    reasons.push(`IPS and SNIPS count the choices never logged in the same situation (overlap) as failures, while DR's model speaks for them`);
  }
  const drift = driftOf(facts.labelled);
  if (drift.length > 0) {
    const moves = drift.map((move) => `${move.gateway} ${percent(move.firstHalf)} → ${percent(move.secondHalf)}`).join(', ');
    reasons.push(
      `success rates moved within the range (${moves}), which DR's range-wide gateway model averages over while its weighted correction follows them`,
    );
  }
  const apart = [ipsApart ? `IPS (${percent(ips.value)})` : '', snipsApart ? `SNIPS (${percent(snips.value)})` : '']
    .filter((part) => part !== '')
    .join(' and ');
  const because =
    reasons.length === 0
      ? 'with no low effective sample size, skewed weights, missing overlap or drift to blame, the gap is the noise of the weighted estimators'
      : reasons.join('; ');
  return { recommended, explanation: `${head}; ${apart} differ by more than their noise explains: ${because}.` };
}

/**
 * Gateways whose success rate differs between the first and second half of the labelled decisions
 * (in decision order) by more than noise: each half holding at least 30 outcomes of the gateway and
 * a two-proportion |z| above 3.
 */
export function driftOf(labelled: readonly LoggedDecision[]): Drift[] {
  const half = Math.floor(labelled.length / 2);
  const counts = new Map<string, [{ n: number; s: number }, { n: number; s: number }]>();
  labelled.forEach((decision, index) => {
    let entry = counts.get(decision.gateway);
    if (entry === undefined) {
      entry = [
        { n: 0, s: 0 },
        { n: 0, s: 0 },
      ];
      counts.set(decision.gateway, entry);
    }
    const part = entry[index < half ? 0 : 1];
    part.n += 1;
    if (decision.success) part.s += 1;
  });
  const drift: Drift[] = [];
  for (const [gateway, [first, second]] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    if (first.n < minDriftOutcomes || second.n < minDriftOutcomes) continue;
    const p1 = first.s / first.n;
    const p2 = second.s / second.n;
    const pooled = (first.s + second.s) / (first.n + second.n);
    const se = Math.sqrt(pooled * (1 - pooled) * (1 / first.n + 1 / second.n));
    if (se > 0 && Math.abs(p2 - p1) / se > driftZ) drift.push({ gateway, firstHalf: p1, secondHalf: p2 });
  }
  return drift;
}
