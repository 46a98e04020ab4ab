/**
 * Where a JSON text first goes wrong. V8's JSON.parse gives a position for some errors only
 * ("Unexpected token" and "end of input" have none), so json-file.ts finds the offset by this
 * strict scan of RFC 8259's grammar; each production is one method.
 */

/** Offset of the first syntax error in `s` (s.length when the input ends early). */
export function jsonErrorOffset(s: string): number {
  const scan = new JsonSyntaxScan(s);
  try {
    scan.value();
    scan.ws();
    if (scan.i < s.length) scan.fail();
  } catch (pos) {
    if (typeof pos === 'number') return Math.min(pos, s.length);
    throw pos;
  }
  return s.length;
}

/** A recursive-descent scan that throws the offset (a number) where the grammar is first broken. */
class JsonSyntaxScan {
  i = 0;

  constructor(private readonly s: string) {}

  fail(): never {
    throw this.i;
  }

  ws(): void {
    const s = this.s;
    while (this.i < s.length && ' \t\n\r'.includes(s[this.i]!)) this.i++;
  }

  value(): void {
    this.ws();
    const c = this.s[this.i];
    if (c === '{') this.object();
    else if (c === '[') this.array();
    else if (c === '"') this.string();
    else if (c === 't') this.literal('true');
    else if (c === 'f') this.literal('false');
    else if (c === 'n') this.literal('null');
    else this.number();
  }

  private object(): void {
    const s = this.s;
    this.i++;
    this.ws();
    if (s[this.i] === '}') return void this.i++;
    for (;;) {
      this.ws();
      this.string();
      this.ws();
      if (s[this.i] !== ':') this.fail();
      this.i++;
      this.value();
      this.ws();
      if (s[this.i] === ',') this.i++;
      else if (s[this.i] === '}') return void this.i++;
      else this.fail();
    }
  }

  private array(): void {
    const s = this.s;
    this.i++;
    this.ws();
    if (s[this.i] === ']') return void this.i++;
    for (;;) {
      this.value();
      this.ws();
      if (s[this.i] === ',') this.i++;
      else if (s[this.i] === ']') return void this.i++;
      else this.fail();
    }
  }

  /** A string: no raw control characters, only JSON's escapes, `\u` with four hex digits. */
  private string(): void {
    const s = this.s;
    if (s[this.i] !== '"') this.fail();
    this.i++;
    while (this.i < s.length && s[this.i] !== '"') {
      if (s.charCodeAt(this.i) < 0x20) this.fail();
      if (s[this.i] === '\\') {
        this.i++;
        if (s[this.i] === 'u') {
          // the offset is the first digit that is not hex
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(s[this.i + k] ?? '')) (this.i += k), this.fail();
          this.i += 4;
        } else if (!'"\\/bfnrt'.includes(s[this.i] ?? 'x')) this.fail();
      }
      this.i++;
    }
    if (this.i >= s.length) this.fail();
    this.i++;
  }

  private number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) this.fail();
    this.i += m![0].length;
  }

  private literal(word: string): void {
    for (const ch of word) {
      if (this.s[this.i] !== ch) this.fail();
      this.i++;
    }
  }
}
