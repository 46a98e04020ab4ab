/**
 * Translates a java.util.regex pattern into an equivalent JavaScript RegExp (always the `u` flag,
 * so `.` and classes work on code points as in Java). Java constructs JavaScript lacks are rewritten
 * exactly — inline flags (ASCII case-folding expanded into classes), possessive quantifiers and
 * atomic groups (lookahead + backreference), `\p{…}`, `\A \Z \z`, `\Q…\E`, class union and
 * intersection, Java's line terminators for `. ^ $` — and anything that cannot be rewritten exactly
 * throws JavaRegexError with the offset, never a silently different pattern.
 */
import { addAsciiCaseVariants, classBody, literal, normalize, type Ranges } from './char-set.js';
import { INPUT_END_JS, INPUT_START_JS, LINEBREAK_JS, caretJs, dollarJs, dotJs, endBeforeTerminatorJs } from './line-anchors.js';
import { parseCharClass } from './char-class.js';
import { JavaRegexError, PatternCursor, type Flags } from './pattern-cursor.js';

export { JavaRegexError } from './pattern-cursor.js';

/** A group being parsed (or the whole pattern): enough to tell whether a capture surely took part. */
interface Frame {
  branch: number;
  hasAlternation: boolean;
  optional: boolean;
  negative: boolean;
  closed: boolean;
}

interface Capture {
  jsIndex: number;
  closed: boolean;
  frame: Frame;
  /** Enclosing frames with the branch each was in when the capture opened. */
  ancestors: Array<{ frame: Frame; branch: number }>;
}

interface Piece {
  js: string;
  quantifiable: boolean;
  /** true for `.` (to strip a leading `.*` that cannot change a find()). */
  dot?: boolean;
  frame?: Frame;
}

export interface TranslatedRegex {
  source: string;
  flags: string;
  /**
   * JavaScript group number of each Java group (index 0 = Java group 1): possessive quantifiers and
   * atomic groups add capturing groups, so a substitution's `$n` must be renumbered through this.
   */
  groups: number[];
}

const SET_CLASS_META = new Set([...'^$\\.*+?()[]{}|/']);

export interface TranslateOptions {
  /**
   * How the RegExp is used: `find` (default) for Matcher.find() through test(), where a leading `.*`
   * of a pattern without alternatives cannot change the answer and is dropped (it would only make
   * long URLs slow); `replace` for replace-all (urlnormalizer-regex), where it changes what is
   * replaced, so every piece is kept.
   */
  use?: 'find' | 'replace';
}

export function translateJavaRegex(pattern: string, options: TranslateOptions = {}): TranslatedRegex {
  return new Translator(pattern, options.use !== 'replace').run();
}

class Translator extends PatternCursor {
  constructor(src: string, private readonly dropLeadingDotStar: boolean) {
    super(src);
  }

  private jsGroups = 0;
  private readonly captures: Capture[] = [];
  private readonly names = new Map<string, number>();
  private readonly frames: Frame[] = [];

  run(): TranslatedRegex {
    // (?iu) at the very start: Unicode case folding, which JavaScript's `iu` flags implement.
    const lead = /^\(\?([idmsux]*)\)/.exec(this.src);
    if (lead && lead[1].includes('i') && lead[1].includes('u')) this.nativeIgnoreCase = true;
    const root: Frame = { branch: 0, hasAlternation: false, optional: false, negative: false, closed: false };
    this.frames.push(root);
    const body = this.alternation(root, true);
    if (this.pos < this.src.length) throw new JavaRegexError(`Unmatched closing ')'`, this.pos);
    return { source: body, flags: this.nativeIgnoreCase ? 'iu' : 'u', groups: this.captures.map((c) => c.jsIndex) };
  }

  private alternation(frame: Frame, root = false): string {
    const branches: string[] = [];
    const saved = { ...this.flags };
    for (;;) {
      branches.push(this.sequence(this.dropLeadingDotStar && root && branches.length === 0));
      if (this.src[this.pos] === '|') {
        this.pos++;
        frame.branch++;
        frame.hasAlternation = true;
        continue;
      }
      break;
    }
    this.flags = saved;
    return branches.join('|');
  }

