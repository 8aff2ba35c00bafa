import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRoutingAlgorithm } from '../../../src/routing-rules/compile-routing-algorithm.js';
import { parseRoutingAlgorithm } from '../../../src/routing-rules/parse-routing-algorithm.js';
import type { EvaluationParameters, RoutingAlgorithm } from '../../../src/ports/state/routing-algorithm.js';
import type { RuleEvaluationResult } from '../../../src/routing-rules/rule-evaluation.js';
import { validateEvaluationParameters } from '../../../src/routing-rules/validate-evaluation-parameters.js';
import { interpret, type OracleResult } from './reference-interpreter.js';
import { evaluationParametersArbitrary, routingAlgorithmArbitrary } from './rule-arbitraries.js';
import { createSeededRandom } from '../../helpers/seeded-random.js';

function summary(result: RuleEvaluationResult): OracleResult {
  if (!result.ok) return 'InvalidComparison';
  const { evaluation } = result;
  return {
    ruleName: evaluation.ruleName,
    status: evaluation.status,
    outputType: evaluation.output.type,
    evaluated: evaluation.evaluatedOutput.map((c) => ({ gateway_name: c.gateway_name, gateway_id: c.gateway_id })),
  };
}

function parseOrThrow(input: unknown): RoutingAlgorithm {
  const parsed = parseRoutingAlgorithm(input);
  if (!parsed.ok) throw new Error(`generated algorithm rejected: ${parsed.errors.join('; ')}`);
  return parsed.algorithm;
}

const cases = fc.tuple(
  routingAlgorithmArbitrary,
  fc.array(evaluationParametersArbitrary, { minLength: 1, maxLength: 8 }),
  fc.integer({ min: 0, max: 2 ** 31 - 1 }),
);

describe('routing algorithm round trip', () => {
  it('parses every generated algorithm back to an equal value after a JSON round trip', () => {
    fc.assert(
      fc.property(routingAlgorithmArbitrary, (algorithm) => {
        const first = parseOrThrow(JSON.parse(JSON.stringify(algorithm)));
        const second = parseOrThrow(JSON.parse(JSON.stringify(first)));
        expect(first).toEqual(algorithm);
        expect(second).toEqual(first);
      }),
      { numRuns: 300 },
    );
  });

  it('evaluates identically before and after a JSON round trip for random parameters', () => {
    fc.assert(
      fc.property(cases, ([algorithm, parameterSets, seed]) => {
        const before = compileRoutingAlgorithm(parseOrThrow(algorithm));
        const after = compileRoutingAlgorithm(parseOrThrow(JSON.parse(JSON.stringify(algorithm))));
        const randomBefore = createSeededRandom(seed);
        const randomAfter = createSeededRandom(seed);
        for (const raw of parameterSets) {
          const checked = validateEvaluationParameters(JSON.parse(JSON.stringify(raw)));
          if (!checked.ok) throw new Error(`generated parameters rejected: ${checked.message}`);
          expect(after.evaluate(checked.parameters, randomAfter)).toEqual(before.evaluate(checked.parameters, randomBefore));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with a naive tree-walking interpreter on every generated case', () => {
    let matched = 0;
    let defaulted = 0;
    let invalid = 0;
    fc.assert(
      fc.property(cases, ([algorithm, parameterSets, seed]) => {
        const compiled = compileRoutingAlgorithm(parseOrThrow(algorithm));
        const randomCompiled = createSeededRandom(seed);
        const randomOracle = createSeededRandom(seed);
        for (const parameters of parameterSets) {
          const expected = interpret(algorithm, parameters as EvaluationParameters, randomOracle);
          const actual = summary(compiled.evaluate(parameters, randomCompiled));
          expect(actual).toEqual(expected);
          if (algorithm.type === 'advanced') {
            if (expected === 'InvalidComparison') invalid++;
            else if (expected.status === 'success') matched++;
            else defaulted++;
          }
        }
      }),
      { numRuns: 500 },
    );
    // The generators must exercise every outcome, or agreement proves little.
    expect(matched).toBeGreaterThan(50);
    expect(defaulted).toBeGreaterThan(50);
    expect(invalid).toBeGreaterThan(5);
  });
});
