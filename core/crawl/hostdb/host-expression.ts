/**
 * The small expression language of readhostdb -expr, generate.max.count.expr and
 * generate.fetch.delay.expr: the part of Nutch's JEXL that those expressions use, parsed into a
 * tree and interpreted (never eval), so a property value cannot run code.
 *
 *   literals     12  0.5  'text'  "text"  true  false  null
 *   variables    fetched  avg._rs_  pct95._rs_   (JEXL's "ant-style" dotted names)
 *   arithmetic   + - * / %  (also div, mod); + joins text
 *   comparison   == != < <= > >=  (also eq ne lt le gt ge)
 *   logic        && || !  (also and or not), cond ? a : b, parentheses
 *
 * Differences from JEXL: `/` divides as floating point (JEXL divides two integers as integers),
 * and an unknown variable is an evaluation error (JEXL's strict mode) rather than null.
 */

export type ExpressionValue = number | string | boolean | null;

/** A syntax error: `position` is the 1-based character where parsing stopped. */
export class ExpressionSyntaxError extends Error {
  constructor(readonly reason: string, readonly position: number) {
    super(`${reason} at position ${position}`);
  }
}

/** An error while evaluating for one record (an unknown variable, text where a number is needed). */
export class ExpressionEvaluationError extends Error {}

type Node =
  | { kind: 'literal'; value: ExpressionValue }
  | { kind: 'variable'; name: string }
  | { kind: 'unary'; op: '!' | '-' | '+'; operand: Node }
  | { kind: 'binary'; op: string; left: Node; right: Node }
  | { kind: 'conditional'; test: Node; then: Node; otherwise: Node };

interface Token {
  type: 'number' | 'string' | 'name' | 'op' | 'end';
  text: string;
  value?: number | string;
  /** 0-based offset in the source. */
  at: number;
}

const WORD_OPERATORS: Record<string, string> = { and: '&&', or: '||', not: '!', eq: '==', ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=', div: '/', mod: '%' };
const SYMBOLS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '!', '(', ')', '?', ':'];

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) { i++; continue; }
    const start = i;
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.)/.exec(src.slice(i))!;
      i += m[0].length;
      tokens.push({ type: 'number', text: m[0], value: Number(m[0]), at: start });
      continue;
    }
    if (c === '"' || c === "'") {
      let text = '';
      i++;
      for (;;) {
        if (i >= src.length) throw new ExpressionSyntaxError('unterminated string', start + 1);
        const ch = src[i]!;
        if (ch === c) { i++; break; }
        if (ch === '\\' && i + 1 < src.length) { text += src[i + 1]; i += 2; continue; }
        text += ch;
        i++;
      }
      tokens.push({ type: 'string', text: src.slice(start, i), value: text, at: start });
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][\w$]*(?:\.[\w$]+)*/.exec(src.slice(i))!;
      i += m[0].length;
      const op = WORD_OPERATORS[m[0]];
      tokens.push(op ? { type: 'op', text: op, at: start } : { type: 'name', text: m[0], at: start });
      continue;
    }
    const sym = SYMBOLS.find((s) => src.startsWith(s, i));
    if (!sym) throw new ExpressionSyntaxError(`unexpected character ${JSON.stringify(c)}`, start + 1);
    i += sym.length;
    tokens.push({ type: 'op', text: sym, at: start });
  }
  tokens.push({ type: 'end', text: '', at: src.length });
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token { return this.tokens[this.pos]!; }
  private next(): Token { return this.tokens[this.pos++]!; }
  private accept(...ops: string[]): string | null {
    const t = this.peek();
    if (t.type === 'op' && ops.includes(t.text)) { this.pos++; return t.text; }
    return null;
  }
  private fail(what: string): never {
    const t = this.peek();
    throw new ExpressionSyntaxError(t.type === 'end' ? `${what}, found the end of the expression` : `${what}, found ${JSON.stringify(t.text)}`, t.at + 1);
  }

  parseAll(): Node {
    if (this.peek().type === 'end') this.fail('expected an expression');
    const node = this.conditional();
    if (this.peek().type !== 'end') this.fail('expected an operator or the end');
    return node;
  }

  private conditional(): Node {
    const test = this.binary(0);
    if (!this.accept('?')) return test;
    const then = this.conditional();
    if (!this.accept(':')) this.fail('expected ":"');
    return { kind: 'conditional', test, then, otherwise: this.conditional() };
  }

  private static readonly LEVELS = [['||'], ['&&'], ['==', '!='], ['<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']];

  private binary(level: number): Node {
    if (level === Parser.LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (let op = this.accept(...Parser.LEVELS[level]!); op; op = this.accept(...Parser.LEVELS[level]!)) {
      left = { kind: 'binary', op, left, right: this.binary(level + 1) };
    }
    return left;
  }

  private unary(): Node {
    const op = this.accept('!', '-', '+');
    if (op) return { kind: 'unary', op: op as '!' | '-' | '+', operand: this.unary() };
    return this.primary();
  }

  private primary(): Node {
    const t = this.peek();
    if (t.type === 'number' || t.type === 'string') { this.pos++; return { kind: 'literal', value: t.value! }; }
    if (t.type === 'name') {
      this.pos++;
      if (t.text === 'true') return { kind: 'literal', value: true };
      if (t.text === 'false') return { kind: 'literal', value: false };
      if (t.text === 'null') return { kind: 'literal', value: null };
      return { kind: 'variable', name: t.text };
    }
    if (this.accept('(')) {
      const inner = this.conditional();
      if (!this.accept(')')) this.fail('expected ")"');
      return inner;
    }
    return this.fail('expected a number, text, variable or "("');
  }
}

