/**
 * Nutch's DomainDenylistURLFilter: rejects URLs whose public suffix, domain or exact host is listed
 * in domaindenylist-urlfilter.txt (`urlfilter.domaindenylist.file`, or inline
 * `urlfilter.domaindenylist.rules`); accepts every other URL. A URL without a host is rejected.
 */
import type { PluginContext, URLFilter } from '../../sdk/plugin.js';
import { isPlausibleURL, listedIn, maxURLLength, readDomainSet, readRuleSource } from '../lib-regex-filter/index.js';

export class DomainDenylistURLFilter implements URLFilter {
  private readonly domains: Set<string>;
  private readonly maxLength: number;

  constructor(ctx: PluginContext) {
    const source = readRuleSource(ctx.conf, 'urlfilter.domaindenylist.file', 'urlfilter.domaindenylist.rules');
    this.domains = readDomainSet(source);
    this.maxLength = maxURLLength(ctx.conf);
  }

  filter(url: string): string | null {
    if (!isPlausibleURL(url, this.maxLength)) return null;
    return listedIn(this.domains, url) === false ? url : null;
  }
}
