/**
 * index.replace.regexp, parsed as Nutch's ReplaceIndexer does: lines `name=value`; `hostmatch=` and
 * `urlmatch=` open a match set (a urlmatch set stays open until the next hostmatch; before any set,
 * rules apply to every host); other lines are `field[:target]=<sep>pattern<sep>replacement[<sep>flags]`
 * with any one-character separator and java.util.regex.Pattern flags as an int. Unlike Nutch, which
 * logs a bad line and skips it, a bad line fails with the property and line named.
 */
import { NutchError } from '../../sdk/plugin.js';
import { compileJavaRegex, groupNamesOf, translateJavaRegex, translateJavaReplacement } from '../lib-regex-filter/index.js';

export interface FieldReplacer {
  field: string;
  target: string;
  regex: RegExp;
  replacement: string;
}

export interface MatchSet {
  /** `host` or `url`: the document field the key regex is tested against. */
  keyField: 'host' | 'url';
  key: RegExp;
  replacers: FieldReplacer[];
}

const PROPERTY = 'index.replace.regexp';
/** java.util.regex.Pattern flags nutch-ts can honour, as inline flags. */
const JAVA_FLAGS: [number, string][] = [[2, 'i'], [8, 'm'], [32, 's'], [4, 'x']];
/** UNICODE_CASE (64) and UNICODE_CHARACTER_CLASS (256) change nothing a JavaScript `u` RegExp does not. */
const HARMLESS_FLAGS = 64 | 256;

function bad(line: number, text: string, why: string): NutchError {
  return new NutchError('NUTCH_CONFIG_INVALID_VALUE', `${PROPERTY} line ${line}: ${why}: ${JSON.stringify(text.trim())}`, { property: PROPERTY, line });
}

function inlineFlags(flags: number, line: number, text: string): string {
  let rest = flags & ~HARMLESS_FLAGS;
  let inline = '';
  for (const [bit, letter] of JAVA_FLAGS) {
    if (rest & bit) {
      inline += letter;
      rest &= ~bit;
    }
  }
  if (rest) throw bad(line, text, `flags ${flags} include ${rest}, which nutch-ts does not support (2 case-insensitive, 4 comments, 8 multiline, 32 dotall)`);
  return inline ? `(?${inline})` : '';
}

function replacer(field: string, value: string, line: number, text: string): FieldReplacer {
  let target = field;
  const colon = field.indexOf(':');
  if (colon > 0) {
    target = field.slice(colon + 1);
    field = field.slice(0, colon);
  }
  const sep = value[0]!;
  const body = value.slice(1);
  const end = body.indexOf(sep);
  if (end < 0) throw bad(line, text, `missing the closing separator ${JSON.stringify(sep)}`);
  const pattern = body.slice(0, end);
  const afterPattern = body.slice(end + 1);
  const sepAt = afterPattern.indexOf(sep);
  const replacement = sepAt < 0 ? afterPattern : afterPattern.slice(0, sepAt);
  const flagText = sepAt < 0 ? '' : afterPattern.slice(sepAt + 1).trim();
  if (flagText && !/^\d+$/.test(flagText)) throw bad(line, text, `the flags "${flagText}" are not a number`);
  const source = inlineFlags(flagText ? Number(flagText) : 0, line, text) + pattern;
  try {
    const t = translateJavaRegex(source, { use: 'replace' });
    const regex = new RegExp(t.source, t.flags + 'g');
    return { field, target, regex, replacement: translateJavaReplacement(replacement, t.groups, groupNamesOf(regex)) };
  } catch (err) {
    throw bad(line, text, `invalid pattern or replacement (${(err as Error).message})`);
  }
}

export function parseReplaceRules(value: string): MatchSet[] {
  const sets: MatchSet[] = [];
  let current: MatchSet | null = null;
  let hostSet: MatchSet | null = null;
  const open = (keyField: 'host' | 'url', key: RegExp): MatchSet => {
    const set = { keyField, key, replacers: [] };
    sets.push(set);
    return set;
  };
  value.split(/\r\n|\n|\r/).forEach((text, i) => {
    const line = i + 1;
    const trimmed = text.trim();
    if (!trimmed) return;
    const eq = trimmed.indexOf('=');
    if (eq < 0) throw bad(line, text, 'expected name=value');
    const name = trimmed.slice(0, eq).trim();
    const rhs = trimmed.slice(eq + 1);
    if (name === 'hostmatch' || name === 'urlmatch') {
      let key: RegExp;
      try {
        key = compileJavaRegex(rhs);
      } catch (err) {
        throw bad(line, text, `${name} pattern does not compile (${(err as Error).message})`);
      }
      current = open(name === 'hostmatch' ? 'host' : 'url', key);
      if (name === 'hostmatch') hostSet = current;
      return;
    }
    // Nutch ignores values of 3 characters or fewer (no room for /p/r/)
    if (rhs.length <= 3) throw bad(line, text, 'expected field=/pattern/replacement/[flags]');
    // before any hostmatch, rules apply to every host (Nutch's initial `.*`)
    current ??= hostSet ??= open('host', /[^]*/);
    current.replacers.push(replacer(name, rhs, line, text));
  });
  return sets.filter((s) => s.replacers.length > 0);
}
