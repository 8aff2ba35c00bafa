import type { RoutingAlgorithmListItem } from '../api/routing-api';

/**
 * What activating or deactivating an algorithm does to live payment traffic, in words, for the
 * confirmation asked before it (docs/experiments.md, the experiment slot). The API's behaviour
 * (src/routing-rules/manage-routing-algorithms.ts):
 *
 * - a rule goes into its `algorithm_for` slot, replacing the rule there; a running experiment keeps
 *   running beside it (one left in the rule slot by an older activation moves to its own slot);
 * - an experiment goes into the experiment slot, replacing the experiment there; the rule stays;
 * - deactivating either leaves the other as it is: without a rule, payments the experiment does
 *   not cover go by success-rate routing over the request's gateways.
 */
export interface LiveChange {
  readonly title: string;
  readonly confirmLabel: string;
  readonly text: string;
}

export const isExperiment = (rule: RoutingAlgorithmListItem) => rule.algorithm_data.type === 'ab_test';

const noRule = "success-rate routing over each request's gateways";

/** A volume contract has its own slot (`volume_commitment`): it steers volume beside the rule, it routes nothing by itself. */
const isVolumeContract = (rule: RoutingAlgorithmListItem) => rule.algorithm_for === 'volume_commitment';

function variantShare(experiment: RoutingAlgorithmListItem): string {
  const data = experiment.algorithm_data.data as { readonly variant_split_pct?: unknown };
  return typeof data.variant_split_pct === 'number' ? `${data.variant_split_pct} % of payments` : 'its share of payments';
}

/** The active algorithms other than `rule`: the rule of `rule`'s slot and the running experiment. */
function activeBeside(rule: RoutingAlgorithmListItem, rules: readonly RoutingAlgorithmListItem[], activeIds: ReadonlySet<string>) {
  const others = rules.filter((other) => other.id !== rule.id && activeIds.has(other.id));
  return {
    rule: others.find((other) => !isExperiment(other) && other.algorithm_for === rule.algorithm_for),
    experiment: others.find(isExperiment),
  };
}

/** The confirmation before activating `rule`. */
export function activationChange(rule: RoutingAlgorithmListItem, rules: readonly RoutingAlgorithmListItem[], activeIds: ReadonlySet<string>): LiveChange {
  const beside = activeBeside(rule, rules, activeIds);
  const title = `Activate ${rule.name}?`;
  if (isExperiment(rule)) {
    const routedBy = beside.rule === undefined ? noRule : `the active rule “${beside.rule.name}”`;
    const stops = beside.experiment === undefined ? '' : `The running experiment “${beside.experiment.name}” stops: a merchant runs one experiment at a time. `;
    return {
      title,
      confirmLabel: beside.experiment === undefined ? `Start ${rule.name}` : `Activate and stop ${beside.experiment.name}`,
      text: `${stops}“${rule.name}” starts splitting live payments: ${variantShare(rule)} go by its variant arm, the others by its control arm. Payments it does not cover stay with ${routedBy}; the active rule stays as it is.`,
    };
  }
  if (isVolumeContract(rule)) {
    const replaced = beside.rule === undefined ? '' : ` in place of “${beside.rule.name}”`;
    return {
      title,
      confirmLabel: beside.rule === undefined ? `Activate ${rule.name}` : `Activate and stop ${beside.rule.name}`,
      text: `“${rule.name}” starts steering live payments toward its volume commitments${replaced}, when the volume-contracts feature is on. The active rule and a running experiment stay as they are.`,
    };
  }
  const change =
    beside.rule === undefined
      ? `“${rule.name}” starts routing live ${rule.algorithm_for} traffic in place of ${noRule}.`
      : `“${beside.rule.name}” stops routing live ${rule.algorithm_for} traffic and “${rule.name}” takes its place.`;
  const experiment = beside.experiment === undefined ? '' : ` The running experiment “${beside.experiment.name}” keeps running beside it.`;
  return { title, confirmLabel: beside.rule === undefined ? `Activate ${rule.name}` : `Activate and stop ${beside.rule.name}`, text: `${change}${experiment}` };
}

/** The confirmation before deactivating (stopping) `rule`. */
export function deactivationChange(rule: RoutingAlgorithmListItem, rules: readonly RoutingAlgorithmListItem[], activeIds: ReadonlySet<string>): LiveChange {
  const beside = activeBeside(rule, rules, activeIds);
  if (isExperiment(rule)) {
    const routedBy = beside.rule === undefined ? noRule : `the active rule “${beside.rule.name}”`;
    return {
      title: `Stop ${rule.name}?`,
      confirmLabel: `Stop ${rule.name}`,
      text: `The experiment “${rule.name}” ends: its variant arm gets no more payments, and every payment goes by ${routedBy}. Its results stay on the Experiments page.`,
    };
  }
  if (isVolumeContract(rule)) {
    return {
      title: `Deactivate ${rule.name}?`,
      confirmLabel: `Deactivate ${rule.name}`,
      text: `“${rule.name}” stops steering live payments toward its volume commitments. The active rule and a running experiment stay as they are.`,
    };
  }
  const experiment = beside.experiment === undefined ? '' : ` The running experiment “${beside.experiment.name}” keeps running.`;
  return {
    title: `Deactivate ${rule.name}?`,
    confirmLabel: `Deactivate ${rule.name}`,
    text: `“${rule.name}” stops routing live ${rule.algorithm_for} traffic: those payments go by ${noRule}.${experiment}`,
  };
}
