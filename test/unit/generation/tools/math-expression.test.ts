import { describe, expect, it } from 'vitest';
import { evaluateMathExpression, MathExpressionError } from '../../../../src/generation/tools/math-expression.js';

describe('evaluateMathExpression', () => {
  it.each([
    ['2 + 2', 4],
    ['2 + 3 * 4', 14],
    ['(2 + 3) * 4', 20],
    ['10 - 4 - 3', 3],
    ['100 / 10 / 5', 2],
    ['2^3^2', 512],
    ['2 ** 3 ** 2', 512],
    ['-2^2', -4],
    ['2^-1', 0.5],
    ['--3', 3],
    ['7 % 4', 3],
    ['1.5e3 + .5', 1500.5],
    ['Math.sqrt(16)', 4],
    ['sqrt(16) + abs(-3)', 7],
    ['pow(2, 10)', 1024],
    ['min(3, 1, 2) + max(4, 9)', 10],
    ['floor(2.7) + ceil(2.1) + round(2.5)', 8],
    ['log10(1000)', 3],
    ['exp(0) + log(E)', 2],
    ['Math.PI', Math.PI],
    ['sin(0) + cos(0) + tan(0)', 1],
  ])('%s = %d', (expression, expected) => {
    expect(evaluateMathExpression(expression)).toBeCloseTo(expected, 10);
  });

  it.each([
    ['constructor', /unknown identifier/],
    ['process.exit()', /unknown identifier/],
    ['this', /unknown identifier/],
    ['1;2', /unexpected character ";"/],
    ['Math.constructor', /unknown identifier/],
    ['__proto__', /unknown identifier/],
    ['toString', /unknown identifier/],
    ['(', /ended/],
    ['2 +', /ended/],
    ['2 3', /unexpected/],
    ['sqrt 4', /expected "\("/],
    ['pow(1)', /pow takes 2 argument/],
    ['"a"', /unexpected character/],
    ['[1]', /unexpected character/],
    ['a=1', /unknown identifier|unexpected/],
    ['1/0', /division by zero/],
    ['5 % 0', /division by zero/],
    ['10^1000', /not finite/],
    ['sqrt(-1)', /NaN/],
    ['', /empty/],
    [`${'('.repeat(200)}1${')'.repeat(200)}`, /nested deeper/],
    [`${'-'.repeat(200)}1`, /nested deeper/],
    [`${'1+'.repeat(600)}1`, /longer than/],
  ])('refuses %s', (expression, message) => {
    expect(() => evaluateMathExpression(expression)).toThrow(MathExpressionError);
    expect(() => evaluateMathExpression(expression)).toThrow(message);
  });
});
