import { randomUUID } from 'node:crypto';
import { algorithmForValues, experimentSlotOf, type AlgorithmFor, type RoutingAlgorithmRecord, type StateStore } from '../ports/state-store.js';
import type { Clock } from '../time/clock.js';
import { parseRoutingAlgorithm } from './index.js';
import { experimentArmProblems } from '../experiments/check-experiment-arms.js';
import { routingRuleRejected } from './routing-rule-rejected.js';
import { quote } from './rule-validation-issue.js';
import type { ExperimentAnalytics } from '../ports/analytics/experiment-reports.js';
import type { RoutingAlgorithm } from '../ports/state/routing-algorithm.js';

/*
 * A merchant's routing algorithms (euclid): create, update, activate, deactivate, delete. Every
 * refusal is `SY_ROUTING_RULE_REJECTED` with decision-engine 1.4.x's message. Stricter than 1.4.x:
 * an algorithm of another merchant is "not found", and deleting an unknown id is refused, not a 500.
 */

export interface RoutingAlgorithmDeps {
  readonly state: Pick<StateStore, 'routingRules'>;
  readonly clock: Clock;
  /** Where an experiment's recorded payments are counted (the settings lock); undefined without analytics. */
  readonly analytics?: Pick<ExperimentAnalytics, 'experimentArms'> | undefined;
}

/** What a create body holds, before any check (the body schema is loose, as 1.4.x's serde is). */
export interface NewRoutingAlgorithm {
  readonly rule_id?: string | null;
  readonly name?: unknown;
  readonly description?: unknown;
  readonly created_by: string;
  readonly algorithm_for?: unknown;
  readonly metadata?: unknown;
  readonly algorithm?: unknown;
}

/** An update: the fields given replace the stored ones. */
export interface RoutingAlgorithmChange {
  readonly created_by: string;
  readonly routing_algorithm_id: string;
  readonly name?: string;
  readonly description?: string | null;
  readonly algorithm?: unknown;
}

const notFound = (id: string) => routingRuleRejected(`Routing algorithm not found for the provided id : ${id}`);
const activeRefusal = 'This experiment is active. Stop it before editing or deleting.';

/**
 * decision-engine 1.4.x's 400 for a body that is not a routing rule, followed by what is wrong
 * (1.4.x says only `Invalid routing rule configuration`; HEAD appends serde's message): a client
 * matching the 1.4.x text by prefix still matches, and the operator learns which field to fix.
 */
const notARule = (problems: readonly string[]) => routingRuleRejected(`Invalid routing rule configuration: ${problems.join('; ')}`);

/** Parses an algorithm body into the record's form, or throws decision-engine's 400 naming every problem. */
function parseAlgorithm(input: unknown): RoutingAlgorithmRecord['algorithm'] {
  const parsed = parseRoutingAlgorithm(input);
  if (parsed.ok) return parsed.algorithm;
  if (parsed.kind === 'shape') throw notARule(parsed.errors);
  throw routingRuleRejected(`Field validation failed: ${parsed.errors.join('; ')}`);
}

/** The requested slot; undefined when none was named (the algorithm's type then picks it). */
function algorithmForOf(value: unknown): AlgorithmFor | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && (algorithmForValues as readonly string[]).includes(value)) return value as AlgorithmFor;
  throw notARule([`algorithm_for: invalid_shape: expected one of ${algorithmForValues.join(', ')}, got ${describe(value)}`]);
}

/**
 * A `volume_contract` is active only in the `volume_commitment` slot, and that slot holds nothing
 * else (the peer's dedicated slot): one active contract per merchant, never in place of its rule.
 */
function slotOf(algorithmFor: AlgorithmFor, type: RoutingAlgorithmRecord['algorithm']['type']): AlgorithmFor {
  if ((type === 'volume_contract') !== (algorithmFor === 'volume_commitment')) {
    throw routingRuleRejected(
      type === 'volume_contract'
        ? `Field validation failed: algorithm_for: invalid_value: a volume_contract is activated under 'volume_commitment', not ${quote(algorithmFor)}`
        : `Field validation failed: algorithm_for: invalid_value: only a volume_contract may use 'volume_commitment', not a ${type} algorithm`,
    );
  }
  return algorithmFor;
}

