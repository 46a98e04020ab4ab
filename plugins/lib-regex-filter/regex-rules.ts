/**
 * Nutch's regex-urlfilter.txt format (RegexURLFilterBase): one rule per line, `+` (accept) or `-`
 * (reject) followed by a java.util.regex pattern, taken verbatim (trailing spaces included, as
 * Nutch does). `#` and lines starting with a space are comments, blank lines are skipped;
 * `>host-or-domain` starts a block of rules that apply only to that host or domain, `<` ends it.
 * Any other first character is an error naming the file and line, as Nutch's IOException.
 */
import { compileJavaRegex } from './java-regex/index.js';
import { ruleError, type RuleSource } from './rule-source.js';

export interface RegexRule {
  accept: boolean;
  regex: RegExp;
  /** The Java pattern as written. */
  pattern: string;
  line: number;
  /** Only for URLs whose host or domain is this (lower case), when set. */
  hostOrDomain: string | null;
}

export function parseRegexRules(source: RuleSource): RegexRule[] {
  const rules: RegexRule[] = [];
  let hostOrDomain: string | null = null;
  source.lines.forEach((line, i) => {
    const lineNo = i + 1;
    if (line.trim() === '') return;
    const first = line[0];
    if (first === '#' || first === ' ') return;
    if (first === '>') {
      hostOrDomain = line.slice(1).trim().toLowerCase() || null;
      return;
    }
    if (first === '<') {
      hostOrDomain = null;
      return;
    }
    if (first !== '+' && first !== '-') {
      throw ruleError(source, lineNo, `invalid first character ${JSON.stringify(first)}: a rule starts with '+' or '-', a comment with '#'`, line);
    }
    const pattern = line.slice(1);
    let regex: RegExp;
    try {
      regex = compileJavaRegex(pattern);
    } catch (err) {
      throw ruleError(source, lineNo, `invalid regular expression: ${(err as Error).message}`, pattern);
    }
    rules.push({ accept: first === '+', regex, pattern, line: lineNo, hostOrDomain });
  });
  return rules;
}
