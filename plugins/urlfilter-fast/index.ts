/**
 * Nutch's FastURLFilter: host- and domain-keyed deny rules, so only the rules of the URL's own host
 * and of its parent domains run. Lookup order as Nutch: `Host <host>` rules, `Domain` rules for the
 * host itself, then for each parent domain from longer to shorter ("www.example.com" →
 * "example.com" → "com"), then global `Domain .` rules. The first rule that matches rejects; no
 * match accepts. A URL that cannot be split into host and path is rejected. Before any rule, the length
 * limits (`urlfilter.fast.url.max.length`, `.url.path.max.length`, `.url.query.max.length`; -1 = none)
 * reject overlong URLs, paths and queries, as Nutch.
 */
import type { PluginContext, URLFilter } from '../../sdk/plugin.js';
import { type URLParts, isPlausibleURL, maxURLLength, parseURL, readRuleSource } from '../lib-regex-filter/index.js';
import { parseFastRules, type FastRule, type FastRules } from './fast-rules.js';

function denies(rules: FastRule[] | undefined, parts: URLParts): boolean {
  if (!rules) return false;
  for (const rule of rules) {
    if (rule.kind === 'all') return true;
    const haystack = rule.kind === 'path' || parts.query === null ? parts.path : `${parts.path}?${parts.query}`;
    if (rule.regex!.test(haystack)) return true;
  }
  return false;
}

export class FastURLFilter implements URLFilter {
  private readonly rules: FastRules;
  private readonly maxLength: number;
  private readonly maxURLLength: number;
  private readonly maxPathLength: number;
  private readonly maxQueryLength: number;

  constructor(ctx: PluginContext) {
    const source = readRuleSource(ctx.conf, 'urlfilter.fast.file', 'urlfilter.fast.rules');
    this.rules = parseFastRules(source);
    for (const line of this.rules.orphanLines) {
      ctx.log.warn(`urlfilter-fast: ${source.origin}:${line}: rule before any Host or Domain line, ignored (as Nutch)`, { file: source.origin, line });
    }
    this.maxLength = maxURLLength(ctx.conf);
    this.maxURLLength = ctx.conf.getInt('urlfilter.fast.url.max.length');
    this.maxPathLength = ctx.conf.getInt('urlfilter.fast.url.path.max.length');
    this.maxQueryLength = ctx.conf.getInt('urlfilter.fast.url.query.max.length');
  }

  filter(url: string): string | null {
    if (this.maxURLLength !== -1 && typeof url === 'string' && url.length > this.maxURLLength) return null;
    if (!isPlausibleURL(url, this.maxLength)) return null;
    const parts = parseURL(url);
    if (!parts) return null;
    if (this.maxPathLength !== -1 && parts.path.length > this.maxPathLength) return null;
    if (this.maxQueryLength !== -1 && parts.query !== null && parts.query.length > this.maxQueryLength) return null;
    const host = parts.host;
    const { hostRules, domainRules } = this.rules;
    if (host !== '') {
      if (denies(hostRules.get(host), parts)) return null;
      if (domainRules.size > 0) {
        if (denies(domainRules.get(host), parts)) return null;
        let dot = host.indexOf('.');
        while (dot !== -1) {
          if (denies(domainRules.get(host.slice(dot + 1)), parts)) return null;
          dot = host.indexOf('.', dot + 1);
        }
      }
    }
    if (denies(domainRules.get('.'), parts)) return null;
    return url;
  }
}
