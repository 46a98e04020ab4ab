/**
 * Nutch's SuffixURLFilter over suffix-urlfilter.txt: one literal suffix per line (trimmed), plus
 * one mode line — `+` accepts URLs whose suffix is not listed (listed suffixes are rejected), `-`
 * accepts only listed suffixes; an `I` on the mode line makes matching case-insensitive, a `P`
 * matches the URL path only (query and fragment ignored; a URL whose path cannot be taken is
 * matched whole, as Nutch). Without a mode line the filter accepts only listed suffixes.
 */
import type { PluginContext, URLFilter } from '../../sdk/plugin.js';
import { isPlausibleURL, maxURLLength, parseURL, readRuleSource } from '../lib-regex-filter/index.js';

/** Suffixes grouped by length: one Set lookup per distinct length. */
class SuffixMatcher {
  private readonly byLength = new Map<number, Set<string>>();
  private readonly lengths: number[];

  constructor(suffixes: Iterable<string>) {
    for (const s of suffixes) {
      let set = this.byLength.get(s.length);
      if (!set) this.byLength.set(s.length, (set = new Set()));
      set.add(s);
    }
    this.lengths = [...this.byLength.keys()].sort((a, b) => a - b);
  }

  matches(s: string): boolean {
    for (const len of this.lengths) {
      if (len > s.length) return false;
      if (this.byLength.get(len)!.has(len === 0 ? '' : s.slice(-len))) return true;
    }
    return false;
  }
}

export class SuffixURLFilter implements URLFilter {
  private readonly suffixes: SuffixMatcher;
  private readonly modeAccept: boolean;
  private readonly ignoreCase: boolean;
  private readonly filterFromPath: boolean;
  private readonly maxLength: number;

  constructor(ctx: PluginContext) {
    const source = readRuleSource(ctx.conf, 'urlfilter.suffix.file', 'urlfilter.suffix.rules');
    const suffixes: string[] = [];
    let allow = false;
    let ignore = false;
    let path = false;
    for (const raw of source.lines) {
      const line = raw.trim();
      if (line.length === 0 || line[0] === '#') continue;
      if (line[0] === '+' || line[0] === '-') {
        allow = line[0] === '+';
        if (line.includes('P')) path = true;
        if (line.includes('I')) ignore = true;
        continue;
      }
      suffixes.push(line);
    }
    this.ignoreCase = ignore;
    this.modeAccept = allow;
    this.filterFromPath = path;
    this.suffixes = new SuffixMatcher(ignore ? suffixes.map((s) => s.toLowerCase()) : suffixes);
    this.maxLength = maxURLLength(ctx.conf);
  }

  filter(url: string): string | null {
    if (!isPlausibleURL(url, this.maxLength)) return null;
    let subject = this.ignoreCase ? url.toLowerCase() : url;
    if (this.filterFromPath) {
      const parts = parseURL(subject);
      if (parts) subject = parts.path;
    }
    const listed = this.suffixes.matches(subject);
    return listed !== this.modeAccept ? url : null;
  }
}
