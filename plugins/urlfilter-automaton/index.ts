/**
 * urlfilter-automaton, as Nutch's AutomatonURLFilter: regex-urlfilter.txt's rule format (RegexURLFilterBase:
 * `+`/`-` rules, first match decides, no match rejects, `>host` blocks) with dk.brics.automaton
 * expressions that must match the whole URL (brics-regex.ts), so `-.*\.gif` rejects URLs ending in .gif
 * and `+http://example.com/` accepts that one URL only. Every rule is compiled at load; one nutch-ts
 * cannot express exactly fails the load naming the file and line.
 */
import { domainOf, type PluginContext, type URLFilter } from '../../sdk/plugin.js';
import { isPlausibleURL, maxURLLength, parseURL, readRuleSource, ruleError, type RuleSource } from '../lib-regex-filter/index.js';
import { compileBricsRegex } from './brics-regex.js';

interface AutomatonRule {
  accept: boolean;
  regex: RegExp;
  hostOrDomain: string | null;
}

export function parseAutomatonRules(source: RuleSource): AutomatonRule[] {
  const rules: AutomatonRule[] = [];
  let hostOrDomain: string | null = null;
  source.lines.forEach((line, i) => {
    if (line.trim() === '' || line[0] === '#' || line[0] === ' ') return;
    if (line[0] === '>') {
      hostOrDomain = line.slice(1).trim().toLowerCase() || null;
      return;
    }
    if (line[0] === '<') {
      hostOrDomain = null;
      return;
    }
    if (line[0] !== '+' && line[0] !== '-') throw ruleError(source, i + 1, `invalid first character ${JSON.stringify(line[0])}: a rule starts with '+' or '-', a comment with '#'`, line);
    try {
      rules.push({ accept: line[0] === '+', regex: compileBricsRegex(line.slice(1)), hostOrDomain });
    } catch (err) {
      throw ruleError(source, i + 1, `invalid automaton expression: ${(err as Error).message}`, line.slice(1));
    }
  });
  return rules;
}

export class AutomatonURLFilter implements URLFilter {
  private readonly rules: AutomatonRule[];
  private readonly maxLength: number;

  constructor(ctx: PluginContext) {
    const source = readRuleSource(ctx.conf, 'urlfilter.automaton.file', 'urlfilter.automaton.rules');
    this.rules = parseAutomatonRules(source);
    this.maxLength = maxURLLength(ctx.conf);
    ctx.log.debug(`urlfilter-automaton: ${this.rules.length} rules from ${source.origin}`);
  }

  filter(url: string): string | null {
    if (!isPlausibleURL(url, this.maxLength)) return null;
    let host: string | null | undefined;
    let domain: string | null = null;
    for (const rule of this.rules) {
      if (rule.hostOrDomain !== null) {
        if (host === undefined) {
          host = parseURL(url)?.host ?? null;
          domain = host === null ? null : domainOf(host);
        }
        if (host === null || (rule.hostOrDomain !== host && rule.hostOrDomain !== domain)) continue;
      }
      if (rule.regex.test(url)) return rule.accept ? url : null;
    }
    return null;
  }
}
