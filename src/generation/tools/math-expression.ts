/**
 * A small arithmetic language evaluated by a tokenizer and a recursive-descent parser, never by
 * `eval`/`Function` (NeuroLink's calculateMath ran the raw string as JavaScript). Grammar:
 *
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/' | '%') unary)*
 *   unary   := ('-' | '+') unary | power
 *   power   := primary (('^' | '**') unary)?          right-associative: 2^3^2 = 2^9
 *   primary := number | constant | function '(' expr (',' expr)* ')' | '(' expr ')'
 *
 * Unary minus binds looser than `^` (-2^2 = -4, as in mathematics); identifiers may carry a
 * `Math.` prefix. Anything else (`;`, `constructor`, `process.exit`, `this`, …) is a syntax error.
 */

export const maxExpressionLength = 1000;
export const maxNestingDepth = 64;

export class MathExpressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MathExpressionError';
  }
}

type Token =
  | { readonly kind: 'number'; readonly value: number; readonly at: number }
  | { readonly kind: 'name'; readonly value: string; readonly at: number }
  | { readonly kind: 'op'; readonly value: string; readonly at: number };

const constants: Readonly<Record<string, number>> = { PI: Math.PI, E: Math.E };

interface MathFunction {
  readonly minArgs: number;
  readonly maxArgs: number;
  apply(args: readonly number[]): number;
}

const unary = (f: (x: number) => number): MathFunction => ({ minArgs: 1, maxArgs: 1, apply: (args) => f(args[0] as number) });

// A Map, not an object literal: lookups cannot reach Object.prototype members such as `constructor`.
const functions: ReadonlyMap<string, MathFunction> = new Map([
  ['sqrt', unary(Math.sqrt)],
  ['abs', unary(Math.abs)],
  ['ceil', unary(Math.ceil)],
  ['floor', unary(Math.floor)],
  ['round', unary(Math.round)],
  ['sin', unary(Math.sin)],
  ['cos', unary(Math.cos)],
  ['tan', unary(Math.tan)],
  ['log', unary(Math.log)],
  ['log10', unary(Math.log10)],
  ['exp', unary(Math.exp)],
  ['pow', { minArgs: 2, maxArgs: 2, apply: (args) => power(args[0] as number, args[1] as number) }],
  ['min', { minArgs: 1, maxArgs: 100, apply: (args) => Math.min(...args) }],
  ['max', { minArgs: 1, maxArgs: 100, apply: (args) => Math.max(...args) }],
]);

function power(base: number, exponent: number): number {
  return base ** exponent;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s+|(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)|(\*\*|[-+*/%^(),])/y;
  let at = 0;
  while (at < source.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(source);
    if (match === null) throw new MathExpressionError(`unexpected character "${source[at]}" at position ${at}`);
    if (match[1] !== undefined) tokens.push({ kind: 'number', value: Number(match[1]), at });
    else if (match[2] !== undefined) tokens.push({ kind: 'name', value: match[2], at });
    else if (match[3] !== undefined) tokens.push({ kind: 'op', value: match[3], at });
    at = pattern.lastIndex;
  }
  return tokens;
}

class Parser {
  private index = 0;
  private depth = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  parse(): number {
    if (this.tokens.length === 0) throw new MathExpressionError('expression is empty');
    const value = this.expr();
    const extra = this.tokens[this.index];
    if (extra !== undefined) throw new MathExpressionError(`unexpected "${String(extra.value)}" at position ${extra.at}`);
    return value;
  }

  private peekOp(...ops: string[]): string | undefined {
    const token = this.tokens[this.index];
    return token?.kind === 'op' && ops.includes(token.value) ? token.value : undefined;
  }

  private expect(op: string): void {
    const token = this.tokens[this.index];
    if (token?.kind !== 'op' || token.value !== op) {
      throw new MathExpressionError(token === undefined ? `expected "${op}" but the expression ended` : `expected "${op}" at position ${token.at}`);
    }
    this.index++;
  }

  private enter(): void {
    if (++this.depth > maxNestingDepth) throw new MathExpressionError(`expression is nested deeper than ${maxNestingDepth} levels`);
  }

  private expr(): number {
    this.enter();
    let value = this.term();
    for (let op = this.peekOp('+', '-'); op !== undefined; op = this.peekOp('+', '-')) {
      this.index++;
      const right = this.term();
      value = op === '+' ? value + right : value - right;
    }
    this.depth--;
    return value;
  }

  private term(): number {
    let value = this.unary();
    for (let op = this.peekOp('*', '/', '%'); op !== undefined; op = this.peekOp('*', '/', '%')) {
      this.index++;
      const right = this.unary();
      if ((op === '/' || op === '%') && right === 0) throw new MathExpressionError('division by zero');
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  }

  private unary(): number {
    const op = this.peekOp('-', '+');
    if (op === undefined) return this.power();
    this.index++;
    this.enter();
    const value = this.unary();
    this.depth--;
    return op === '-' ? -value : value;
  }

  private power(): number {
    const base = this.primary();
    if (this.peekOp('^', '**') === undefined) return base;
    this.index++;
    this.enter();
    const exponent = this.unary();
    this.depth--;
    return power(base, exponent);
  }

  private primary(): number {
    const token = this.tokens[this.index];
    if (token === undefined) throw new MathExpressionError('expression ended unexpectedly');
    if (token.kind === 'number') {
      this.index++;
      return token.value;
    }
    if (token.kind === 'op' && token.value === '(') {
      this.index++;
      const value = this.expr();
      this.expect(')');
      return value;
    }
    if (token.kind === 'name') {
      this.index++;
      const name = token.value.startsWith('Math.') ? token.value.slice(5) : token.value;
      const fn = functions.get(name);
      if (fn !== undefined) return this.call(name, fn);
      if (Object.hasOwn(constants, name)) return constants[name] as number;
      throw new MathExpressionError(`unknown identifier "${token.value}"`);
    }
    throw new MathExpressionError(`unexpected "${token.value}" at position ${token.at}`);
  }

  private call(name: string, fn: MathFunction): number {
    this.expect('(');
    const args: number[] = [this.expr()];
    while (this.peekOp(',') !== undefined) {
      this.index++;
      args.push(this.expr());
    }
    this.expect(')');
    if (args.length < fn.minArgs || args.length > fn.maxArgs) {
      throw new MathExpressionError(
        `${name} takes ${fn.minArgs === fn.maxArgs ? fn.minArgs : `${fn.minArgs} to ${fn.maxArgs}`} argument(s), got ${args.length}`,
      );
    }
    return fn.apply(args);
  }
}

/** Evaluates `expression`; throws MathExpressionError for syntax errors, division by zero and non-finite results. */
export function evaluateMathExpression(expression: string): number {
  if (typeof expression !== 'string') throw new MathExpressionError('expression must be a string');
  if (expression.length > maxExpressionLength) throw new MathExpressionError(`expression is longer than ${maxExpressionLength} characters`);
  const value = new Parser(tokenize(expression)).parse();
  if (Number.isNaN(value)) throw new MathExpressionError('result is not a number (NaN)');
  if (!Number.isFinite(value)) throw new MathExpressionError('result is not finite (overflow or division by zero)');
  return value;
}