  private sequence(stripLeadingDotStar: boolean): string {
    const parts: string[] = [];
    let first = true;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === '|' || c === ')') break;
      if (this.flags.x && this.skipExtended()) continue;
      const groupsBefore = this.jsGroups;
      const piece = this.atom();
      if (piece === null) continue;
      const quantified = this.quantifier(piece, groupsBefore);
      const isLeadingDotStar = first && piece.dot && /^\*\??$/.test(quantified.suffix) && !quantified.possessive;
      first = false;
      if (stripLeadingDotStar && isLeadingDotStar && this.peekEndsBranchlessRoot()) continue;
      parts.push(quantified.js);
    }
    return parts.join('');
  }

  private quantifier(piece: Piece, groupsBefore: number): { js: string; suffix: string; possessive: boolean } {
    if (this.flags.x) while (this.pos < this.src.length && this.skipExtended());
    const start = this.pos;
    const c = this.src[this.pos];
    let suffix: string;
    let min = 0;
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      suffix = c;
      min = c === '+' ? 1 : 0;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
      if (!m) this.error('Illegal repetition', this.pos);
      if (m[3] && Number(m[3]) < Number(m[1])) this.error('Illegal repetition range', this.pos);
      this.pos += m[0].length;
      suffix = m[0];
      min = Number(m[1]);
    } else {
      return { js: piece.js, suffix: '', possessive: false };
    }
    if (!piece.quantifiable) this.error(`Dangling meta character '${c}'`, start);
    let possessive = false;
    if (this.src[this.pos] === '?') { suffix += '?'; this.pos++; }
    else if (this.src[this.pos] === '+') { possessive = true; this.pos++; }
    if (piece.frame && min === 0) piece.frame.optional = true;
    const next = this.src[this.pos];
    if (next === '*' || next === '+' || next === '?' || (next === '{' && /^\{\d/.test(this.src.slice(this.pos)))) {
      this.error(`Dangling meta character '${next}'`);
    }
    const lookaround = /^\(\?<?[=!]/.test(piece.js);
    const atom = (piece.frame && !lookaround) || piece.js.length === 1 || /^\[[^\]]*\]$/.test(piece.js) ? piece.js : `(?:${piece.js})`;
    if (!possessive) return { js: atom + suffix, suffix, possessive };
    return { js: this.possessive(atom + suffix, groupsBefore, start), suffix, possessive };
  }

  /**
   * `X*+` as JavaScript can say it: a lookahead captures what X* takes, a backreference consumes it
   * without backtracking. The wrapper's group opens before X's groups, so those shift up by one.
   */
  private possessive(inner: string, groupsBefore: number, at: number): string {
    const index = groupsBefore + 1;
    if (this.jsGroups > groupsBefore && /\\[1-9]/.test(inner)) this.error('a possessive quantifier on a group holding a backreference has no exact JavaScript form', at);
    this.jsGroups++;
    for (const cap of this.captures) if (cap.jsIndex >= index) cap.jsIndex++;
    for (const [name, idx] of this.names) if (idx >= index) this.names.set(name, idx + 1);
    return `(?:(?=(${inner}))\\${index})`;
  }

  private atom(): Piece | null {
    const c = this.src[this.pos];
    const at = this.pos;
    switch (c) {
      case '(':
        return this.group();
      case '[': {
        this.pos++;
        return { js: parseCharClass(this), quantifiable: true };
      }
      case '.':
        this.pos++;
        return { js: dotJs(this.flags), quantifiable: true, dot: true };
      case '^':
        this.pos++;
        return { js: caretJs(this.flags), quantifiable: false };
      case '$':
        this.pos++;
        return { js: dollarJs(this.flags), quantifiable: false };
      case '\\':
        return this.escape();
      case '*': case '+': case '?':
        this.error(`Dangling meta character '${c}'`, at);
      // falls through (error() never returns)
      case '{':
        this.error('Illegal repetition', at);
      // falls through
      default: {
        const cp = this.src.codePointAt(this.pos)!;
        this.pos += cp > 0xffff ? 2 : 1;
        return { js: this.char(cp), quantifiable: true };
      }
    }
  }

  private char(cp: number): string {
    if (this.flags.i && !this.nativeIgnoreCase) {
      const set = addAsciiCaseVariants([[cp, cp]]);
      if (set.length > 1 || set[0][0] !== set[0][1]) return `[${classBody(set)}]`;
    }
    return literal(cp);
  }

  private group(): Piece | null {
    const start = this.pos;
    this.pos++;
    const frame: Frame = { branch: 0, hasAlternation: false, optional: false, negative: false, closed: false };
    let prefix = '(?:';
    let capture: Capture | null = null;
    let atomic = false;
    let savedFlags: Flags | null = null;
    if (this.src[this.pos] === '?') {
      this.pos++;
      const k = this.src[this.pos];
      if (k === ':') { this.pos++; }
      else if (k === '=' || k === '!') { this.pos++; prefix = `(?${k}`; frame.negative = k === '!'; }
      else if (k === '>') { this.pos++; atomic = true; }
      else if (k === '<' && (this.src[this.pos + 1] === '=' || this.src[this.pos + 1] === '!')) {
        prefix = `(?<${this.src[this.pos + 1]}`;
        frame.negative = this.src[this.pos + 1] === '!';
        this.pos += 2;
      } else if (k === '<') {
        const m = /^<([a-zA-Z][a-zA-Z0-9]*)>/.exec(this.src.slice(this.pos));
        if (!m) this.error('named capturing group is missing trailing \'>\' or has an invalid name');
        if (this.names.has(m[1])) this.error(`Named capturing group <${m[1]}> is already defined`);
        this.pos += m[0].length;
        capture = this.openCapture(frame);
        this.names.set(m[1], capture.jsIndex);
        prefix = `(?<${m[1]}>`;
      } else {
        const m = /^([idmsuxU]*)(?:-([idmsuxU]*))?([:)])/.exec(this.src.slice(this.pos));
        if (!m) this.error('Unknown inline modifier', this.pos);
        this.pos += m[0].length;
        if (m[3] === ')') {
          this.setFlags(m[1], m[2] ?? '', start);
          return null;
        }
        savedFlags = { ...this.flags };
        this.setFlags(m[1], m[2] ?? '', start);
      }
    } else {
      capture = this.openCapture(frame);
      prefix = '(';
    }
    this.frames.push(frame);
    const outerFlags = savedFlags ?? { ...this.flags };
    const atomicIndex = atomic ? ++this.jsGroups : 0;
    const body = this.alternation(frame);
    this.frames.pop();
    this.flags = outerFlags;
    if (this.src[this.pos] !== ')') this.error('Unclosed group', start);
    this.pos++;
    frame.closed = true;
    if (capture) capture.closed = true;
    if (atomic) return { js: `(?:(?=(${body}))\\${atomicIndex})`, quantifiable: true, frame };
    return { js: `${prefix}${body})`, quantifiable: true, frame };
  }

  private openCapture(frame: Frame): Capture {
    const cap: Capture = {
      jsIndex: ++this.jsGroups,
      closed: false,
      frame,
      ancestors: this.frames.map((f) => ({ frame: f, branch: f.branch })),
    };
    this.captures.push(cap);
    return cap;
  }

  private setFlags(on: string, off: string, at: number): void {
    for (const [letters, value] of [[on, true], [off, false]] as const) {
      for (const f of letters) {
        if (f === 'i' && this.nativeIgnoreCase && at !== 0) this.error('(?i) cannot change after a leading (?iu)', at);
        if (f === 'u' || f === 'U') {
          if (at === 0 && value && f === 'u') { this.flags.u = true; continue; }
          this.error(`inline flag '${f}' is only supported as a leading (?iu)`, at);
        }
        this.flags[f as keyof Flags] = value;
      }
    }
  }

  private escape(): Piece {
    const at = this.pos;
    const c = this.src[this.pos + 1];
    if (c === undefined) this.error('Unexpected internal error: trailing backslash', at);
    switch (c) {
      case 'A': this.pos += 2; return { js: INPUT_START_JS, quantifiable: false };
      case 'z': this.pos += 2; return { js: INPUT_END_JS, quantifiable: false };
      case 'Z': this.pos += 2; return { js: endBeforeTerminatorJs(this.flags), quantifiable: false };
      case 'b': case 'B':
        if (this.src[this.pos + 2] === '{') this.error('\\b{g} (grapheme boundaries) has no JavaScript equivalent', at);
        this.pos += 2;
        return { js: `\\${c}`, quantifiable: false };
      case 'G': this.error('\\G has no JavaScript equivalent', at);
      // falls through
      case 'X': this.error('\\X (grapheme clusters) has no JavaScript equivalent', at);
      // falls through
      case 'R': this.pos += 2; return { js: LINEBREAK_JS, quantifiable: true };
      case 'Q': {
        const end = this.src.indexOf('\\E', this.pos + 2);
        const text = this.src.slice(this.pos + 2, end === -1 ? undefined : end);
        this.pos = end === -1 ? this.src.length : end + 2;
        let js = '';
        for (const ch of text) js += this.char(ch.codePointAt(0)!);
        return { js: text.length ? `(?:${js})` : '(?:)', quantifiable: text.length > 0 };
      }
      case 'E': this.pos += 2; return { js: '', quantifiable: false };
      case 'k': {
        const m = /^\\k<([a-zA-Z][a-zA-Z0-9]*)>/.exec(this.src.slice(this.pos));
        if (!m) this.error('\\k is not followed by \'<\' for named capturing group', at);
        if (!this.names.has(m[1])) this.error(`named capturing group <${m[1]}> does not exist`, at);
        this.pos += m[0].length;
        const cap = this.captures.find((x) => x.jsIndex === this.names.get(m[1]))!;
        return { js: this.backref(cap, at), quantifiable: true };
      }
      default:
        break;
    }
    if (c >= '1' && c <= '9') {
      let n = Number(c);
      this.pos += 2;
      while (/[0-9]/.test(this.src[this.pos] ?? '') && n * 10 + Number(this.src[this.pos]) <= this.captures.length) {
        n = n * 10 + Number(this.src[this.pos]);
        this.pos++;
      }
      const cap = this.captures[n - 1];
      if (!cap) return { js: '(?!)', quantifiable: true }; // Java: a group that does not exist never matches
      return { js: this.backref(cap, at), quantifiable: true };
    }
    const set = this.classEscape();
    if (set) return { js: this.setToJs(set), quantifiable: true };
    const cp = this.charEscape();
    return { js: this.char(cp), quantifiable: true };
  }

  /** A backreference as Java matches it: a group that did not take part makes the match fail. */
  private backref(cap: Capture, at: number): string {
    if (!cap.closed) return '(?!)';
    if (this.flags.i && !this.nativeIgnoreCase) this.error('a backreference under (?i) compares ignoring case in Java; JavaScript cannot', at);
    if (cap.frame.optional || cap.frame.negative) this.error('a backreference to an optional group behaves differently in JavaScript', at);
    for (const { frame, branch } of cap.ancestors) {
      if (frame.closed) {
        if (frame.optional || frame.hasAlternation || frame.negative) this.error('a backreference to a group inside an optional part or alternative behaves differently in JavaScript', at);
      } else if (frame.branch !== branch) {
        return '(?!)';
      }
    }
    return `\\${cap.jsIndex}`;
  }

  private setToJs(set: { ranges: Ranges; js?: string }): string {
    let ranges = set.ranges;
    if (this.flags.i && !this.nativeIgnoreCase) ranges = addAsciiCaseVariants(ranges);
    if (set.js) return ranges.length ? `[${classBody(ranges)}${set.js}]` : set.js;
    if (ranges.length === 0) return '[]';
    const n = normalize(ranges);
    if (n.length === 1 && n[0][0] === n[0][1]) {
      const cp = n[0][0];
      return SET_CLASS_META.has(String.fromCodePoint(cp)) ? `\\${String.fromCodePoint(cp)}` : literal(cp);
    }
    return `[${classBody(ranges)}]`;
  }

}
