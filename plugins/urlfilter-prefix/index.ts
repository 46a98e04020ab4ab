/**
 * Nutch's PrefixURLFilter: accepts a URL that starts with one of the prefixes of
 * prefix-urlfilter.txt (one per line; lines that are empty or start with '#' or a space are
 * skipped), rejects every other URL. Rules from `urlfilter.prefix.rules` or `urlfilter.prefix.file`.
 */
import type { PluginContext, URLFilter } from '../../sdk/plugin.js';
import { isPlausibleURL, maxURLLength, readRuleSource } from '../lib-regex-filter/index.js';

/** Prefixes grouped by length: one Set lookup per distinct length instead of a scan of all prefixes. */
export class PrefixMatcher {
  private readonly byLength = new Map<number, Set<string>>();
  private readonly lengths: number[];

  constructor(prefixes: Iterable<string>) {
    for (const p of prefixes) {
      let set = this.byLength.get(p.length);
      if (!set) this.byLength.set(p.length, (set = new Set()));
      set.add(p);
    }
    this.lengths = [...this.byLength.keys()].sort((a, b) => a - b);
  }

  get size(): number {
    let n = 0;
    for (const s of this.byLength.values()) n += s.size;
    return n;
  }

  matches(s: string): boolean {
    for (const len of this.lengths) {
      if (len > s.length) return false;
      if (this.byLength.get(len)!.has(s.slice(0, len))) return true;
    }
    return false;
  }
}

export class PrefixURLFilter implements URLFilter {
  private readonly prefixes: PrefixMatcher;
  private readonly maxLength: number;

  constructor(ctx: PluginContext) {
    const source = readRuleSource(ctx.conf, 'urlfilter.prefix.file', 'urlfilter.prefix.rules');
    const prefixes: string[] = [];
    for (const line of source.lines) {
      if (line.length === 0 || line[0] === '#' || line[0] === ' ' || line.trim() === '') continue;
      prefixes.push(line.trimEnd());
    }
    this.prefixes = new PrefixMatcher(prefixes);
    if (this.prefixes.size === 0) ctx.log.warn(`urlfilter-prefix: no prefixes in ${source.origin}; every URL will be rejected`, { file: source.origin });
    this.maxLength = maxURLLength(ctx.conf);
  }

  filter(url: string): string | null {
    if (!isPlausibleURL(url, this.maxLength)) return null;
    return this.prefixes.matches(url) ? url : null;
  }
}
