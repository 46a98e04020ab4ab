/**
 * Nutch's DomainURLFilter: accepts only URLs whose public suffix ("com", "co.uk"), domain
 * ("apache.org", with all its hosts) or exact host ("www.apache.org") is listed in
 * domain-urlfilter.txt (`urlfilter.domain.file`, or inline `urlfilter.domain.rules`). Suffix and
 * domain come from the public suffix list (tldts). A URL without a host is rejected.
 */
import type { PluginContext, URLFilter } from '../../sdk/plugin.js';
import { isPlausibleURL, listedIn, maxURLLength, readDomainSet, readRuleSource } from '../lib-regex-filter/index.js';

export class DomainURLFilter implements URLFilter {
  private readonly domains: Set<string>;
  private readonly maxLength: number;

  constructor(ctx: PluginContext) {
    const source = readRuleSource(ctx.conf, 'urlfilter.domain.file', 'urlfilter.domain.rules');
    this.domains = readDomainSet(source);
    if (this.domains.size === 0) ctx.log.warn(`urlfilter-domain: no entries in ${source.origin}; every URL will be rejected`, { file: source.origin });
    this.maxLength = maxURLLength(ctx.conf);
  }

  filter(url: string): string | null {
    if (!isPlausibleURL(url, this.maxLength)) return null;
    return listedIn(this.domains, url) === true ? url : null;
  }
}
