/**
 * urlfilter-ignoreexempt, as Nutch's ExemptionUrlFilter: with db.ignore.external.links on, an outlink to
 * another host is still kept when db-ignore-external-exemptions.txt accepts its URL — the rules and
 * their semantics are regex-urlfilter.txt's (first matching rule decides, no match: not exempt). Only
 * the target URL is tested, as in Nutch; the page it is linked from plays no part.
 */
import { domainOf, type PluginContext, type URLExemptionFilter } from '../../sdk/plugin.js';
import { parseRegexRules, parseURL, readRuleSource, type RegexRule } from '../lib-regex-filter/index.js';

export class ExemptionUrlFilter implements URLExemptionFilter {
  private readonly rules: RegexRule[];

  constructor(ctx: PluginContext) {
    const source = readRuleSource(ctx.conf, 'db.ignore.external.exemptions.file');
    this.rules = parseRegexRules(source);
    ctx.log.debug(`urlfilter-ignoreexempt: ${this.rules.length} rules from ${source.origin}`);
  }

  filter(_fromUrl: string, toUrl: string): boolean {
    let host: string | null | undefined;
    let domain: string | null = null;
    for (const rule of this.rules) {
      if (rule.hostOrDomain !== null) {
        // a `>host` block applies to that host or domain only, as in regex-urlfilter.txt
        if (host === undefined) {
          host = parseURL(toUrl)?.host ?? null;
          domain = host === null ? null : domainOf(host);
        }
        if (rule.hostOrDomain !== host && rule.hostOrDomain !== domain) continue;
      }
      if (rule.regex.test(toUrl)) return rule.accept;
    }
    return false;
  }
}
