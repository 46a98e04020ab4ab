/**
 * Nutch's RegexURLFilter: the first rule of regex-urlfilter.txt whose pattern is found in the URL
 * (Matcher.find()) decides — `+` accepts, `-` rejects; no matching rule rejects. Rules come from
 * `urlfilter.regex.rules` (inline) or the file `urlfilter.regex.file`. Java patterns are translated
 * once at load (see java-regex/); a rule JavaScript cannot express exactly fails the load with its
 * file and line. Input that is not a URL at all is rejected before any regex runs (url-parts.ts).
 */
import { domainOf, type PluginContext, type URLFilter } from '../../sdk/plugin.js';
import { isPlausibleURL, maxURLLength, parseRegexRules, parseURL, readRuleSource, type RegexRule } from '../lib-regex-filter/index.js';

export class RegexURLFilter implements URLFilter {
  private readonly rules: RegexRule[];
  private readonly hostRules: boolean;
  private readonly maxLength: number;

  constructor(ctx: PluginContext) {
    const source = readRuleSource(ctx.conf, 'urlfilter.regex.file', 'urlfilter.regex.rules');
    this.rules = parseRegexRules(source);
    this.hostRules = this.rules.some((r) => r.hostOrDomain !== null);
    this.maxLength = maxURLLength(ctx.conf);
    ctx.log.debug(`urlfilter-regex: ${this.rules.length} rules from ${source.origin}`);
  }

  filter(url: string): string | null {
    if (!isPlausibleURL(url, this.maxLength)) return null;
    const rules = this.rules;
    if (!this.hostRules) {
      for (let i = 0; i < rules.length; i++) {
        if (rules[i].regex.test(url)) return rules[i].accept ? url : null;
      }
      return null;
    }
    const parts = parseURL(url);
    // as Nutch's RegexURLFilterBase: the host as written, or its domain
    const host = parts?.host ?? null;
    const domain = host === null ? null : domainOf(host);
    for (const rule of rules) {
      if (rule.hostOrDomain !== null && (host === null || (rule.hostOrDomain !== host && rule.hostOrDomain !== domain))) continue;
      if (rule.regex.test(url)) return rule.accept ? url : null;
    }
    return null;
  }
}
