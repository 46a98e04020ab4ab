/**
 * dk.brics.automaton regular expressions (the syntax of urlfilter-automaton's rule file, RegExp.ALL)
 * compiled to a JavaScript RegExp with brics' meaning: the WHOLE URL must match (automaton.run), not
 * a substring. Grammar: `|` union, `&` intersection, `~` complement, `?` `*` `+` `{n}` `{n,}` `{n,m}`,
 * `[…]` / `[^…]` classes with ranges, `.` any character, `#` the empty language, `@` any string,
 * `"…"` a literal string, `()` the empty string, `\c` the literal c; every other character (`^`, `$`,
 * `-`, `/`, `:` …) is itself. Intersection and complement have no JavaScript equivalent inside an
 * expression: they are supported at the top of a rule (`A&B`, `~(A)`, and unions of such), where
 * lookaheads anchored at both ends express them exactly; elsewhere, and `<n-m>` intervals and `<name>`
 * automata, are an error rather than a silently different filter.
 */
export class BricsRegexError extends Error {
  constructor(message: string, readonly position: number) {
    super(`${message} (at position ${position})`);
  }
}

const JS_SPECIAL = new Set([...'\\^$.*+?()[]{}|/']);
const CLASS_SPECIAL = new Set([...'\\]^-[']);

function literal(ch: string): string {
  return JS_SPECIAL.has(ch) ? `\\${ch}` : ch;
}

/** A top-level term of an intersection: a plain expression, or the complement of one. */
interface Term {
  negated: boolean;
  source: string;
}

class Parser {
  private pos = 0;

  constructor(private readonly s: string) {}

  private peek(): string | undefined {
    return this.s[this.pos];
  }

  private more(): boolean {
    return this.pos < this.s.length;
  }

  private fail(message: string): never {
    throw new BricsRegexError(message, this.pos);
  }

  /** The whole rule: a union of intersections of (possibly complemented) terms. */
  parseRule(): Term[][] {
    const branches = [this.parseIntersection(true)];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.parseIntersection(true));
    }
    if (this.more()) this.fail(`unexpected ${JSON.stringify(this.peek())}`);
    return branches;
  }

  private parseIntersection(top: boolean): Term[] {
    const terms = [this.parseTerm(top)];
    while (this.peek() === '&') {
      if (!top) this.fail('intersection (&) inside a group is not supported; nutch-ts supports it at the top of a rule');
      this.pos++;
      terms.push(this.parseTerm(top));
    }
    return terms;
  }

  private parseTerm(top: boolean): Term {
    if (this.peek() === '~') {
      if (!top) this.fail('complement (~) inside a group is not supported; nutch-ts supports ~(…) as a whole term of a rule');
      this.pos++;
      // brics binds ~ tighter than repetition and concatenation: ~a.* is (~a).*, so only ~(…) covers a term
      if (this.peek() === '~') this.fail('a double complement (~~) is not supported; drop both');
      const inner = { source: this.parseSimple() };
      const next = this.peek();
      if (next !== undefined && next !== '|' && next !== '&') this.fail('complement (~) must cover the whole term: write ~(…)');
      return { negated: true, source: inner.source };
    }
    return { negated: false, source: this.parseConcat() };
  }

  private parseUnionInGroup(): string {
    const branches = [this.parseIntersection(false).map((t) => t.source).join('')];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.parseIntersection(false).map((t) => t.source).join(''));
    }
    return branches.join('|');
  }

  private parseConcat(): string {
    let out = '';
    while (this.more() && !'|&)'.includes(this.peek()!)) {
      if (this.peek() === '~') this.fail('complement (~) inside a concatenation is not supported; nutch-ts supports ~(…) as a whole term of a rule');
      out += this.parseRepeat();
    }
    return out;
  }

  private parseRepeat(): string {
    let src = this.parseSimple();
    for (;;) {
      const c = this.peek();
      if (c === '?' || c === '*' || c === '+') {
        this.pos++;
        src = `(?:${src})${c}`;
      } else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.s.slice(this.pos));
        if (!m) this.fail('a repeat is {n}, {n,} or {n,m}');
        if (m[3] && Number(m[3]) < Number(m[1])) this.fail(`repeat {${m[1]},${m[3]}}: the maximum is below the minimum`);
        this.pos += m[0].length;
        src = `(?:${src})${m[0]}`;
      } else {
        return src;
      }
    }
  }

  private parseSimple(): string {
    const c = this.peek();
    if (c === undefined) this.fail('unexpected end of the expression');
    switch (c) {
      case '.':
        this.pos++;
        return '[^]';
      case '#':
        this.pos++;
        return '(?!)';
      case '@':
        this.pos++;
        return '[^]*';
      case '"': {
        const end = this.s.indexOf('"', this.pos + 1);
        if (end < 0) this.fail('unterminated string "…"');
        const text = this.s.slice(this.pos + 1, end);
        this.pos = end + 1;
        return `(?:${[...text].map(literal).join('')})`;
      }
      case '(': {
        this.pos++;
        if (this.peek() === ')') {
          this.pos++;
          return '(?:)';
        }
        const inner = this.parseUnionInGroup();
        if (this.peek() !== ')') this.fail('missing )');
        this.pos++;
        return `(?:${inner})`;
      }
      case '[':
        return this.parseClass();
      case '<':
        this.fail('<n-m> intervals and <name> automata are not supported by nutch-ts');
      // eslint-disable-next-line no-fallthrough
      case ')':
      case '*':
      case '+':
      case '?':
      case '{':
      case '}':
      case ']':
      case '>':
        this.fail(`unexpected ${JSON.stringify(c)}: escape it as \\${c}`);
      // eslint-disable-next-line no-fallthrough
      default:
        return literal(this.charExp());
    }
  }

  private charExp(): string {
    if (this.peek() === '\\') {
      this.pos++;
      if (!this.more()) this.fail('a \\ at the end escapes nothing');
    }
    const cp = this.s.codePointAt(this.pos)!;
    const ch = String.fromCodePoint(cp);
    this.pos += ch.length;
    return ch;
  }

  private parseClass(): string {
    this.pos++;
    let negate = false;
    if (this.peek() === '^') {
      negate = true;
      this.pos++;
    }
    let body = '';
    const esc = (ch: string) => (CLASS_SPECIAL.has(ch) ? `\\${ch}` : ch);
    while (this.peek() !== ']') {
      if (!this.more()) this.fail('missing ] of a character class');
      const from = this.charExp();
      if (this.peek() === '-' && this.s[this.pos + 1] !== ']' && this.s[this.pos + 1] !== undefined) {
        this.pos++;
        const to = this.charExp();
        if (to.codePointAt(0)! < from.codePointAt(0)!) this.fail(`range ${from}-${to} is backwards`);
        body += `${esc(from)}-${esc(to)}`;
      } else {
        body += esc(from);
      }
    }
    this.pos++;
    if (!body) this.fail('empty character class');
    return `[${negate ? '^' : ''}${body}]`;
  }
}

/** A RegExp whose test() is true exactly when brics' automaton accepts the whole input. */
export function compileBricsRegex(pattern: string): RegExp {
  const branches = new Parser(pattern).parseRule();
  const js = branches.map((terms) => {
    if (terms.length === 1 && !terms[0]!.negated) return `(?:${terms[0]!.source})$`;
    return terms.map((t) => `(?${t.negated ? '!' : '='}(?:${t.source})$)`).join('');
  });
  try {
    return new RegExp(`^(?:${js.join('|')})`, 'u');
  } catch (err) {
    throw new BricsRegexError(`cannot be compiled as translated (${(err as Error).message})`, 0);
  }
}