function truthy(v: ExpressionValue): boolean {
  return v !== null && v !== false && v !== 0 && v !== '';
}

function num(v: ExpressionValue, op: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new ExpressionEvaluationError(`${op} needs numbers, got ${v === null ? 'null' : JSON.stringify(v)}`);
}

function compare(a: ExpressionValue, b: ExpressionValue, op: string): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
  }
  const x = num(a, op);
  const y = num(b, op);
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
}

function evaluate(node: Node, vars: (name: string) => ExpressionValue | undefined): ExpressionValue {
  switch (node.kind) {
    case 'literal': return node.value;
    case 'variable': {
      const v = vars(node.name);
      if (v === undefined) throw new ExpressionEvaluationError(`unknown variable ${node.name}`);
      return v;
    }
    case 'unary': {
      const v = evaluate(node.operand, vars);
      return node.op === '!' ? !truthy(v) : node.op === '-' ? -num(v, '-') : num(v, '+');
    }
    case 'conditional': return truthy(evaluate(node.test, vars)) ? evaluate(node.then, vars) : evaluate(node.otherwise, vars);
    case 'binary': {
      if (node.op === '&&') return truthy(evaluate(node.left, vars)) && truthy(evaluate(node.right, vars));
      if (node.op === '||') return truthy(evaluate(node.left, vars)) || truthy(evaluate(node.right, vars));
      const a = evaluate(node.left, vars);
      const b = evaluate(node.right, vars);
      switch (node.op) {
        case '==': return a === b;
        case '!=': return a !== b;
        case '<': case '<=': case '>': case '>=': return compare(a, b, node.op);
        case '+': return typeof a === 'string' || typeof b === 'string' ? `${a}${b}` : num(a, '+') + num(b, '+');
        case '-': return num(a, '-') - num(b, '-');
        case '*': return num(a, '*') * num(b, '*');
        case '/': {
          const d = num(b, '/');
          if (d === 0) throw new ExpressionEvaluationError('division by zero');
          return num(a, '/') / d;
        }
        default: {
          const d = num(b, '%');
          if (d === 0) throw new ExpressionEvaluationError('division by zero');
          return num(a, '%') % d;
        }
      }
    }
  }
}

export interface HostExpression {
  readonly source: string;
  /** Throws ExpressionEvaluationError for an unknown variable or a type mismatch. */
  evaluate(vars: (name: string) => ExpressionValue | undefined): ExpressionValue;
}

/** Parses `source`; throws ExpressionSyntaxError naming the position. */
export function compileExpression(source: string): HostExpression {
  const tree = new Parser(tokenize(source)).parseAll();
  return { source, evaluate: (vars) => evaluate(tree, vars) };
}
