/**
 * Translates a java.util.regex pattern (what Nutch's rule files hold) into an equivalent JavaScript
 * RegExp, or throws a message saying which construct cannot be expressed. Never silently different:
 * - leading `(?i)`, `(?s)`, `(?m)` become flags; an inline `(?i)` later in the pattern, or `(?i:…)`,
 *   applies to the rest of its group as in Java (letters expanded to `[xX]`, classes get both cases);
 * - `\Q…\E`, `\A`, `\z`, `\Z`, `\h`, `\H`, `\v`, `\V`, `\R`, `\e`, `\a`, `\x{…}`, octal `\0nn` and POSIX/Java `\p{…}`
 *   classes are rewritten; Unicode `\p{L}`-style classes switch the RegExp to the `u` flag;
 * - escaped punctuation that JavaScript does not need escaped (`\&`, `\<`) becomes the literal;
 * - a `]` right after `[` or `[^` is literal, as in Java;
 * - possessive quantifiers, atomic groups, class intersection `&&`, nested classes and `\G` are
 *   rejected: JavaScript has no equivalent.
 */
export interface TranslatedRegex {
  source: string;
  flags: string;
}

const POSIX: Record<string, string> = {
  Lower: 'a-z', Upper: 'A-Z', ASCII: '\\x00-\\x7F', Alpha: 'A-Za-z', Digit: '0-9', Alnum: 'A-Za-z0-9',
  Punct: '!-\\/:-@\\[-`{-~', Graph: '!-~', Print: ' -~', Blank: ' \\t', Cntrl: '\\x00-\\x1F\\x7F',
  XDigit: '0-9a-fA-F', Space: ' \\t\\n\\x0B\\f\\r', javaLowerCase: 'a-z', javaUpperCase: 'A-Z',
  javaWhitespace: ' \\t\\n\\x0B\\f\\r\\x1C-\\x1F',
};
const HORIZONTAL_SPACE = ' \\t\\xA0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000';
const VERTICAL_SPACE = '\\n\\x0B\\f\\r\\x85\\u2028\\u2029';
const JS_SYNTAX = '^$\\.*+?()[]{}|/';

export class JavaRegexError extends Error {}

function isLetter(ch: string): boolean {
  return ch.toLowerCase() !== ch.toUpperCase();
}

function otherCase(ch: string): string {
  const lower = ch.toLowerCase();
  return lower === ch ? ch.toUpperCase() : lower;
}

function hex(cp: number): string {
  return cp <= 0xffff ? '\\u' + cp.toString(16).padStart(4, '0') : `\\u{${cp.toString(16)}}`;
}

