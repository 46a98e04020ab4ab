/**
 * The reading position in a Java pattern, its inline flags, the look-aheads the translator needs
 * (COMMENTS whitespace, a top-level alternative), and the escapes that read the same inside and
 * outside a character class (`\d`, `\p{…}`, `\x41`, `\0101`, `\cA`, `\.` …).
 */
import { PREDEFINED, addAsciiCaseVariants, complement, type Ranges } from './char-set.js';
import { translateProperty } from './properties.js';

export class JavaRegexError extends Error {
  constructor(message: string, readonly index: number) {
    super(`${message} near index ${index}`);
    this.name = 'JavaRegexError';
  }
}

/** Java's inline flags: CASE_INSENSITIVE, DOTALL, MULTILINE, COMMENTS, UNIX_LINES, UNICODE_CASE. */
export interface Flags {
  i: boolean; s: boolean; m: boolean; x: boolean; d: boolean; u: boolean;
}

export class PatternCursor {
  pos = 0;
  flags: Flags = { i: false, s: false, m: false, x: false, d: false, u: false };
  /** A leading (?iu): case folding is left to JavaScript's `iu` flags. */
  nativeIgnoreCase = false;

  constructor(readonly src: string) {}

  error(message: string, at = this.pos): never {
    throw new JavaRegexError(message, at);
  }

  /** A leading `.*` only matters when the pattern has alternatives; find() semantics ignore it otherwise. */
  peekEndsBranchlessRoot(): boolean {
    let depth = 0;
    let inClass = 0;
    for (let i = this.pos; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === '\\') { i++; continue; }
      if (inClass) { if (c === '[') inClass++; else if (c === ']') inClass--; continue; }
      if (c === '[') inClass = 1;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === '|' && depth === 0) return false;
    }
    return true;
  }

  /** COMMENTS (?x): skips one whitespace character or a `#` comment; false when there is none. */
  skipExtended(): boolean {
    const c = this.src[this.pos];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\x0b') { this.pos++; return true; }
    if (c === '#') {
      while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      return true;
    }
    return false;
  }

  /** Java's ASCII-only case-insensitivity applied to a set, when (?i) is on. */
  caseFold(r: Ranges): Ranges {
    return this.flags.i && !this.nativeIgnoreCase ? addAsciiCaseVariants(r) : r;
  }

  /** Character-class escapes: `\d \w \s \h \v`, their negations, `\p{…}`; null when not one. */
  classEscape(): { ranges: Ranges; js?: string } | null {
    const c = this.src[this.pos + 1];
    const lower = c.toLowerCase();
    if (PREDEFINED[lower] && 'dwshvDWSHV'.includes(c)) {
      this.pos += 2;
      return { ranges: c === lower ? PREDEFINED[lower] : complement(PREDEFINED[lower]) };
    }
    if (c === 'p' || c === 'P') {
      const at = this.pos;
      let name: string;
      if (this.src[this.pos + 2] === '{') {
        const end = this.src.indexOf('}', this.pos + 3);
        if (end === -1) this.error('Unclosed character family', at);
        name = this.src.slice(this.pos + 3, end);
        this.pos = end + 1;
      } else {
        name = this.src[this.pos + 2] ?? '';
        this.pos += 3;
      }
      let negate = c === 'P';
      if (name.startsWith('^')) { negate = !negate; name = name.slice(1); }
      const t = translateProperty(name);
      if ('error' in t) this.error(t.error, at);
      if ('ranges' in t) return { ranges: negate ? complement(t.ranges) : t.ranges };
      const js = `\\${negate ? 'P' : 'p'}{${t.js}}`;
      try {
        new RegExp(js, 'u');
      } catch {
        this.error(`unknown character property "${name}"`, at);
      }
      return { ranges: [], js };
    }
    return null;
  }

  /** A single-character escape (`\t`, `\x41`, `\u00e9`, `\0101`, `\cA`, `\.` …) as a code point. */
  charEscape(): number {
    const at = this.pos;
    const c = this.src[this.pos + 1];
    const simple: Record<string, number> = { t: 9, n: 10, r: 13, f: 12, a: 7, e: 27 };
    if (simple[c] !== undefined) { this.pos += 2; return simple[c]; }
    if (c === '0') {
      const m = /^[0-7]{1,3}/.exec(this.src.slice(this.pos + 2));
      if (!m) this.error('Illegal octal escape sequence', at);
      let digits = m[0];
      if (digits.length === 3 && Number(digits[0]) > 3) digits = digits.slice(0, 2);
      this.pos += 2 + digits.length;
      return parseInt(digits, 8);
    }
    if (c === 'x') {
      const braced = /^\\x\{([0-9a-fA-F]+)\}/.exec(this.src.slice(this.pos));
      if (braced) {
        const cp = parseInt(braced[1], 16);
        if (cp > 0x10ffff) this.error('Hexadecimal codepoint is too big', at);
        this.pos += braced[0].length;
        return cp;
      }
      const m = /^\\x([0-9a-fA-F]{2})/.exec(this.src.slice(this.pos));
      if (!m) this.error('Illegal hexadecimal escape sequence', at);
      this.pos += 4;
      return parseInt(m[1], 16);
    }
    if (c === 'u') {
      const m = /^\\u([0-9a-fA-F]{4})/.exec(this.src.slice(this.pos));
      if (!m) this.error('Illegal Unicode escape sequence', at);
      this.pos += 6;
      let cp = parseInt(m[1], 16);
      const low = /^\\u(d[c-f][0-9a-f]{2})/i.exec(this.src.slice(this.pos));
      if (cp >= 0xd800 && cp <= 0xdbff && low) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (parseInt(low[1], 16) - 0xdc00);
        this.pos += 6;
      }
      return cp;
    }
    if (c === 'c') {
      const x = this.src[this.pos + 2];
      if (x === undefined) this.error('Illegal control escape sequence', at);
      this.pos += 3;
      return x.charCodeAt(0) ^ 64;
    }
    if (/[a-zA-Z]/.test(c)) this.error(`Illegal/unsupported escape sequence \\${c}`, at);
    if (/[0-9]/.test(c)) this.error(`Illegal/unsupported escape sequence \\${c}`, at);
    const cp = this.src.codePointAt(this.pos + 1)!;
    this.pos += cp > 0xffff ? 3 : 2;
    return cp;
  }
}