/** A wrong value for a message: strings quoted (and cut), other JSON by its type. */
function describe(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value === undefined) return 'nothing (missing field)';
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** The name and description checks of create (1.4.x: a missing name is not a rule at all). */
function checkNameAndDescription<T extends { readonly name?: unknown; readonly description?: unknown }>(
  body: T,
): asserts body is T & { readonly name: string; readonly description?: string | null } {
  const problems: string[] = [];
  if (typeof body.name !== 'string') problems.push(`name: invalid_shape: expected a string, got ${describe(body.name)}`);
  if (body.description !== undefined && body.description !== null && typeof body.description !== 'string') {
    problems.push(`description: invalid_shape: expected a string or null, got ${describe(body.description)}`);
  }
  if (problems.length > 0) throw notARule(problems);
}

/** The algorithm `id` of `createdBy`; another merchant's algorithm is as unknown as a missing one. */
async function ownAlgorithm(deps: RoutingAlgorithmDeps, createdBy: string, id: string): Promise<RoutingAlgorithmRecord> {
  const record = await deps.state.routingRules.get(id);
  if (record === undefined || record.createdBy !== createdBy) throw notFound(id);
  return record;
}

/** Checks and stores a new algorithm (inactive); refused when its id is taken. */
export async function createRoutingAlgorithm(deps: RoutingAlgorithmDeps, body: NewRoutingAlgorithm): Promise<RoutingAlgorithmRecord> {
  checkNameAndDescription(body);
  const requested = algorithmForOf(body.algorithm_for);
  const algorithm = parseAlgorithm(body.algorithm);
  const algorithmFor = slotOf(requested ?? (algorithm.type === 'volume_contract' ? 'volume_commitment' : 'payment'), algorithm.type);
  const id = body.rule_id ?? `routing_${randomUUID()}`;
  await checkExperimentArms(deps, body.created_by, algorithm, id);
  const now = deps.clock.now();
  const record: RoutingAlgorithmRecord = {
    id,
    createdBy: body.created_by,
    name: body.name,
    description: typeof body.description === 'string' ? body.description : '',
    algorithmFor,
    algorithm,
    metadata: body.metadata ?? null,
    createdAt: now,
    modifiedAt: now,
  };
  if ((await deps.state.routingRules.create(record)) === 'exists')
    throw routingRuleRejected(`Routing algorithm already exists for the provided id : ${record.id}`);
  return record;
}

/** Replaces the given fields of an inactive algorithm of the merchant; an active one is refused. */
export async function updateRoutingAlgorithm(deps: RoutingAlgorithmDeps, change: RoutingAlgorithmChange): Promise<RoutingAlgorithmRecord> {
  const current = await ownAlgorithm(deps, change.created_by, change.routing_algorithm_id);
  const algorithm = change.algorithm === undefined ? current.algorithm : parseAlgorithm(change.algorithm);
  slotOf(current.algorithmFor, algorithm.type);
  await checkExperimentArms(deps, change.created_by, algorithm, current.id);
  if (changesExperimentRouting(current.algorithm, algorithm)) {
    // The active refusal comes first, as in the peer (the store refuses again atomically below).
    if (Object.values(await deps.state.routingRules.activeIds(change.created_by)).includes(current.id)) throw routingRuleRejected(activeRefusal);
    await ensureNoRecordedPayments(deps, current);
  }
  const record: RoutingAlgorithmRecord = {
    ...current,
    name: change.name ?? current.name,
    description: change.description === undefined ? current.description : (change.description ?? ''),
    algorithm,
    modifiedAt: deps.clock.now(),
  };
  const result = await deps.state.routingRules.update(record);
  if (result === 'active') throw routingRuleRejected(activeRefusal);
  if (result === 'missing') throw notFound(record.id);
  return record;
}

/**
 * Whether an edit changes how an experiment routes payments: anything but its sample target and
 * guardrail (which only judge its results). Name and description are not part of the algorithm.
 */
function changesExperimentRouting(current: RoutingAlgorithm, next: RoutingAlgorithm): boolean {
  if (current.type !== 'ab_test') return false;
  const setup = (algorithm: RoutingAlgorithm) =>
    algorithm.type === 'ab_test' ? JSON.stringify({ ...algorithm.data, min_sample_size: 0, guardrail_threshold_pp: 0 }) : JSON.stringify(algorithm);
  return setup(current) !== setup(next);
}

