/**
 * Java's `\p{…}` / `\P{…}` names, mapped to code-point ranges (POSIX classes, US-ASCII as in
 * java.util.regex) or to a JavaScript `\p{…}` property (Unicode categories, scripts, binary
 * properties). Unicode blocks (`InGreek`) have no JavaScript equivalent and are rejected.
 */
import { POSIX, type Ranges } from './char-set.js';

export type PropertyTranslation = { ranges: Ranges } | { js: string } | { error: string };

const BINARY: Record<string, string> = {
  alphabetic: 'Alphabetic',
  ideographic: 'Ideographic',
  letter: 'L',
  lowercase: 'Lowercase',
  uppercase: 'Uppercase',
  titlecase: 'Lt',
  punctuation: 'P',
  control: 'Cc',
  white_space: 'White_Space',
  whitespace: 'White_Space',
  digit: 'Nd',
  hex_digit: 'Hex_Digit',
  hexdigit: 'Hex_Digit',
  join_control: 'Join_Control',
  joincontrol: 'Join_Control',
  noncharacter_code_point: 'Noncharacter_Code_Point',
  noncharactercodepoint: 'Noncharacter_Code_Point',
  assigned: 'Assigned',
  emoji: 'Emoji',
};

const JAVA_CHARACTER: Record<string, string> = {
  javaLowerCase: 'Lowercase',
  javaUpperCase: 'Uppercase',
  javaLetter: 'L',
  javaDigit: 'Nd',
  javaAlphabetic: 'Alphabetic',
  javaIdeographic: 'Ideographic',
  javaTitleCase: 'Lt',
};

const CATEGORY = /^(?:[LMNPSZC]|L[ultmo&]|LC|M[nce]|N[dlo]|P[cdseifo]|S[mcko]|Z[slp]|C[cfson])$/;

function category(name: string): string | null {
  if (!CATEGORY.test(name)) return null;
  if (name === 'L&' || name === 'LC') return 'LC';
  return name;
}

/** Translates the name inside `\p{name}`; the caller negates for `\P`. */
export function translateProperty(name: string): PropertyTranslation {
  if (POSIX[name]) return { ranges: POSIX[name] };
  if (JAVA_CHARACTER[name]) return { js: JAVA_CHARACTER[name] };
  const cat = category(name);
  if (cat) return { js: cat };
  const eq = name.indexOf('=');
  if (eq > 0) {
    const key = name.slice(0, eq).toLowerCase();
    const value = name.slice(eq + 1);
    if (key === 'gc' || key === 'general_category') {
      const c = category(value);
      return c ? { js: c } : { error: `unknown general category "${value}"` };
    }
    if (key === 'sc' || key === 'script') return { js: `Script=${value}` };
    if (key === 'blk' || key === 'block') return { error: `Unicode blocks (\\p{${name}}) have no JavaScript equivalent` };
    return { error: `unknown property "${name}"` };
  }
  if (name.startsWith('In')) return { error: `Unicode blocks (\\p{${name}}) have no JavaScript equivalent` };
  if (name.startsWith('Is')) {
    const rest = name.slice(2);
    const c = category(rest);
    if (c) return { js: c };
    const bin = BINARY[rest.toLowerCase()];
    if (bin) return { js: bin };
    if (POSIX[rest]) return { ranges: POSIX[rest] };
    return { js: `Script=${rest}` };
  }
  return { error: `unknown character property "${name}"` };
}
