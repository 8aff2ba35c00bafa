import type { RandomSource } from '../decision/random-source.js';
import { anyOf, compileStatement, INVALID, TRUE, type CompiledStatement, type InvalidSlot } from './compile-condition.js';
import type { ConnectorInfo, EvaluationParameters, RoutingAlgorithm, RuleOutput } from '../ports/state/routing-algorithm.js';
import type { EvaluationOutput, RuleEvaluation, RuleEvaluationResult } from './rule-evaluation.js';
import { flattenDistinct, pickWeightedIndex, winnerFirst } from './volume-split.js';

/**
 * An algorithm compiled once (at activation or first use) and evaluated many times. Evaluation does
 * no parsing and no key lookups beyond reading the parameter map.
 */
export interface CompiledRoutingAlgorithm {
  /**
   * Evaluates the algorithm for one `/routing/evaluate` call. `random` is drawn exactly once when a
   * volume split (top-level or a matched rule's output) is evaluated, and never otherwise, so a
   * scripted source pins every outcome. Parameters should have passed validateEvaluationParameters.
   */
  evaluate(parameters: EvaluationParameters, random: RandomSource): RuleEvaluationResult;
}

const INVALID_COMPARISON = 'Interpreter error: InvalidComparison';

/** An output compiled into its wire form plus a function producing the ordered connector list. */
interface CompiledOutput {
  readonly wire: EvaluationOutput;
  /** Connectors in the order to try them; draws from `random` only for volume splits. */
  readonly order: (random: RandomSource) => readonly ConnectorInfo[];
}

function frozenConnector(connector: ConnectorInfo): ConnectorInfo {
  return Object.freeze({ gateway_name: connector.gateway_name, gateway_id: connector.gateway_id ?? null });
}

function frozenList(connectors: readonly ConnectorInfo[]): readonly ConnectorInfo[] {
  return Object.freeze(connectors.map(frozenConnector));
}

function compileOutput(output: RuleOutput): CompiledOutput {
  if ('single' in output) {
    const connector = frozenConnector(output.single);
    const order = Object.freeze([connector]);
    return { wire: Object.freeze({ type: 'straight_through', connector }), order: () => order };
  }
  if ('priority' in output) {
    const connectors = frozenList(output.priority);
    return { wire: Object.freeze({ type: 'priority', connectors }), order: () => connectors };
  }
  if ('volume_split' in output) {
    const connectors = frozenList(output.volume_split.map((entry) => entry.output));
    const weights = output.volume_split.map((entry) => entry.split);
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const splits = Object.freeze(connectors.map((connector, index) => Object.freeze({ connector, split: weights[index] as number })));
    return {
      wire: Object.freeze({ type: 'volume_split', splits }),
      order: (random) => winnerFirst(connectors, pickWeightedIndex(weights, total, random)),
    };
  }
  const lists = Object.freeze(output.volume_split_priority.map((entry) => frozenList(entry.output)));
  const weights = output.volume_split_priority.map((entry) => entry.split);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const splits = Object.freeze(lists.map((connectors, index) => Object.freeze({ connectors, split: weights[index] as number })));
  return {
    wire: Object.freeze({ type: 'volume_split_priority', splits }),
    order: (random) => flattenDistinct(winnerFirst(lists, pickWeightedIndex(weights, total, random))),
  };
}

/** A static algorithm: one output, one rule name, always `success`. */
function compileStatic(output: RuleOutput, ruleName: string): CompiledRoutingAlgorithm {
  const compiled = compileOutput(output);
  return {
    evaluate: (_parameters, random) => ({
      ok: true,
      evaluation: { status: 'success', output: compiled.wire, evaluatedOutput: compiled.order(random), ruleName },
    }),
  };
}

/**
 * An experiment has no output of its own: decisions route each payment into an arm
 * (src/experiments/), so evaluating it as a rule answers an interpreter error naming that.
 */
function compileExperiment(): CompiledRoutingAlgorithm {
  return {
    evaluate: () => ({
      ok: false,
      error: { type: 'invalid_comparison', message: 'ab_test algorithms route per arm; evaluate the arm algorithms instead', ruleName: '', lhs: '' },
    }),
  };
}

/** A volume contract routes nothing itself: it steers SR decisions (src/volume-commitment/). */
function compileContract(): CompiledRoutingAlgorithm {
  return {
    evaluate: () => ({
      ok: false,
      error: {
        type: 'invalid_comparison',
        message: 'volume_contract documents steer success-rate decisions; they have no output to evaluate',
        ruleName: '',
        lhs: '',
      },
    }),
  };
}

interface CompiledRule {
  readonly name: string;
  readonly statements: readonly CompiledStatement[];
  readonly output: CompiledOutput;
}

/**
 * Compiles a parsed algorithm into closures. Advanced rules are tried in order; a rule matches when
 * ANY of its statements holds; the first match's output is evaluated; no match gives the default
 * selection with status `default_selection` and rule name null (see applyFallbackOutput for
 * `fallback_output`). An incomparable parameter anywhere on the way returns the InvalidComparison
 * error, as the reference interpreter does, even if a later rule would have matched.
 */
export function compileRoutingAlgorithm(algorithm: RoutingAlgorithm): CompiledRoutingAlgorithm {
  switch (algorithm.type) {
    case 'single':
      return compileStatic({ single: algorithm.data }, 'straight_through_rule');
    case 'priority':
      return compileStatic({ priority: algorithm.data }, 'priority_rule');
    case 'volume_split':
      return compileStatic({ volume_split: algorithm.data }, 'volume_split_rule');
    case 'ab_test':
      return compileExperiment();
    case 'volume_contract':
      return compileContract();
    case 'advanced':
      break;
  }
  const program = algorithm.data;
  // Written by a failing condition closure just before it returns INVALID; evaluation is synchronous,
  // so no other evaluation can interleave between that write and the read below.
  const slot: InvalidSlot = { lhs: '' };
  const rules: readonly CompiledRule[] = program.rules.map((rule) => ({
    name: rule.name,
    statements: rule.statements.map((statement) => compileStatement(statement, program.globals, slot)),
    output: compileOutput(rule.output),
  }));
  const fallback = compileOutput(program.default_selection);
  return {
    evaluate(parameters, random) {
      for (let index = 0; index < rules.length; index++) {
        const rule = rules[index] as CompiledRule;
        const result = anyOf(rule.statements, parameters);
        if (result === TRUE) {
          const evaluation: RuleEvaluation = {
            status: 'success',
            output: rule.output.wire,
            evaluatedOutput: rule.output.order(random),
            ruleName: rule.name,
          };
          return { ok: true, evaluation };
        }
        if (result === INVALID) {
          return { ok: false, error: { type: 'invalid_comparison', message: INVALID_COMPARISON, ruleName: rule.name, lhs: slot.lhs } };
        }
      }
      return {
        ok: true,
        evaluation: { status: 'default_selection', output: fallback.wire, evaluatedOutput: fallback.order(random), ruleName: null },
      };
    },
  };
}