export function translateJavaRegex(pattern: string): TranslatedRegex {
  let i = 0;
  const flags = new Set<string>();
  let needUnicode = false;
  // Global flags: one or more leading (?flags) groups.
  for (let m = /^\(\?([a-zA-Z]+)\)/.exec(pattern); m; m = /^\(\?([a-zA-Z]+)\)/.exec(pattern.slice(i))) {
    for (const f of m[1]) {
      if (f === 'i' || f === 's' || f === 'm') flags.add(f);
      else if (f === 'u' || f === 'U' || f === 'd') continue; // Unicode case / line-terminator variants: no effect on URLs
      else throw new JavaRegexError(`inline flag (?${f}) is not supported`);
    }
    i += m[0].length;
  }
  const globalCI = flags.has('i');
  let out = '';
  // One entry per open group: is case-insensitivity (from an inline (?i)) active inside it?
  const ciStack: boolean[] = [false];
  let lastWasQuantifier = false;

  const ci = (): boolean => !globalCI && ciStack[ciStack.length - 1];
  const literal = (ch: string): string => {
    const esc = JS_SYNTAX.includes(ch) ? '\\' + ch : ch;
    return ci() && isLetter(ch) ? `[${ch}${otherCase(ch)}]` : esc;
  };

  while (i < pattern.length) {
    const ch = pattern[i];
    const quantifierBefore = lastWasQuantifier;
    lastWasQuantifier = false;
    if (ch === '\\') {
      const [js, len] = translateEscape(pattern, i, false);
      out += js === null ? literal(pattern[i + 1]) : js;
      i += len;
      continue;
    }
    if (ch === '[') {
      const [js, len] = translateClass(pattern, i);
      out += js;
      i += len;
      continue;
    }
    if (ch === '(') {
      if (pattern.startsWith('(?>', i)) throw new JavaRegexError(`atomic group (?>…) at offset ${i} has no JavaScript equivalent`);
      const inline = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]+))?([:)])/.exec(pattern.slice(i));
      if (inline && (inline[1] !== '' || inline[2])) {
        const on = inline[1];
        const off = inline[2] ?? '';
        for (const f of on + off) if (f !== 'i') throw new JavaRegexError(`inline flag ${f} at offset ${i} is only supported at the start of the pattern`);
        if (globalCI && off.includes('i')) throw new JavaRegexError(`(?-i) at offset ${i} inside a case-insensitive pattern is not supported`);
        const value = on.includes('i') ? true : off.includes('i') ? false : ciStack[ciStack.length - 1];
        if (inline[3] === ')') {
          ciStack[ciStack.length - 1] = value; // (?i): rest of the enclosing group
        } else {
          ciStack.push(value);
          out += '(?:';
        }
        i += inline[0].length;
        continue;
      }
      const opener = /^\((?:\?(?::|=|!|<=|<!|<[A-Za-z][A-Za-z0-9]*>))?/.exec(pattern.slice(i))![0];
      if (opener === '(' && pattern[i + 1] === '?') throw new JavaRegexError(`group construct ${pattern.slice(i, i + 4)} at offset ${i} is not supported`);
      ciStack.push(ciStack[ciStack.length - 1]);
      out += opener;
      i += opener.length;
      continue;
    }
    if (ch === ')') {
      if (ciStack.length > 1) ciStack.pop();
      out += ')';
      i++;
      continue;
    }
    if (ch === '*' || ch === '+' || ch === '?' || ch === '{') {
      if (ch === '+' && quantifierBefore) throw new JavaRegexError(`possessive quantifier at offset ${i} has no JavaScript equivalent; use a greedy one`);
      if (ch === '{') {
        const m = /^\{\d+(,\d*)?\}/.exec(pattern.slice(i));
        if (!m) {
          out += '\\{';
          i++;
          continue;
        }
        out += m[0];
        i += m[0].length;
      } else {
        out += ch;
        i++;
      }
      if (pattern[i] === '?') {
        out += '?';
        i++;
      } else if (pattern[i] === '+') {
        throw new JavaRegexError(`possessive quantifier at offset ${i - 1} has no JavaScript equivalent; use a greedy one`);
      }
      lastWasQuantifier = true;
      continue;
    }
    if (ch === '}' || ch === ']') {
      out += '\\' + ch;
      i++;
      continue;
    }
    if (ch === '.' || ch === '^' || ch === '$' || ch === '|') {
      out += ch;
      i++;
      continue;
    }
    const cp = pattern.codePointAt(i)!;
    const s = String.fromCodePoint(cp);
    out += literal(s);
    i += s.length;
  }
  if (ciStack.length !== 1) throw new JavaRegexError('unbalanced parentheses');

  // Which translated constructs need the u flag is decided by \p{…}; the rest is valid either way.
  if (/\\[pP]\{/.test(out)) needUnicode = true;
  return { source: out, flags: [...flags].join('') + (needUnicode ? 'u' : '') };

  /** An escape at pattern[at]; returns [js or null for "literal next char", consumed length]. */
  function translateEscape(p: string, at: number, inClass: boolean): [string | null, number] {
    const next = p[at + 1];
    if (next === undefined) throw new JavaRegexError('pattern ends with a lone backslash');
    switch (next) {
      case 'Q': {
        const end = p.indexOf('\\E', at + 2);
        const quoted = p.slice(at + 2, end < 0 ? p.length : end);
        const js = [...quoted].map((c) => (inClass ? (c === ']' || c === '\\' || c === '^' || c === '-' ? '\\' + c : c) : literal(c))).join('');
        return [js, (end < 0 ? p.length : end + 2) - at];
      }
      case 'E': return ['', 2];
      case 'A': return [inClass ? bad('\\A inside a class') : '^', 2];
      case 'z': return [inClass ? bad('\\z inside a class') : '$', 2];
      case 'Z': return [inClass ? bad('\\Z inside a class') : '(?=\\n?$)', 2];
      case 'G': return [bad('\\G (end of previous match) has no JavaScript equivalent'), 2];
      case 'h': return [inClass ? HORIZONTAL_SPACE : `[${HORIZONTAL_SPACE}]`, 2];
      case 'H': return [inClass ? bad('\\H inside a class') : `[^${HORIZONTAL_SPACE}]`, 2];
      case 'v': return [inClass ? VERTICAL_SPACE : `[${VERTICAL_SPACE}]`, 2];
      case 'V': return [inClass ? bad('\\V inside a class') : `[^${VERTICAL_SPACE}]`, 2];
      case 'R': return [inClass ? bad('\\R inside a class') : '(?:\\r\\n|[\\n\\x0B\\f\\r\\x85\\u2028\\u2029])', 2];
      case 'e': return ['\\x1B', 2];
      case 'a': return ['\\x07', 2];
      case 'x': {
        if (p[at + 2] === '{') {
          const end = p.indexOf('}', at + 3);
          const cp = parseInt(p.slice(at + 3, end), 16);
          if (end < 0 || !Number.isFinite(cp)) bad('malformed \\x{…} escape');
          if (cp > 0xffff) needUnicode = true;
          return [hex(cp), end + 1 - at];
        }
        return ['\\x' + p.slice(at + 2, at + 4), 4];
      }
      case '0': {
        const m = /^[0-3]?[0-7]{1,2}/.exec(p.slice(at + 2));
        if (!m) bad('malformed octal escape \\0');
        return [hex(parseInt(m![0], 8)), 2 + m![0].length];
      }
      case 'p':
      case 'P': {
        const m = /^\{(\w+)\}/.exec(p.slice(at + 2));
        const name = m ? m[1] : p[at + 2];
        const len = m ? 2 + m[0].length : 3;
        const posix = POSIX[name.replace(/^Is/, '')] ?? POSIX[name];
        if (posix) {
          if (inClass) {
            if (next === 'P') bad(`negated class \\P{${name}} inside [...]`);
            return [posix, len];
          }
          return [`[${next === 'P' ? '^' : ''}${posix}]`, len];
        }
        const bare = name.replace(/^Is/, '');
        const unicodeName = [bare, `Script=${bare}`].find((n) => {
          try {
            return new RegExp(`\\p{${n}}`, 'u') !== null;
          } catch {
            return false;
          }
        });
        if (!unicodeName || name.startsWith('In')) bad(`\\${next}{${name}} is not a character class JavaScript knows (Unicode blocks are not supported)`);
        needUnicode = true;
        return [`\\${next}{${unicodeName}}`, len];
      }
      default:
        if (/[A-Za-z0-9]/.test(next)) return ['\\' + next, 2]; // \d \w \s \b \1 \t \n \u… \k<…> etc.
        if (inClass) return [next === ']' || next === '\\' || next === '^' || next === '-' || next === '[' ? '\\' + next : next, 2];
        return [null, 2];
    }
  }

  function translateClass(p: string, at: number): [string, number] {
    let j = at + 1;
    let js = '[';
    if (p[j] === '^') {
      js += '^';
      j++;
    }
    if (p[j] === ']') {
      js += '\\]';
      j++;
    }
    const extra: string[] = [];
    while (j < p.length && p[j] !== ']') {
      const c = p[j];
      if (c === '[') bad(`nested character class at offset ${j} (Java union) is not supported`);
      if (c === '&' && p[j + 1] === '&') bad(`class intersection && at offset ${j} is not supported`);
      if (c === '\\') {
        const [e, len] = translateEscape(p, j, true);
        js += e ?? p[j + 1];
        j += len;
        continue;
      }
      const cp = p.codePointAt(j)!;
      const s = String.fromCodePoint(cp);
      if (ci()) {
        // a-z style range: add the other-case range; single letters: add the other case.
        if (p[j + s.length] === '-' && p[j + s.length + 1] !== undefined && p[j + s.length + 1] !== ']') {
          const to = p[j + s.length + 1];
          if (isLetter(s) && isLetter(to) && otherCase(s) !== s && otherCase(to) !== to) extra.push(`${otherCase(s)}-${otherCase(to)}`);
          js += `${s}-${to === '\\' ? bad('escaped range end') : to}`;
          j += s.length + 2;
          continue;
        }
        if (isLetter(s)) extra.push(otherCase(s));
      }
      js += s === '/' ? '\\/' : s;
      j += s.length;
    }
    if (j >= p.length) bad('unclosed character class');
    return [js + extra.join('') + ']', j + 1 - at];
  }

  function bad(message: string): never {
    throw new JavaRegexError(message);
  }
}