/**
 * An experiment's results are read against its current setup, so the setup of one with recorded
 * payments stays fixed (decision-engine #434, with its messages). Unknown (no analytics, or the
 * read failed) is a refusal too: a lock that fails open would let results mix two setups.
 */
async function ensureNoRecordedPayments(deps: RoutingAlgorithmDeps, experiment: RoutingAlgorithmRecord): Promise<void> {
  let recorded: boolean;
  try {
    if (deps.analytics === undefined) throw new Error('no analytics store');
    const arms = await deps.analytics.experimentArms({ merchantId: experiment.createdBy, experimentId: experiment.id, startMs: 0, endMs: deps.clock.now() });
    recorded = arms.some((arm) => arm.assigned > 0);
  } catch {
    throw routingRuleRejected(
      "Couldn't check whether this experiment has recorded payments, so its routing setup can't change right now. Its name, sample target and guardrail can still change.",
    );
  }
  if (recorded) {
    throw routingRuleRejected(
      'This experiment has recorded payments, so only its name, sample target and guardrail can change. Duplicate it to test a different setup.',
    );
  }
}

/** An experiment's arms must name `sr_routing` or another (non-experiment) algorithm of the merchant. */
async function checkExperimentArms(deps: RoutingAlgorithmDeps, createdBy: string, algorithm: RoutingAlgorithmRecord['algorithm'], id: string): Promise<void> {
  const problems = await experimentArmProblems(deps.state.routingRules, createdBy, algorithm, id);
  if (problems.length > 0) throw routingRuleRejected(`Field validation failed: ${problems.join('; ')}`);
}

/**
 * Makes an algorithm of the merchant active (decision-engine #434). A rule goes into its
 * `algorithm_for` slot, replacing the rule there and leaving a running experiment alone; an
 * experiment goes into the experiment slot beside it, replacing the experiment there and leaving
 * the rule alone. An experiment activated into the rule slot before the experiment slot existed is
 * retired when another experiment is activated (there is no earlier rule to restore), and moves to
 * the experiment slot when a rule is activated (unless another experiment already runs there).
 */
export async function activateRoutingAlgorithm(deps: RoutingAlgorithmDeps, createdBy: string, id: string): Promise<void> {
  const record = await ownAlgorithm(deps, createdBy, id);
  const rules = deps.state.routingRules;
  const active = await rules.activeIds(createdBy);
  const inRuleSlot = active[record.algorithmFor];
  if (record.algorithm.type !== 'ab_test') {
    // An experiment left in the rule slot by an activation from before the experiment slot keeps
    // running in its own slot: activating a rule never ends an experiment (the dashboard says so).
    const experimentSlot = experimentSlotOf(record.algorithmFor);
    if (inRuleSlot !== undefined && inRuleSlot !== id && active[experimentSlot] === undefined && (await rules.get(inRuleSlot))?.algorithm.type === 'ab_test') {
      await rules.activate(createdBy, experimentSlot, inRuleSlot);
    }
    await rules.activate(createdBy, record.algorithmFor, id);
    return;
  }
  if (inRuleSlot !== undefined && inRuleSlot !== id && (await rules.get(inRuleSlot))?.algorithm.type === 'ab_test') {
    await rules.deactivate(createdBy, record.algorithmFor, inRuleSlot);
  }
  await rules.activate(createdBy, experimentSlotOf(record.algorithmFor), id);
  // The same experiment in the rule slot (a legacy activation) now lives in its own slot only.
  if (inRuleSlot === id) await rules.deactivate(createdBy, record.algorithmFor, id);
}

/** Deactivates an algorithm of the merchant from whichever slot holds it (idempotent). */
export async function deactivateRoutingAlgorithm(deps: RoutingAlgorithmDeps, createdBy: string, id: string): Promise<void> {
  const record = await ownAlgorithm(deps, createdBy, id);
  await deps.state.routingRules.deactivate(createdBy, record.algorithmFor, id);
  if (record.algorithm.type === 'ab_test') await deps.state.routingRules.deactivate(createdBy, experimentSlotOf(record.algorithmFor), id);
}

/** Deletes an inactive algorithm of the merchant; an active or unknown one is refused. */
export async function deleteRoutingAlgorithm(deps: RoutingAlgorithmDeps, createdBy: string, id: string): Promise<void> {
  const result = await deps.state.routingRules.delete(createdBy, id);
  if (result === 'active') throw routingRuleRejected(activeRefusal);
  if (result === 'missing') throw notFound(id);
}
